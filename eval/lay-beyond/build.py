"""Build the beyond-BGB lay sets: dev.jsonl (or train.jsonl) from its parts, and the README's counts.

Usage: .venv/bin/python eval/lay-beyond/build.py [--set dev|train|outside] [--check]

``--set dev`` (the default) builds the dev set here; ``--set train`` the training questions of
``eval/lay-beyond-train/`` (parts ``train-*.jsonl``): ``train.jsonl`` holds every part's question
except those that retell a scored question (``close_to_dev``), ``unshared.jsonl`` only those whose
gold §§ no scored question names (the strict check of what the training questions teach);
``--set outside`` the training questions about laws outside the 58 default codes of
``eval/lay-outside-train/`` (parts ``train-*.jsonl``, built ``train.jsonl``, the same leak rule);
``--set more`` the further training questions beyond BGB of ``eval/lay-beyond-more/`` (measured, not in
the shipped models' recipe; built as ``--set train``).

The questions are written in parts (``dev-a.jsonl``, ``dev-b.jsonl``, ...), one per author, so two
people can add questions without touching the same file. ``dev.jsonl`` (what ``legalkg eval
--dataset lay_beyond`` reads) is their concatenation in name order, byte for byte; the README's
table of questions per topic and law is rendered between its two marker lines from that file, so
neither can drift from the parts. ``--check`` writes nothing and exits 1 where either is stale
(tests/eval/test_lay_beyond.py checks the same).
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: set name -> (folder, file prefix): the parts are ``<prefix>-*.jsonl``, the built file ``<prefix>.jsonl``
SETS = {"dev": (HERE, "dev"), "train": (HERE.parent / "lay-beyond-train", "train"),
        "outside": (HERE.parent / "lay-outside-train", "train"), "more": (HERE.parent / "lay-beyond-more", "train")}
DEV = HERE / "dev.jsonl"
README = HERE / "README.md"
START, END = "<!-- counts:start (build.py writes this table) -->", "<!-- counts:end -->"
#: the order topics are listed in; a topic not named here follows, alphabetically
TOPICS = ("labour", "criminal", "traffic", "tax", "social")
#: the scored questions a training question must not retell (the dev set and the outside-58 list)
SCORED = (HERE / "dev.jsonl", HERE / "outside58.jsonl")
#: a training question sharing this share of its word set with a scored question retells it ...
CLOSE = 0.3
#: ... and so does one sharing this share with a scored question about the same §: questions written
#: independently by the same method meet on the same situations (a closed plant, a knife in the
#: pocket), so word overlap alone lets through a retold situation whose words were changed
CLOSE_SAME_GOLD = 0.2


def parts(folder: Path = HERE, prefix: str = "dev") -> list[Path]:
    """The part files, in name order (the order their questions take in the built file)."""
    return sorted(folder.glob(f"{prefix}-*.jsonl"))


def concatenated(files: list[Path]) -> bytes:
    """The parts joined, each ending in one newline (so a part without a final newline cannot merge two lines)."""
    return b"".join(f.read_bytes().rstrip(b"\n") + b"\n" for f in files if f.read_bytes().strip())


def records(data: bytes) -> list[dict]:
    return [json.loads(line) for line in data.decode("utf-8").splitlines() if line.strip()]


def words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))


def jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


def close_to_dev(rec: dict, scored: list[dict]) -> bool:
    """Whether a training question retells a scored one (``CLOSE``, ``CLOSE_SAME_GOLD``)."""
    w, gold = words(rec["question"]), set(rec["gold"])
    return any((j := jaccard(w, words(s["question"]))) >= CLOSE or (j >= CLOSE_SAME_GOLD and gold & set(s["gold"]))
               for s in scored)


def kept_lines(data: bytes, keep) -> bytes:
    """The lines of ``data`` whose record ``keep`` accepts, byte for byte."""
    return b"".join(line + b"\n" for line in data.splitlines() if line.strip() and keep(json.loads(line)))


def outputs(name: str, data: bytes) -> dict[str, bytes]:
    """The built files of a set from its concatenated parts (module docstring)."""
    if name == "dev":
        return {"dev.jsonl": data}
    scored = [r for f in SCORED for r in records(f.read_bytes())]
    scored_gold = {g for r in scored for g in r["gold"]}
    train = kept_lines(data, lambda r: not close_to_dev(r, scored))
    if name == "outside":
        return {"train.jsonl": train}
    return {"train.jsonl": train, "unshared.jsonl": kept_lines(train, lambda r: not set(r["gold"]) & scored_gold)}


def _topic_key(topic: str) -> tuple[int, str]:
    return (TOPICS.index(topic) if topic in TOPICS else len(TOPICS), topic)


def counts_table(recs: list[dict]) -> str:
    """Markdown: one row per (topic, law) with its questions and distinct gold §§, then the totals."""
    by_law = Counter((r["topic"], r["law"]) for r in recs)
    gold = {key: set() for key in by_law}
    for r in recs:
        gold[(r["topic"], r["law"])].update(r["gold"])
    rows = ["| topic | law | questions | distinct gold §§ |", "|---|---|---|---|"]
    for topic, law in sorted(by_law, key=lambda k: (_topic_key(k[0]), k[1])):
        rows.append(f"| {topic} | {law} | {by_law[(topic, law)]} | {len(gold[(topic, law)])} |")
    n_topics = len({t for t, _ in by_law})
    n_gold = len({g for r in recs for g in r["gold"]})
    rows.append(f"| **all** ({n_topics} topics) | **{len(by_law)} laws** | **{len(recs)}** | **{n_gold}** |")
    return "\n".join(rows)


def with_table(readme: str, table: str, where: Path = README) -> str:
    """The README text with the block between the markers replaced by ``table``."""
    head, sep, rest = readme.partition(START)
    _, sep2, tail = rest.partition(END)
    if not (sep and sep2):
        raise SystemExit(f"{where}: the marker lines {START!r} and {END!r} are missing; put them back around the "
                         "counts table")
    return f"{head}{START}\n{table}\n{END}{tail}"


def main(argv: list[str]) -> int:
    name = argv[argv.index("--set") + 1] if "--set" in argv else "dev"
    folder, prefix = SETS[name]
    readme_path, files = folder / "README.md", parts(folder, prefix)
    built = {folder / n: data for n, data in outputs(name, concatenated(files)).items()}
    first = next(iter(built.values()))
    readme = with_table(readme_path.read_text(encoding="utf-8"), counts_table(records(first)), readme_path)
    stale = [p.name for p, new in (*built.items(), (readme_path, readme.encode("utf-8")))
             if not p.exists() or p.read_bytes() != new]
    if "--check" in argv:
        if stale:
            print(f"stale: {', '.join(stale)}; run .venv/bin/python eval/lay-beyond/build.py --set {name}",
                  file=sys.stderr)
        return 1 if stale else 0
    for path, data in built.items():
        path.write_bytes(data)
        print(f"{path.name}: {len(records(data))} questions from {', '.join(p.name for p in files)}")
    readme_path.write_text(readme, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
