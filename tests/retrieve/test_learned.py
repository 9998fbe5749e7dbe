"""The learned mode's pure rules (legalkg.retrieve.learned) on hand-made ids: no server."""

from __future__ import annotations

import pytest

from legalkg.cite import LawRegistry
from legalkg.errors import UserError
from legalkg.retrieve import learned as lm
from legalkg.vocab import RetrievalLevel


def test_task_by_length_unless_given():
    assert lm.choose_task("Mein Vermieter gibt die Kaution nicht zurück") == "lay"
    assert lm.choose_task("wort " * lm.CASE_WORDS) == "case"
    assert lm.choose_task("wort " * (lm.CASE_WORDS - 1)) == "lay"
    assert lm.choose_task("kurz", "case") == "case"


def test_ancestor_at_cuts_to_the_level_or_gives_none():
    assert lm.ancestor_at("BGB/§551/Abs1/S2", RetrievalLevel.PARAGRAPH) == "BGB/§551"
    assert lm.ancestor_at("BGB/§551/Abs1/S2", RetrievalLevel.ABSATZ) == "BGB/§551/Abs1"
    assert lm.ancestor_at("BGB/§437/S1/Nr2", RetrievalLevel.ABSATZ) is None  # § 437 has no Absätze
    assert lm.ancestor_at("BGB/§437/S1/Nr2", RetrievalLevel.SATZ) == "BGB/§437/S1"


def test_source_level_is_the_deepest_predicted_level_not_below_the_asked_one():
    assert lm.source_level(["Paragraph"], RetrievalLevel.ABSATZ) == "Paragraph"
    assert lm.source_level(["Paragraph", "Absatz", "Satz"], RetrievalLevel.ABSATZ) == "Absatz"
    assert lm.source_level(["Paragraph", "Absatz", "Satz", "Nummer"], RetrievalLevel.BUCHSTABE) == "Nummer"
    assert lm.source_level(["Absatz"], RetrievalLevel.PARAGRAPH) is None
    assert lm.source_level(["Paragraph"], RetrievalLevel.CHUNK) is None


def test_to_level_maps_down_by_the_other_runs_and_cuts_deeper_ids():
    children = {"BGB/§551": ["BGB/§551/Abs1", "BGB/§551/Abs2", "BGB/§551/Abs3"]}
    order = {"BGB/§551/Abs3": 0, "BGB/§551/Abs2": 4}
    ids = ["BGB/§551", "BGB/§548/Abs1/S1", "BGB/§548/Abs1", "BGB/§437/S1"]
    assert lm.to_level(ids, RetrievalLevel.ABSATZ, children, order) == [
        "BGB/§551/Abs3", "BGB/§551/Abs2", "BGB/§551/Abs1", "BGB/§548/Abs1"]
    assert lm.to_level(ids, RetrievalLevel.PARAGRAPH, {}) == ["BGB/§551", "BGB/§548", "BGB/§437"]
    assert lm.shallower(ids, RetrievalLevel.ABSATZ) == ["BGB/§551"]


def test_cited_ids_take_the_search_law_for_bare_citations():
    reg = LawRegistry.default()
    assert lm.cited_ids("Kündigung nach § 573 Abs. 2 BGB und § 574 BGB", None, reg) == ["BGB/§573/Abs2", "BGB/§574"]
    assert lm.cited_ids("gilt § 573 hier?", "BGB", reg) == ["BGB/§573"]
    assert lm.cited_ids("gilt § 573 hier?", None, reg) == []
    assert lm.cited_ids("nach § 253 ZPO", "BGB", reg) == []  # outside the law filter
    assert lm.cited_ids("keine Norm genannt", None, reg) == []


def test_explain_splits_the_predictor_share_into_its_parts():
    parts = lm.explain_components({"predictor": 0.02, "fulltext": 0.01}, {"nb": 3.0, "knn": 1.0})
    assert parts == pytest.approx({"predictor.nb": 0.015, "predictor.knn": 0.005, "fulltext": 0.01})
    assert lm.explain_components({"predictor": 0.02}, None) == {"predictor": 0.02}
    inner = {"BGB/§551": {"nb": 1.0}}
    assert lm.inherited("BGB/§551/Abs2", inner) == {"nb": 1.0}
    assert lm.inherited("BGB/§55", inner) is None


def test_parse_weights_overrides_named_runs_and_refuses_bad_ones():
    assert lm.parse_weights(None) == lm.WEIGHTS
    assert lm.parse_weights("fulltext=0, vector=0.25") == {**lm.WEIGHTS, "fulltext": 0.0, "vector": 0.25}
    assert lm.parse_weights("cited=2", {"predictor": 1.0}) == {"predictor": 1.0, "cited": 2.0}
    for bad in ("bm25=1", "fulltext", "vector=x", "vector=-0.5", "vector=nan", "vector=inf",
                "predictor=0,cited=0,fulltext=0,vector=0"):
        with pytest.raises(UserError, match="weight"):
            lm.parse_weights(bad)
    assert lm.weights_label(lm.parse_weights("vector=0")) == "predictor=1,cited=1,fulltext=0.5,vector=0"


def test_weight_grid_varies_the_tuned_runs_only():
    grid = lm.weight_grid()
    assert len(grid) == len(lm.GRID) ** len(lm.TUNED)
    assert all(w["predictor"] == 1.0 and w["cited"] == 1.0 for w in grid)
    assert {(w["fulltext"], w["vector"]) for w in grid} == {(a, b) for a in lm.GRID for b in lm.GRID}


def test_gold_at_cuts_labels_to_the_level():
    labels = ["BGB/§551", "BGB/§551/Abs1", "BGB/§548"]
    assert lm.gold_at(labels, RetrievalLevel.PARAGRAPH) == {"BGB/§551", "BGB/§548"}
    assert lm.gold_at(labels, RetrievalLevel.ABSATZ) == {"BGB/§551/Abs1"}
    assert lm.recall_at(["BGB/§548", "BGB/§1"], {"BGB/§551", "BGB/§548"}, 1) == 0.5


def test_choose_weights_picks_the_weights_that_rank_the_gold_highest():
    # the predictor alone ranks "g" 3rd, full-text 1st, the vector run points at "a" instead
    runs = {"predictor": ["a", "b", "g"], "fulltext": ["g", "x"], "vector": ["a", "y"], "cited": []}
    grid = lm.weight_grid()
    weights, score = lm.choose_weights([(runs, {"g"}), (runs, set())], 1, grid)  # no gold: left out
    assert (weights["fulltext"], weights["vector"], score) == (0.25, 0.0, 1.0)
    weights, score = lm.choose_weights([(runs, {"a"})], 1, grid)
    assert (weights["fulltext"], weights["vector"], score) == (0.0, 0.0, 1.0)  # ties: the first grid entry
    weights, score = lm.choose_weights([(runs, {"g"}), (runs, {"a"}), (runs, {"a"})], 1, grid)
    assert (weights["fulltext"], weights["vector"]) == (0.0, 0.0) and abs(score - 2 / 3) < 1e-9


def test_chunk_searches_keep_their_index_runs_when_a_task_switches_them_off():
    case = {"predictor": 1.0, "cited": 1.0, "fulltext": 0.0, "vector": 0.0}
    assert lm.run_weights(case, RetrievalLevel.CHUNK) == {**case, "fulltext": 0.5, "vector": 0.5}
    assert lm.run_weights(case, RetrievalLevel.PARAGRAPH) == case
    some = {**case, "vector": 0.25}
    assert lm.run_weights(some, RetrievalLevel.CHUNK) == some  # one index run on: the weights stand


def test_the_indexed_inheritance_gives_what_the_scan_over_every_predicted_unit_gives():
    # the predictor's order decides where a unit has several sources (an ancestor and a descendant)
    inner = {"BGB/§573/Abs2/S1": {"nb": 1.0}, "BGB/§573": {"nb": 2.0}, "BGB/§574/Abs1": {"knn": 3.0},
             "BGB/§574/Abs2": {"knn": 4.0}, "ZPO/§5": {"nb": 5.0}}

    def scan(uid):
        if uid in inner:
            return inner[uid]
        return next((p for s, p in inner.items() if uid.startswith(s + "/") or s.startswith(uid + "/")), None)

    shares_of = lm.Inheritance(inner)
    for uid in ("BGB/§573/Abs2", "BGB/§573/Abs2/S1/Nr1", "BGB/§573/Abs1", "BGB/§574", "BGB/§574/Abs1/S2",
                "BGB/§57", "ZPO/§5/Abs1", "ZPO", "BGB", "StPO/§5"):
        assert shares_of(uid) == scan(uid), uid
    assert shares_of("BGB/§573/Abs2") == {"nb": 1.0} and shares_of("BGB/§574") == {"knn": 3.0}


def test_predictions_are_kept_inside_one_pack_only():
    class Counting:  # stands in for the predictor: counts its runs
        levels = ["Paragraph"]
        runs = 0

        def explain(self, texts, k, source):
            self.runs += 1
            return [[("BGB/§551", 1.0, {"nb": 1.0})]]

    strategy, pred = lm.LearnedStrategy(None), Counting()
    with lm.keeping_predictions():
        first = strategy.predicted_rows(pred, None, "Paragraph", "Kaution")
        assert strategy.predicted_rows(pred, None, "Paragraph", "Kaution") is first
        strategy.predicted_rows(pred, None, "Paragraph", "Miete")
        strategy.predicted_rows(Counting(), None, "Paragraph", "Kaution")  # another model: its own run
    assert pred.runs == 2
    strategy.predicted_rows(pred, None, "Paragraph", "Kaution")  # outside a pack: nothing kept
    assert pred.runs == 3
