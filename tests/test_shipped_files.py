"""The files the package ships in ``legalkg/data``: a missing or unreadable one is one line that names
it and says how to get it back, never a quiet run without it; and what the writers record names no
folder of the machine they ran on (``paths.portable``).

The installed wheel's side (every shipped file is in the wheel, its answers equal the checkout's) is
.ci/smoke_wheel.sh.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

from legalkg import paths, taskfile
from legalkg.errors import UserError
from legalkg.predict import modelfile, rankfile
from legalkg.predict.features import Vectoriser
from legalkg.predict.predictor import Config, Predictor
from legalkg.retrieve import weights as fusion_weights

SHIPPED = paths.REPO_ROOT / "legalkg" / "data"


@pytest.fixture
def empty_data(tmp_path, monkeypatch):
    """A ``legalkg/data`` folder without any file in it."""
    monkeypatch.setattr(taskfile, "shipped_path", lambda name: tmp_path / name)
    monkeypatch.setattr(modelfile, "shipped_path", lambda name: tmp_path / name)
    return tmp_path


def test_every_file_the_code_reads_is_shipped():
    """The names the code opens in legalkg/data exist in the checkout (the wheel smoke checks the wheel)."""
    for name in ("predictor-lay.npz", "predictor-case.npz", "ranker-lay.npz", "ranker-case.npz",
                 "static-encoder.npz", "fusion-weights.json", "default_codes.tsv",
                 "law_aliases.tsv", "gii_laws.tsv.gz", "gii_names.tsv.gz", "former_laws.tsv", "other_laws.tsv",
                 "cite_lexicon.tsv"):
        assert (SHIPPED / name).is_file(), name


def test_a_missing_shipped_ranker_is_one_line(empty_data):
    with pytest.raises(UserError) as err:
        rankfile.shipped_ranker("lay", object(), {"BGB/p1": "text"})
    text = str(err.value)
    assert "\n" not in text
    assert text.startswith("the shipped file legalkg/data/ranker-lay.npz is missing from the checkout")
    assert text.endswith("restore it from git (git checkout -- legalkg/data)")


def test_a_missing_shipped_file_in_an_installed_package_says_reinstall(empty_data, monkeypatch):
    monkeypatch.setattr(paths, "checkout", lambda: None)
    with pytest.raises(UserError) as err:
        rankfile.shipped_ranker("case", object(), {"BGB/p1": "text"})
    assert "legalkg/data/ranker-case.npz is missing from the installed legalkg package" in str(err.value)
    assert str(err.value).endswith("reinstall it (pip install --force-reinstall legalkg)")


def test_missing_shipped_json_files_are_no_silent_defaults(empty_data):
    """Before, a missing fusion-weights.json fell back to the untuned weights without a word."""
    with pytest.raises(UserError, match=r"legalkg/data/fusion-weights\.json is missing"):
        fusion_weights.shipped("lay")


def test_a_file_the_user_names_may_be_new(tmp_path):
    # --save-weights into a file that is not there yet: the writer's first entry, no error
    assert fusion_weights.read(tmp_path / "new.json") == {}


def test_an_unreadable_shipped_model_says_restore(empty_data):
    (empty_data / "predictor-lay.npz").write_bytes(b"not a zip")
    with pytest.raises(UserError) as err:
        modelfile.load(empty_data / "predictor-lay.npz")
    assert str(err.value) == (f"{empty_data / 'predictor-lay.npz'} is not a legalkg predictor model file; "
                              "restore it from git (git checkout -- legalkg/data)")


def test_an_unreadable_model_of_the_user_says_rebuild(tmp_path):
    bad = tmp_path / "mine" / "ranker.npz"
    bad.parent.mkdir()
    bad.write_bytes(b"not a zip")
    with pytest.raises(UserError, match=r"is not a legalkg ranker file; rebuild it with `legalkg train"):
        rankfile.load(bad)


def test_portable_names_each_machine_folder(monkeypatch, tmp_path):
    shared = tmp_path / "elsewhere" / "shared"
    monkeypatch.setenv("LEGALKG_SHARED", str(shared))
    tmp = tempfile.gettempdir()
    text = (f"legalkg eval --train-extra {shared}/data/eval/gerlayqa/train.jsonl --out {tmp}/lk/run "
            f"--save-weights={paths.REPO_ROOT}/legalkg/data/fusion-weights.json --cache {Path.home()}/c")
    assert paths.portable(text) == ("legalkg eval --train-extra $LEGALKG_SHARED/data/eval/gerlayqa/train.jsonl "
                                    "--out $TMPDIR/lk/run --save-weights=./legalkg/data/fusion-weights.json "
                                    "--cache ~/c")


def test_portable_leaves_other_text_alone(monkeypatch):
    monkeypatch.setenv("LEGALKG_SHARED", "/srv/data/shared")
    tmp = tempfile.gettempdir()
    for text in (f"{tmp}x/a", f"https://example.org{tmp}/a", "BGB § 573 Abs. 2", "../shared/data/eval",
                 "/srv/data/sharedish/x"):
        assert paths.portable(text) == text
    assert paths.portable("/srv/data/shared") == "$LEGALKG_SHARED"
    assert paths.portable_tree({"a": [f"{tmp}/x", 3, ("/srv/data/shared/y",)], "b": None}) == \
        {"a": ["$TMPDIR/x", 3, ["$LEGALKG_SHARED/y"]], "b": None}


def test_model_headers_and_task_files_are_written_portably(monkeypatch, tmp_path):
    """The writers, not only the committed files: a retrain records $LEGALKG_SHARED, not its folder."""
    shared = tmp_path / "shared"
    monkeypatch.setenv("LEGALKG_SHARED", str(shared))
    out = tmp_path / "w.json"
    fusion_weights.save(out, "lay", {"predictor": 1.0}, f"legalkg eval --train-extra {shared}/data/x.jsonl", 0.5)
    entry = json.loads(out.read_text("utf-8"))["lay"]
    assert entry["command"] == "legalkg eval --train-extra $LEGALKG_SHARED/data/x.jsonl"
    pred = Predictor("lay", Config(), Vectoriser(["a"], np.ones(1, dtype=np.float32)), sp.csr_matrix((0, 1)), {},
                     [], None, None, None, {"sources": [f"{shared}/data/eval/gerlayqa/dev.jsonl"]}, [])
    modelfile.save(pred, tmp_path / "p.npz")
    with np.load(tmp_path / "p.npz") as z:
        header = json.loads(z["header"].tobytes().decode("utf-8"))
    assert header["meta"]["sources"] == ["$LEGALKG_SHARED/data/eval/gerlayqa/dev.jsonl"]


def test_run_json_records_the_command_not_the_machine(monkeypatch, tmp_path):
    import pandas as pd

    from legalkg.eval import outdir
    from legalkg.eval.datasets import Coverage
    from legalkg.eval.runner import EvalRun

    shared = tmp_path / "shared"
    monkeypatch.setenv("LEGALKG_SHARED", str(shared))
    run = EvalRun(dataset="gerlayqa", k=5, cells=[], results=pd.DataFrame(), paired=pd.DataFrame(),
                  case_scores=pd.DataFrame(), coverage=Coverage(n_gold=1, n_covered=1, share=1.0), n_cases_loaded=1,
                  n_cases=1, max_depth=1, words={}, models={}, law_keys=[], timings={}, started="2026-01-01")
    out = f"{tempfile.gettempdir()}/lk/run"
    meta = outdir.run_metadata(run, command=f"legalkg eval --train-extra {shared}/data/x.jsonl --out {out}",
                               argv=[f"{paths.REPO_ROOT}/legalkg/cli/__main__.py", "--out", out],
                               options={"out": Path(out), "train_extra": [shared / "data" / "x.jsonl"]})
    assert meta["command"] == "legalkg eval --train-extra $LEGALKG_SHARED/data/x.jsonl --out $TMPDIR/lk/run"
    assert meta["argv"] == ["./legalkg/cli/__main__.py", "--out", "$TMPDIR/lk/run"]
    assert meta["options"] == {"out": "$TMPDIR/lk/run", "train_extra": ["$LEGALKG_SHARED/data/x.jsonl"]}
