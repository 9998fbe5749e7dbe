"""Rerun the command each entry of the shipped fusion weights records and compare the weights it chooses.

    .venv/bin/python benchmarks/fusion_rebuild.py [--task case --task lay] [--out eval/out/fusion-rebuild]
        [--doc docs/benchmarks/fusion-rebuild.md]

Each entry of ``legalkg/data/fusion-weights.json`` records the ``legalkg eval ... --tune-weights
--save-weights`` command that chose it. This runs that command as recorded, with ``--out`` and
``--save-weights`` moved into ``--out`` (git-ignored scratch) so no shipped file is touched, against the
graph the environment names (the 58 default codes ingested, with the vectors the entry was tuned with),
and compares: the weights must be the same grid point, the inner-CV recall within ``RECALL_TOLERANCE``
(the folds are seeded; the vectors and the Neo4j full-text scores may differ in their last digits).
A nested-CV run takes 15-30 minutes on 2 cores per task, so this is a benchmark, not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # research/ is not installed

from legalkg import paths  # noqa: E402
from legalkg.retrieve import weights as shipped_weights  # noqa: E402
from research.machine import cpu_model  # noqa: E402

#: Largest difference of the inner-CV recall that still counts as the same choice.
RECALL_TOLERANCE = 0.005


def rebuild_args(command: str, out: Path) -> list[str]:
    """The recorded command's arguments with ``$LEGALKG_SHARED``/``$TMPDIR`` expanded and ``--out`` and
    ``--save-weights`` moved into ``out`` (pure apart from the environment)."""
    words = shlex.split(os.path.expandvars(command.replace("$LEGALKG_SHARED", str(paths.shared_dir()))))
    if words[:2] != ["legalkg", "eval"]:
        raise SystemExit(f"not a legalkg eval command: {command}")
    args = words[1:]
    for option, target in (("--out", out / "run"), ("--save-weights", out / "fusion-weights.json")):
        args[args.index(option) + 1] = str(target)
    return args


def rebuild(task: str, entry: dict, out: Path) -> dict:
    scratch = out / task
    scratch.mkdir(parents=True, exist_ok=True)
    args = rebuild_args(entry["command"], scratch)
    started = time.perf_counter()
    run = subprocess.run([sys.executable, "-m", "legalkg.cli", *args], capture_output=True, text=True, cwd=REPO,
                         env={**os.environ, "PYTHONPATH": str(REPO)})
    seconds = time.perf_counter() - started
    if run.returncode != 0:
        sys.exit(f"{task}: legalkg eval failed: {run.stderr.strip()[-2000:] or run.stdout.strip()[-2000:]}")
    got = shipped_weights.read(scratch / "fusion-weights.json")[task]
    delta = got["inner_cv_recall"] - entry["inner_cv_recall"]
    return {"task": task, "command": entry["command"], "seconds": round(seconds), "shipped": entry["weights"],
            "rebuilt": got["weights"], "shipped_recall": entry["inner_cv_recall"],
            "rebuilt_recall": got["inner_cv_recall"], "recall_delta": round(delta, 4),
            "same": got["weights"] == entry["weights"] and abs(delta) <= RECALL_TOLERANCE}


def render(rows: list[dict]) -> str:
    lines = ["# The shipped fusion weights chosen again by their recorded commands", "",
             f"- run: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {cpu_model()}, `python benchmarks/fusion_rebuild.py`",
             f"- compared: the weights (the same grid point) and the inner-CV recall (within {RECALL_TOLERANCE})", ""]
    for r in rows:
        lines += [f"## {r['task']}", "", f"- command: `{r['command']}`", f"- time: {r['seconds']} s",
                  f"- weights: shipped {r['shipped']}, rebuilt {r['rebuilt']}",
                  f"- inner-CV recall: shipped {r['shipped_recall']}, rebuilt {r['rebuilt_recall']}",
                  f"- result: **{'the same choice' if r['same'] else 'another choice'}**", ""]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--task", action="append")
    ap.add_argument("--out", type=Path, default=REPO / "eval" / "out" / "fusion-rebuild")
    ap.add_argument("--doc", type=Path, default=REPO / "docs" / "benchmarks" / "fusion-rebuild.md")
    args = ap.parse_args()
    entries = shipped_weights.read(shipped_weights.default_path())
    rows = [rebuild(task, entries[task], args.out) for task in (args.task or sorted(entries))]
    args.doc.write_text(render(rows), "utf-8")
    args.doc.with_suffix(".json").write_text(json.dumps(rows, indent=1) + "\n", "utf-8")
    for r in rows:
        print(f"{r['task']}: {r['seconds']} s, " + ("same choice" if r["same"] else f"another choice: {r}"))
    print(f"wrote {args.doc}")


if __name__ == "__main__":
    main()
