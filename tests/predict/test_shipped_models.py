"""The shipped predictors' and rankers' recipe still builds the same models: ``legalkg train`` as documented
(docs/retrieval.md, "Shipped models"), on a fixed subset of the same shared files, compared with the
committed fingerprint (``research/predictors.py`` says what it digests, and ``SUBSETS`` which subset).

Reduced so that it fits CI. A change of the predictor, its features or the statute parse that changes
what a model holds fails here; when the change is meant, retrain the shipped files
(``benchmarks/predictor_rebuild.py``) and rewrite the fingerprints with
``benchmarks/predictor_fingerprints.py`` (this test never writes the value it compares with).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from legalkg import paths
from legalkg.cli import main
from research.predictors import FINGERPRINTS, RECIPES, differences, fingerprint, subset_args, subset_fingerprints


@pytest.mark.skipif(not (paths.eval_dir() / "gerlayqa" / "dev.jsonl").exists(), reason="shared eval data not present")
@pytest.mark.parametrize("task", sorted(RECIPES))
def test_the_documented_command_rebuilds_the_committed_fingerprint(task, tmp_path):
    result = CliRunner().invoke(main, subset_args(task, paths.eval_dir(), tmp_path))
    assert result.exit_code == 0, result.output
    stored = json.loads(FINGERPRINTS.read_text("utf-8"))
    for key, got in subset_fingerprints(task, tmp_path).items():
        assert key in stored, f"no fingerprint for {key}: run benchmarks/predictor_fingerprints.py --task {task}"
        assert not differences(got, stored[key]), f"{key} model differs in {differences(got, stored[key])}"


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


def test_the_ranker_fingerprint_allows_last_digits_and_sees_a_changed_leaf():
    """Pure: LightGBM's model text with a threshold printed to more digits is the same ranker; a leaf
    value changed in its fourth digit is not."""
    import numpy as np

    from research.predictors import booster_digest

    def text(leaf: str, threshold: str) -> np.ndarray:
        model = (f"tree\nversion=v4\ntree_sizes={len(leaf) + 40}\n\nTree=0\nthreshold={threshold}\n"
                 f"leaf_value={leaf} -0.25\n")
        return np.frombuffer(model.encode(), dtype=np.uint8)

    same = booster_digest(text("0.123456", "1.5"))
    assert booster_digest(text("0.12345600000001", "1.5000000000000002")) == same
    assert booster_digest(text("0.123556", "1.5")) != same


def test_the_documented_commands_are_the_recipes_the_checks_run():
    """docs/retrieval.md's "Shipped models" commands train what ``RECIPES`` (and so both checks) train:
    the same files, seed, options, and the ranker beside the predictor."""
    import re

    from research.predictors import OPTIONS

    doc = (Path(__file__).resolve().parents[2] / "docs" / "retrieval.md").read_text("utf-8")
    block = re.search(r"## Shipped models.*?```\n(.*?)```", doc, re.S).group(1).replace("\\\n", " ")
    commands = {w[w.index("--task") + 1]: w for w in (line.split() for line in block.splitlines() if line.strip())}
    assert commands.keys() == RECIPES.keys()
    for task, words in commands.items():
        files, name = RECIPES[task]
        data = [words[i + 1] for i, w in enumerate(words) if w == "--data"]
        assert [d.split("/eval/")[-1] if "/shared/" in d else d.removeprefix("eval/") for d in data] == list(files)
        options = dict(zip(words[2::2], words[3::2], strict=False))
        assert options["--out"] == f"legalkg/data/{name}" and options["--seed"] == "0"
        assert options["--ranker-out"] == f"legalkg/data/ranker-{task}.npz"
        assert tuple(w for o in ("--forms",) if o in options for w in (o, options[o])) == OPTIONS[task]


def test_no_test_writes_an_expectation_it_compares_with():
    """The committed expectations of the rebuild checks are written by benchmarks/ scripts only: no line
    of a test that names one of them writes a file (an environment switch that did once made this
    test's fingerprint pass whatever the model held)."""
    import re

    names = re.compile(r"FINGERPRINTS|REFERENCE|fingerprints\.json|static-encoder-subset\.npz")
    writes = re.compile(r"write_text|write_bytes|copyfile|copy2|np\.savez|json\.dump\(|open\([^)]*['\"]w")
    tests = Path(__file__).resolve().parents[1]
    found = [f"{path.relative_to(tests)}:{n}" for path in tests.rglob("*.py")
             for n, line in enumerate(path.read_text("utf-8").splitlines(), 1)
             if names.search(line) and writes.search(line) and path != Path(__file__).resolve()]
    assert not found, found
