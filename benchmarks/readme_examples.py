"""The README's example questions as the shipped engine answers them on the graph ``NEO4J_URI`` points
at (research/examples.py), written to ``OUT/results.json`` with the graph's laws; the docs' table is
rendered from that file (``python scripts/figures.py``).

    .venv/bin/python benchmarks/readme_examples.py --out eval/ranker/graph-candidates/examples \
        --against DIR --against-name REF

``--against DIR`` (a source tree of another commit: ``git archive REF | tar -x -C DIR``) answers the
same questions with that tree's engine and shipped models, in a process of its own on the same graph,
and stores its rows beside this checkout's (``before``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

from legalkg.graph.config import load_config
from legalkg.graph.connection import open_driver
from legalkg.retrieve import Retriever

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # research/ is not installed
from research.examples import answer  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, help="folder for results.json")
    ap.add_argument("--against", type=Path, help="a source tree of another commit, answered beside this one")
    ap.add_argument("--against-name", default="", help="with --against: its name in the file (e.g. a commit)")
    ap.add_argument("--rows-only", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    cfg = load_config()
    with open_driver(cfg) as driver:
        laws = sorted(r["id"] for r in driver.execute_query("MATCH (g:Gesetz) RETURN g.id AS id",
                                                             database_=cfg.database).records)
        rows = answer(Retriever(driver, cfg.database))
    if args.rows_only:
        print(json.dumps(rows, ensure_ascii=False))
        return
    run = {"command": "python benchmarks/readme_examples.py --out " + args.out.as_posix(),
           "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"), "laws": laws, "rows": rows}
    if args.against:
        out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--rows-only"], check=True,
                             env={**os.environ, "PYTHONPATH": str(args.against.resolve())}, cwd=Path.cwd(),
                             capture_output=True, text=True).stdout
        run["command"] += f" --against DIR --against-name {args.against_name}"
        run["before"] = {"name": args.against_name, "rows": json.loads(out.splitlines()[-1])}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.json").write_text(json.dumps(run, ensure_ascii=False, indent=1) + "\n", "utf-8")
    for r in rows:
        print(r["gold"], r["gold_rank"], r["top"][:5])


if __name__ == "__main__":
    main()
