"""Rebuild the shipped predictor models and their rankers in full and say whether they are the shipped files.

    .venv/bin/python benchmarks/predictor_rebuild.py [--task lay --task case] [--out eval/out/predictor-rebuild]
        [--doc docs/benchmarks/predictor-rebuild.md]

Runs the documented ``legalkg train`` command of each task (``research.predictors.RECIPES``: the shared
training files, ``--seed 0``, the 58 default codes, ``--ranker-out``) into ``--out`` (git-ignored
scratch), compares the fingerprint of each rebuilt file with that of ``legalkg/data/predictor-<task>.npz``
and ``ranker-<task>.npz`` (a ranker's tree numbers to 6 significant digits, ``booster_digest``) and
writes the result to ``--doc`` (its rows to the ``.json`` beside it): the command, its time, and the
arrays that differ. It never replaces a shipped file: copy the rebuilt one over it deliberately, and
rewrite tests/predict/fingerprints.json after (``benchmarks/predictor_fingerprints.py``).
"""

from __future__ import annotations

import argparse
import json
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
    ranker = out / f"ranker-{task}.npz"
    args = [*train_args(task, data, target), "--ranker-out", str(ranker)]
    started = time.perf_counter()
    run = subprocess.run([sys.executable, "-m", "legalkg.cli", *args], capture_output=True, text=True, cwd=REPO,
                         env={**os.environ, "PYTHONPATH": str(REPO)})
    seconds = time.perf_counter() - started
    if run.returncode != 0:
        sys.exit(f"{task}: legalkg train failed: {run.stderr.strip() or run.stdout.strip()}")
    shipped = default_model_path(task)
    diff = differences(fingerprint(target), fingerprint(shipped))
    shipped_ranker = shipped.with_name(f"ranker-{task}.npz")
    ranker_diff = differences(fingerprint(ranker), fingerprint(shipped_ranker))
    shown = " ".join(paths.portable(a) for a in args)
    return {"task": task, "command": f"legalkg {shown}", "seconds": seconds, "report": paths.portable(run.stdout.strip()),
            "differs": diff, "size": target.stat().st_size, "shipped_size": shipped.stat().st_size,
            "ranker_differs": ranker_diff, "ranker_size": ranker.stat().st_size,
            "shipped_ranker_size": shipped_ranker.stat().st_size}


def render(rows: list[dict]) -> str:
    lines = ["# The shipped predictor models and rankers rebuilt in full", "",
             f"- run: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {cpu_model()}, niceness {os.nice(0)} at the end, "
             "`python benchmarks/predictor_rebuild.py`",
             "- compared: the fingerprint of `research/predictors.py` (every array, floats to 6 decimals, "
             "the header with the training files' names only; a ranker's tree numbers to 6 significant digits) "
             "of each rebuilt file against `legalkg/data/predictor-<task>.npz` and `ranker-<task>.npz`", ""]
    for r in rows:
        verdict = ("**the same model as the shipped file**" if not r["differs"] else
                   f"**differs from the shipped file** in {len(r['differs'])} arrays: "
                   + ", ".join(f"`{d}`" for d in r["differs"]))
        ranker = ("**the same ranker as the shipped file**" if not r["ranker_differs"] else
                  f"**differs from the shipped file** in {len(r['ranker_differs'])} arrays: "
                  + ", ".join(f"`{d}`" for d in r["ranker_differs"]))
        lines += [f"## {r['task']}", "", f"- command: `{r['command']}`",
                  f"- time: {r['seconds']:.0f} s; `legalkg train` said: {r['report']}",
                  f"- size: {r['size']:,} bytes rebuilt, {r['shipped_size']:,} shipped", f"- predictor: {verdict}",
                  f"- ranker: {r['ranker_size']:,} bytes rebuilt, {r['shipped_ranker_size']:,} shipped; {ranker}", ""]
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
    # the rows as JSON beside the page, for the figures a page quotes (tests/test_figures.py)
    args.doc.with_suffix(".json").write_text(json.dumps(rows, indent=1) + "\n", "utf-8")
    for r in rows:
        print(f"{r['task']}: {r['seconds']:.0f} s, predictor "
              + ("same as shipped" if not r["differs"] else f"differs: {r['differs']}") + ", ranker "
              + ("same as shipped" if not r["ranker_differs"] else f"differs: {r['ranker_differs']}"))
    print(f"wrote {args.doc}")


if __name__ == "__main__":
    main()
