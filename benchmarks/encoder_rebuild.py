"""Rebuild the shipped static encoder by its documented command and say how close it is to the shipped file.

    .venv/bin/python benchmarks/encoder_rebuild.py [--rebuilt FILE] [--out eval/out/encoder-rebuild]
        [--doc docs/benchmarks/encoder-rebuild.md]
    .venv/bin/python benchmarks/encoder_rebuild.py --subset [--repeat 3] [--write-reference]

Full (the default): runs ``legalkg train-encoder`` with ``research.encoder_rebuild.RECIPE`` (docs/embeddings.md;
``--steps 163 --seed 0``, a quarter of an hour on 2 cores) into ``--out`` (git-ignored scratch), or takes
``--rebuilt`` when that file was built by the same command already, and compares it with
``legalkg/data/static-encoder.npz``: the header, and the measures of ``research/encoder_rebuild.py`` with
GerLayQA dev's questions (never trained on) against the § texts of the 58 default codes, recall@10 on
their gold §§ included. Writes ``--doc`` and, beside it, the measures as JSON. It never replaces the
shipped file.

``--subset``: trains the reduced recipe (``SUBSET``) ``--repeat`` times and compares each with
tests/predict/static-encoder-subset.npz, the spread the plain suite's tolerance must cover;
``--vary '--seed 1'`` adds a run with an option changed, to show what the tolerance rejects;
the runs go to ``--subset-result``. ``--write-reference`` writes that file from the first run instead
(only when a change of the encoder's training is meant to change what it learns; the test never writes it).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # research/ is not installed

from legalkg import paths  # noqa: E402
from legalkg.embed.static import DEFAULT_FILE, load_model  # noqa: E402
from research.encoder_rebuild import (  # noqa: E402
    REFERENCE,
    SUBSET_TOLERANCE,
    TOLERANCE,
    compare,
    failures,
    meta_differences,
    recipe_args,
    subset_args,
    subset_texts,
)
from research.machine import cpu_model  # noqa: E402


def train(args: list[str]) -> tuple[float, str]:
    """Run ``legalkg`` with ``args``; (seconds, its output line)."""
    started = time.perf_counter()
    run = subprocess.run([sys.executable, "-m", "legalkg.cli", *args], capture_output=True, text=True, cwd=REPO,
                         env={**os.environ, "PYTHONPATH": str(REPO)})
    if run.returncode != 0:
        sys.exit(f"legalkg train-encoder failed: {run.stderr.strip() or run.stdout.strip()}")
    return time.perf_counter() - started, paths.portable(run.stdout.strip())


def full_texts() -> tuple[list[str], list[str], list[set[int]]]:
    """GerLayQA dev's questions, the § texts of the 58 default codes, and each question's gold §§."""
    from legalkg.encoder.corpus import read_corpus
    from legalkg.predict import load_examples

    corpus = read_corpus(None)
    ids = [uid for uid in corpus.texts if uid.count("/") == 1]
    where = {uid: i for i, uid in enumerate(ids)}
    examples = load_examples([paths.eval_dir() / "gerlayqa" / "dev.jsonl"]).examples
    gold = [{where[label] for label in ex.labels if label in where} for ex in examples]
    keep = [i for i, g in enumerate(gold) if g]
    return [examples[i].text for i in keep], [corpus.texts[u] for u in ids], [gold[i] for i in keep]


def render(row: dict, source: str) -> str:
    """The page of one full comparison; every measure and bound quotes its field of ``source`` (the JSON
    beside the page, tests/test_figures.py reads them back)."""
    m = row["measures"]

    def quoted(value: float, field: str) -> str:
        return f"{value:.4f}<!-- from {source}: {field} -->"

    verdict = ("**within the tolerance** (a table of the same quality, not the same table: the measures "
               "without a bound show how far the two tables lie apart)" if not row["failures"]
               and not row["meta_differs"] else "**outside the tolerance**: "
               + ", ".join(row["failures"] + [f"header `{k}`" for k in row["meta_differs"]]))
    lines = ["# The shipped static encoder rebuilt in full", "",
             f"- run: {row['date']}, {row['cpu']}, `nice -n 5`; compared by "
             "`python benchmarks/encoder_rebuild.py" + (" --rebuilt FILE`" if row["given"] else "`"),
             f"- command: `legalkg {row['command']}`",
             f"- time: `{str(row['seconds']).replace('`', '')}`; it said: `{row['report']}`",
             f"- texts: {m['queries']:,} GerLayQA dev questions against {m['docs']:,} § texts of the 58 "
             "default codes (`research/encoder_rebuild.py` says what each measure is)",
             f"- header: {'the same apart from the time bound' if not row['meta_differs'] else row['meta_differs']}",
             "", "| measure | rebuilt vs shipped | tolerance |", "|---|---:|---:|"]
    for name in ("token_jaccard", "same_ids", "row_cosine", "top10_overlap", "score_correlation",
                 "recall_shipped", "recall_rebuilt", "recall_delta"):
        bound = row["tolerance"].get(name)
        shown = "" if bound is None else ("\\|x\\| <= " if name.endswith("_delta") else ">= ") + quoted(
            bound, f"tolerance.{name}")
        lines.append(f"| {name} | {quoted(m[name], f'measures.{name}')} | {shown} |")
    lines += ["", f"- result: {verdict}", *([f"- note: {row['note']}"] if row.get("note") else []), ""]
    return "\n".join(lines)


def relative(path: Path) -> str:
    """``path`` as a page's quote names it: from the checkout's root."""
    return path.resolve().relative_to(REPO).as_posix()


def full(args: argparse.Namespace) -> None:
    if args.render_only:
        row = json.loads(args.doc.with_suffix(".json").read_text("utf-8"))
        row["note"] = args.note or row.get("note")
        row["measures"] = {k: round(v, 4) if isinstance(v, float) else v for k, v in row["measures"].items()}
        args.doc.write_text(render(row, relative(args.doc.with_suffix(".json"))), "utf-8")
        args.doc.with_suffix(".json").write_text(json.dumps(row, indent=1, sort_keys=True) + "\n", "utf-8")
        return
    target = args.rebuilt or args.out / "static-encoder.npz"
    target.parent.mkdir(parents=True, exist_ok=True)
    command = recipe_args(paths.eval_dir(), target)
    seconds, report = (None, "(built before, by the same command)") if args.rebuilt else train(command)
    log = target.parent / "build.log"  # `/usr/bin/time -v legalkg train-encoder ... > build.log 2>&1`
    if args.rebuilt and log.is_file():
        text = log.read_text("utf-8")
        report = paths.portable(text.splitlines()[0])
        wall = re.search(r"Elapsed \(wall clock\).*?: ([\d:.]+)", text)
        seconds = wall.group(1) + " wall (/usr/bin/time -v)" if wall else None
    shipped, rebuilt = load_model(DEFAULT_FILE), load_model(target)
    queries, docs, gold = full_texts()
    measures = compare(shipped, rebuilt, queries, docs, gold)
    measures = {k: round(v, 4) for k, v in measures.items()}  # as the page prints them
    measures.update(queries=len(queries), docs=len(docs))
    shown = " ".join(paths.portable(a) for a in command)
    row = {"date": f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC", "cpu": cpu_model(), "given": bool(args.rebuilt),
           "command": shown, "seconds": seconds if seconds is None or isinstance(seconds, str) else f"{seconds:.0f} s",
           "report": report, "measures": measures, "failures": failures(measures),
           "meta_differs": meta_differences(shipped.meta, rebuilt.meta), "tolerance": TOLERANCE, "note": args.note}
    args.doc.write_text(render(row, relative(args.doc.with_suffix(".json"))), "utf-8")
    args.doc.with_suffix(".json").write_text(json.dumps(row, indent=1, sort_keys=True) + "\n", "utf-8")
    print(json.dumps(measures, indent=1))
    print(f"wrote {args.doc} and {args.doc.with_suffix('.json').name}")


def subset(args: argparse.Namespace) -> None:
    from legalkg.encoder.corpus import read_corpus

    texts = subset_texts(read_corpus(["burlg"]))
    runs = [("the same command", [])] * args.repeat + [(v, v.split()) for v in args.vary]
    rows = []
    for label, change in runs:
        with tempfile.TemporaryDirectory() as scratch:
            target = Path(scratch) / "subset.npz"
            command = subset_args(paths.eval_dir(), target)
            for i in range(0, len(change), 2):
                command[command.index(change[i]) + 1] = change[i + 1]
            seconds, report = train(command)
            if args.write_reference:
                shutil.copyfile(target, REFERENCE)
                print(f"wrote {REFERENCE.relative_to(REPO)} ({seconds:.0f} s): {report}")
                return
            load_model.cache_clear()
            got = load_model(target)
            measures = compare(load_model(REFERENCE), got, *texts)
        row = {"run": label, "seconds": round(seconds), "measures": {k: round(v, 4) for k, v in measures.items()},
               "outside": failures(measures, SUBSET_TOLERANCE),
               "header_differs": meta_differences(load_model(REFERENCE).meta, got.meta)}
        rows.append(row)
        print(json.dumps(row))
    result = {"date": f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC", "cpu": cpu_model(),
              "command": "legalkg " + " ".join(paths.portable(a) for a in subset_args(paths.eval_dir(), Path("OUT"))),
              "reference": str(REFERENCE.relative_to(REPO)), "tolerance": SUBSET_TOLERANCE, "runs": rows}
    args.subset_result.write_text(json.dumps(result, indent=1) + "\n", "utf-8")
    print(f"wrote {args.subset_result}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rebuilt", type=Path, help="compare this file, built by the documented command, instead")
    ap.add_argument("--out", type=Path, default=REPO / "eval" / "out" / "encoder-rebuild")
    ap.add_argument("--doc", type=Path, default=REPO / "docs" / "benchmarks" / "encoder-rebuild.md")
    ap.add_argument("--note", help="a line of what the run found beyond the measures")
    ap.add_argument("--render-only", action="store_true", help="write --doc again from its JSON (and --note)")
    ap.add_argument("--subset", action="store_true", help="the reduced recipe of the plain suite instead")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--vary", action="append", default=[],
                    help="also a run with these options changed, e.g. '--seed 1' (shows what the tolerance rejects)")
    ap.add_argument("--write-reference", action="store_true")
    ap.add_argument("--subset-result", type=Path,
                    default=REPO / "docs" / "benchmarks" / "encoder-rebuild-subset.json")
    args = ap.parse_args()
    subset(args) if args.subset else full(args)


if __name__ == "__main__":
    main()
