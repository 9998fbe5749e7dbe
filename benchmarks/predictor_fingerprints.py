"""Write tests/predict/fingerprints.json: the fingerprints of the subset predictors and rankers that
tests/predict/test_shipped_models.py retrains and compares with.

    .venv/bin/python benchmarks/predictor_fingerprints.py [--task lay --task case]

Why a script and not the test: a test that writes the value it asserts can never fail. Run this only
when a change of the predictor, its features or the statute parse is meant to change what a model
holds; the diff of fingerprints.json then shows which arrays changed, for review with that change
(and retrain the shipped files with ``benchmarks/predictor_rebuild.py``).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # research/ is not installed

from click.testing import CliRunner  # noqa: E402

from legalkg import paths  # noqa: E402
from legalkg.cli import main as cli  # noqa: E402
from research.predictors import FINGERPRINTS, RECIPES, subset_args, subset_fingerprints  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--task", action="append", choices=sorted(RECIPES))
    args = ap.parse_args()
    stored = json.loads(FINGERPRINTS.read_text("utf-8")) if FINGERPRINTS.exists() else {}
    for task in args.task or sorted(RECIPES):
        with tempfile.TemporaryDirectory() as scratch:
            train = subset_args(task, paths.eval_dir(), Path(scratch))
            result = CliRunner().invoke(cli, train)
            if result.exit_code != 0:
                sys.exit(f"{task}: legalkg train failed: {result.output.strip()}")
            got = subset_fingerprints(task, Path(scratch))
        stored.update(got)
        print(", ".join(f"{key}: {len(value)} arrays" for key, value in got.items()))
    FINGERPRINTS.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n", "utf-8")
    print(f"wrote {FINGERPRINTS.relative_to(REPO)}")


if __name__ == "__main__":
    main()
