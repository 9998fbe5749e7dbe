"""Build the beyond-BGB lay sets: dev.jsonl (or train.jsonl) from its parts, and the README's counts.

Usage: .venv/bin/python eval/lay-beyond/build.py [--set dev|train] [--check]

``--set dev`` (the default) builds the dev set here; ``--set train`` the training questions of
``eval/lay-beyond-train/`` (parts ``train-*.jsonl`` -> ``train.jsonl``), by the same rules.

The questions are written in parts (``dev-a.jsonl``, ``dev-b.jsonl``, ...), one per author, so two
people can add questions without touching the same file. ``dev.jsonl`` (what ``legalkg eval
--dataset lay_beyond`` reads) is their concatenation in name order, byte for byte; the README's
table of questions per topic and law is rendered between its two marker lines from that file, so
neither can drift from the parts. ``--check`` writes nothing and exits 1 where either is stale
(tests/eval/test_lay_beyond.py checks the same).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: set name -> (folder, file prefix): the parts are ``<prefix>-*.jsonl``, the built file ``<prefix>.jsonl``
SETS = {"dev": (HERE, "dev"), "train": (HERE.parent / "lay-beyond-train", "train")}
DEV = HERE / "dev.jsonl"
README = HERE / "README.md"
START, END = "<!-- counts:start (build.py writes this table) -->", "<!-- counts:end -->"
#: the order topics are listed in; a topic not named here follows, alphabetically
TOPICS = ("labour", "criminal", "traffic", "tax", "social")


def parts(folder: Path = HERE, prefix: str = "dev") -> list[Path]:
    """The part files, in name order (the order their questions take in the built file)."""
    return sorted(folder.glob(f"{prefix}-*.jsonl"))


def concatenated(files: list[Path]) -> bytes:
    """The parts joined, each ending in one newline (so a part without a final newline cannot merge two lines)."""
    return b"".join(f.read_bytes().rstrip(b"\n") + b"\n" for f in files if f.read_bytes().strip())


def records(data: bytes) -> list[dict]:
    return [json.loads(line) for line in data.decode("utf-8").splitlines() if line.strip()]


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
    built, readme_path, files = folder / f"{prefix}.jsonl", folder / "README.md", parts(folder, prefix)
    data = concatenated(files)
    readme = with_table(readme_path.read_text(encoding="utf-8"), counts_table(records(data)), readme_path)
    stale = [p.name for p, new in ((built, data), (readme_path, readme.encode("utf-8")))
             if not p.exists() or p.read_bytes() != new]
    if "--check" in argv:
        if stale:
            print(f"stale: {', '.join(stale)}; run .venv/bin/python eval/lay-beyond/build.py --set {name}",
                  file=sys.stderr)
        return 1 if stale else 0
    built.write_bytes(data)
    readme_path.write_text(readme, encoding="utf-8")
    print(f"{built.name}: {len(records(data))} questions from {', '.join(p.name for p in files)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
