"""Chunking study benchmark: run (or read) a `python -m research.chunking` output folder and write
docs/benchmarks/chunking.md with each strategy beside the naive peer (section retrieval) and the
ratio to it (Recall@10, latency, build time, size).

    NEO4J_URI=bolt://127.0.0.1:7688 NEO4J_PASSWORD=... \
        .venv/bin/python benchmarks/chunking_study.py --questions PATH --out DIR [--limit N]
    .venv/bin/python benchmarks/chunking_study.py --from DIR     # only render an existing run

The rendered table replaces the top of the doc; everything from the MARKER line on (the
hand-written history of earlier runs) is kept.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MARKER = "<!-- benchmarks/chunking_study.py rewrites the part above this line and keeps the rest -->"


def render(folder: Path, command: str) -> str:
    rows = list(csv.DictReader((folder / "results.csv").open(encoding="utf-8")))
    meta = json.loads((folder / "run.json").read_text("utf-8"))
    peer = next((r for r in rows if r["strategy"] == "section"), None)
    lines = [
        "# Chunking study (issue 8): strategies vs section retrieval", "",
        f"- date: {dt.datetime.now():%Y-%m-%d %H:%M}",
        f"- command: `{command}`",
        f"- data: `{meta['config']['questions']}`, {meta['n_questions']} questions"
        + (f" (--limit {meta['config']['limit']})" if meta['config'].get('limit') else ""),
        f"- model: {meta['config']['model']} ({meta['model_version']}, {meta['dim']}-d); "
        f"total wall time {meta['total_s']:.0f} s on a shared 2-core machine",
        "- naive peer: `section` (one vector per §); ratio = strategy / section",
        "",
        "| strategy | Recall@10 | ratio | latency ms | ratio | build s | ratio | size MB | ratio |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]

    def ratio(r, key):
        if not peer or float(peer[key]) == 0:
            return ""
        return f"{float(r[key]) / float(peer[key]):.2f}"

    for r in rows:
        lines.append(f"| {r['strategy']} | {float(r['recall_at_10']):.3f} | {ratio(r, 'recall_at_10')} "
                     f"| {float(r['latency_ms']):.2f} | {ratio(r, 'latency_ms')} | {float(r['build_s']):.1f} "
                     f"| {ratio(r, 'build_s')} | {float(r['size_mb']):.1f} | {ratio(r, 'size_mb')} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--from", dest="source", type=Path)
    ap.add_argument("--questions", type=Path)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--limit", type=int)
    ap.add_argument("--doc", type=Path, default=REPO / "docs" / "benchmarks" / "chunking.md")
    ap.add_argument("--command", help="with --from: the command that made the run (shown in the doc)")
    args = ap.parse_args()
    if args.source:
        folder, command = args.source, args.command or f"benchmarks/chunking_study.py --from {args.source}"
    else:
        if not args.questions or not args.out:
            sys.exit("give --from DIR, or --questions PATH and --out DIR")
        cmd = [sys.executable, "-m", "research.chunking", "--questions", str(args.questions),
               "--out", str(args.out)] + (["--limit", str(args.limit)] if args.limit else [])
        subprocess.run(cmd, check=True, cwd=REPO)
        folder, command = args.out, "python " + " ".join(cmd[1:])
    args.doc.parent.mkdir(parents=True, exist_ok=True)
    old = args.doc.read_text("utf-8") if args.doc.is_file() else ""
    kept = old[old.index(MARKER):] if MARKER in old else MARKER + "\n"
    args.doc.write_text(render(folder, command) + "\n" + kept, "utf-8")
    print(f"wrote {args.doc}")


if __name__ == "__main__":
    main()
