"""Rebuild the shipped predictor models in full and say whether they are the shipped files.

    .venv/bin/python benchmarks/predictor_rebuild.py [--task lay --task case] [--out eval/out/predictor-rebuild]
        [--doc docs/benchmarks/predictor-rebuild.md]

Runs the documented ``legalkg train`` command of each task (``research.predictors.RECIPES``: the shared
training files, ``--seed 0``, the 58 default codes) into ``--out`` (git-ignored scratch), compares the
fingerprint of each rebuilt file with that of ``legalkg/data/predictor-<task>.npz`` and writes the
result to ``--doc``: the command, its time, and the arrays that differ. It never replaces a shipped
file: copy the rebuilt one over it deliberately, and rewrite tests/predict/fingerprints.json after.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # research/ is not installed

from legalkg import paths  # noqa: E402
from legalkg.predict.modelfile import default_model_path  # noqa: E402
from research.machine import cpu_model  # noqa: E402
from research.predictors import RECIPES, differences, fingerprint, recipe_file, train_args  # noqa: E402


def rebuild(task: str, out: Path) -> dict:
    """Train ``task`` as documented into ``out``; compare with the shipped file."""
    files, name = RECIPES[task]
    data = [recipe_file(f, paths.eval_dir()) for f in files]
    target = out / name
    args = train_args(task, data, target)
    started = time.perf_counter()
    run = subprocess.run([sys.executable, "-m", "legalkg.cli", *args], capture_output=True, text=True, cwd=REPO,
                         env={**os.environ, "PYTHONPATH": str(REPO)})
    seconds = time.perf_counter() - started
    if run.returncode != 0:
        sys.exit(f"{task}: legalkg train failed: {run.stderr.strip() or run.stdout.strip()}")
    shipped = default_model_path(task)
    diff = differences(fingerprint(target), fingerprint(shipped))
    shown = " ".join(a if not a.startswith(str(paths.data_dir())) else "$LEGALKG_SHARED/data" + a[len(str(paths.data_dir())):]
                     for a in args)
    return {"task": task, "command": f"legalkg {shown}", "seconds": seconds, "report": run.stdout.strip(),
            "differs": diff, "size": target.stat().st_size, "shipped_size": shipped.stat().st_size}


def render(rows: list[dict]) -> str:
    lines = ["# The shipped predictor models rebuilt in full", "",
             f"- run: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {cpu_model()}, `nice -n 10`, "
             "`python benchmarks/predictor_rebuild.py`",
             "- compared: the fingerprint of `research/predictors.py` (every array, floats to 6 decimals, "
             "the header with the training files' names only) of the rebuilt file against "
             "`legalkg/data/predictor-<task>.npz`", ""]
    for r in rows:
        verdict = ("**the same model as the shipped file**" if not r["differs"] else
                   f"**differs from the shipped file** in {len(r['differs'])} arrays: "
                   + ", ".join(f"`{d}`" for d in r["differs"]))
        lines += [f"## {r['task']}", "", f"- command: `{r['command']}`",
                  f"- time: {r['seconds']:.0f} s; `legalkg train` said: {r['report']}",
                  f"- size: {r['size']:,} bytes rebuilt, {r['shipped_size']:,} shipped", f"- result: {verdict}", ""]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--task", action="append", choices=sorted(RECIPES))
    ap.add_argument("--out", type=Path, default=REPO / "eval" / "out" / "predictor-rebuild")
    ap.add_argument("--doc", type=Path, default=REPO / "docs" / "benchmarks" / "predictor-rebuild.md")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    rows = [rebuild(task, args.out) for task in (args.task or sorted(RECIPES, reverse=True))]
    args.doc.write_text(render(rows), "utf-8")
    for r in rows:
        print(f"{r['task']}: {r['seconds']:.0f} s, " + ("same as shipped" if not r["differs"] else f"differs: {r['differs']}"))
    print(f"wrote {args.doc}")


if __name__ == "__main__":
    main()
