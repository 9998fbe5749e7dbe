"""The shipped predictors' recipe still builds the same model: ``legalkg train`` as documented
(docs/retrieval.md, "Shipped models"), on a fixed subset of the same shared files, compared with the
committed fingerprint (``research/predictors.py`` says what it digests).

Reduced so that it fits CI: the first records of each training file, and only the laws the subset
cites most (lay: the BGB; case: BGB, ZPO, GG) instead of the 58 codes, whose parse would be most of
the time. A change of the predictor, its features or the statute parse that changes what a model holds
fails here; when the change is meant, retrain the shipped files (``benchmarks/predictor_rebuild.py``)
and rewrite the fingerprints with ``LEGALKG_WRITE_FINGERPRINTS=1 pytest tests/predict/test_shipped_models.py``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from legalkg import paths
from legalkg.cli import main
from research.predictors import RECIPES, differences, fingerprint, head_lines, train_args

FINGERPRINTS = Path(__file__).with_name("fingerprints.json")
#: task -> (records taken from the head of each training file, laws)
SUBSETS = {"lay": (150, "bgb"), "case": (30, "bgb,zpo,gg")}


@pytest.mark.skipif(not (paths.eval_dir() / "gerlayqa" / "dev.jsonl").exists(), reason="shared eval data not present")
@pytest.mark.parametrize("task", sorted(RECIPES))
def test_the_documented_command_rebuilds_the_committed_fingerprint(task, tmp_path):
    files, _ = RECIPES[task]
    n, laws = SUBSETS[task]
    data = [head_lines(paths.eval_dir() / f, tmp_path / Path(f).name.removesuffix(".gz"), n) for f in files]
    out = tmp_path / f"predictor-{task}.npz"
    result = CliRunner().invoke(main, train_args(task, data, out, laws))
    assert result.exit_code == 0, result.output
    got = fingerprint(out)
    stored = json.loads(FINGERPRINTS.read_text("utf-8")) if FINGERPRINTS.exists() else {}
    if os.environ.get("LEGALKG_WRITE_FINGERPRINTS") == "1":
        stored[task] = got
        FINGERPRINTS.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n", "utf-8")
    assert task in stored, f"no fingerprint for {task}: run with LEGALKG_WRITE_FINGERPRINTS=1 once"
    assert not differences(got, stored[task]), f"{task} model differs in {differences(got, stored[task])}"


def test_the_fingerprint_sees_a_changed_array_and_ignores_the_source_folder(tmp_path):
    """Pure: two files with the same arrays and sources in other folders agree; one changed value does not."""
    import numpy as np

    def write(path: Path, value: float, source: str) -> Path:
        header = json.dumps({"meta": {"sources": [source]}}).encode()
        np.savez(path, header=np.frombuffer(header, dtype=np.uint8), w=np.array([0.5, value], dtype=np.float32))
        return path

    a = fingerprint(write(tmp_path / "a.npz", 1.0, "/x/dev.jsonl"))
    assert a == fingerprint(write(tmp_path / "b.npz", 1.0, "../y/dev.jsonl"))
    assert differences(a, fingerprint(write(tmp_path / "c.npz", 1.001, "dev.jsonl"))) == ["w"]
