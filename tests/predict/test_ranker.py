"""The learned ranker's pure parts: co-citation counts, feature helpers, training and its model file."""

from __future__ import annotations

import math

import numpy as np
import pytest

from legalkg.errors import UserError
from legalkg.predict import cocite, rankfile, train
from legalkg.predict.ranker import FOUND, RANKED, fit_booster, fit_stacked
from legalkg.predict.rankfeatures import (
    DEFAULT_FEATURES,
    SOURCES,
    UnitFacts,
    cocite_features,
    dense_runs,
    layout,
    ranks,
)
from legalkg.retrieve.learned import RANKER_SHOWN, explain_components, found_by, ranker_features

from .conftest import UNITS

# A and B cited together twice, A and C once (below MIN_COUNT), D alone; 4 cases.
SETS = [["BGB/§573", "BGB/§573c"], ["BGB/§573", "BGB/§573c"], ["BGB/§573", "BGB/§574"], ["BGB/§1"]]
NPMI_AB = math.log((2 / 4) / ((3 / 4) * (2 / 4))) / -math.log(2 / 4)  # 0.415


def test_cocitation_counts_pairs_of_a_case_and_drops_single_ones():
    table = cocite.fit(SETS)
    assert table.neighbours("BGB/§573") == [("BGB/§573c", pytest.approx(NPMI_AB, abs=1e-6), 2)]
    assert table.neighbours("BGB/§574") == []  # cited with § 573 once only
    assert table.neighbours("BGB/§999") == []
    assert table.n_cases == 4 and table.units[table.index["BGB/§573"]] == 3


def test_a_pair_every_case_cites_has_npmi_one():
    table = cocite.fit([["A/§1", "A/§2"], ["A/§1", "A/§2"]])
    assert table.neighbours("A/§1") == [("A/§2", 1.0, 2)]


def test_cocite_features_leave_the_unit_itself_out():
    table = cocite.fit(SETS)
    out = cocite_features(table, ["BGB/§573c", "BGB/§574", "BGB/§999"], ["BGB/§573", "BGB/§573c"])
    assert out[0] == pytest.approx([NPMI_AB, NPMI_AB, 1])
    assert out[1].tolist() == [0, 0, 0] and out[2].tolist() == [0, 0, 0]


def test_ranks_best_first_and_missing_scores_unranked():
    r = ranks(np.array([[0.1, np.nan, 0.7, 0.3]], dtype=np.float32))
    assert r[0, [2, 3, 0]].tolist() == [1, 2, 3] and np.isnan(r[0, 1])


def test_abstaining_components_give_missing_values_where_they_score_zero():
    parts = {"knn": (["a", "b"], np.array([[0.0, 0.5]], dtype=np.float32)),
             "nb": (["a"], np.array([[-np.inf]], dtype=np.float32)),
             "pop": (["c"], np.array([[0.25]], dtype=np.float32))}
    lay = layout([ids for ids, _ in parts.values()])
    assert lay.universe == ["a", "b", "c"]
    runs = dense_runs(parts, lay)
    assert np.isnan(runs["knn"][0, 0]) and runs["knn"][0, 1] == 0.5 and np.isnan(runs["knn"][0, 2])
    assert np.isnan(runs["nb"]).all() and runs["pop"][0].tolist()[2] == 0.25


def test_a_layout_is_kept_for_the_same_lists_and_made_anew_for_others():
    labels, corpus = ["BGB/§551", "BGB/§548"], ["BUrlG/§3", "BGB/§551"]
    first = layout([labels, corpus])
    assert layout([labels, corpus]) is first and first.universe == ["BGB/§548", "BGB/§551", "BUrlG/§3"]
    assert first.uni_law.tolist() == ["BGB", "BGB", "BUrlG"]
    same_ids = list(corpus)  # equal, but another list: laid out anew, with the same columns
    again = layout([labels, same_ids])
    assert again is not first and again.columns[id(same_ids)].tolist() == [2, 1]
    labels.append("StGB/§242")  # a list that grew is laid out anew
    assert layout([labels, corpus]).universe[-1] == "StGB/§242"


def test_unit_facts_read_the_title_line():
    facts = UnitFacts.build(UNITS, ["BGB/§551", "BGB/§2303/Abs1"])
    assert facts.titles["BGB/§551"] == {"begrenz", "anlag", "mietsich"}
    assert facts.titles["BGB/§2303/Abs1"] == frozenset()
    assert facts.words_log["BGB/§551"] == pytest.approx(math.log1p(len(UNITS["BGB/§551"].split())))


@pytest.fixture
def ranker(lay_set):
    para = [i for i in UNITS if i.count("/") == 1]
    model = train(lay_set, UNITS)
    facts = UnitFacts.build(UNITS, para, {"BGB/§551": (3, 1), "BGB/§548": (1, 0)})
    return model, fit_stacked(lay_set, lambda ts: train(ts, UNITS), facts, n_folds=2)


def test_ranker_file_round_trip_keeps_scores_and_cocitation(ranker, tmp_path):
    model, rk = ranker
    loaded = rankfile.load(rankfile.save(rk, tmp_path / "r.npz")).attach_units(UNITS, list(rk.facts.words_log))
    assert loaded.features == rk.features == DEFAULT_FEATURES and loaded.degrees == {}  # no cites_* feature
    q = ["Der Vermieter behält die Kaution"]
    assert loaded.rank(model, q, 5) == rk.rank(model, q, 5)
    assert loaded.cocite.neighbours("BGB/§551") == rk.cocite.neighbours("BGB/§551")
    row = rk.explain(model, q, 1)[0][0]
    assert {n for n in row[2] if not n.startswith(FOUND)} == {RANKED} | {f"ranker.{f}" for f in DEFAULT_FEATURES}
    assert "predictor" in found_by(row[2]) and set(found_by(row[2])) <= set(SOURCES.values())
    assert rk.explain(model, q, 1, contributions=False)[0][0][2] == {RANKED: 0.0}  # the mark only


def test_a_foreign_file_is_one_line(tmp_path):
    bad = tmp_path / "x.npz"
    np.savez(bad, header=np.frombuffer(b'{"format": "other"}', dtype=np.uint8))
    with pytest.raises(UserError, match="not a legalkg ranker file"):
        rankfile.load(bad)
    with pytest.raises(UserError, match="ranker file not found"):
        rankfile.load(tmp_path / "none.npz")


def test_explain_shows_the_ranker_features_that_moved_a_unit_most():
    inner = {"ranker.nb_score": 0.9, "ranker.cocite_sum": -1.2, "ranker.lex_rank": 0.1, "ranker.pop_gap": 0.3}
    shares = {"predictor": 0.016, "fulltext": 0.008}
    assert explain_components(shares, inner) == {"predictor.ranker": 0.016, "fulltext": 0.008}  # sums to the score
    assert list(ranker_features(inner).items()) == [("cocite_sum", -1.2), ("nb_score", 0.9), ("pop_gap", 0.3)]
    assert len(ranker_features(inner)) == RANKER_SHOWN
    assert ranker_features({"nb": 0.5}) == {} and explain_components(shares, {"nb": 1.0})["predictor.nb"] == 0.016
    found = {**inner, "found.bm25": 1.0, "found.router": 1.0}
    assert found_by(found) == ["bm25", "router"] and ranker_features(found) == ranker_features(inner)
    assert explain_components(shares, found) == {"predictor.ranker": 0.016, "fulltext": 0.008}
    assert found_by({"nb": 1.0, "found.bm25": 1.0}) == []  # an RRF-fused unit has no candidate stage


#: A § outside the lay cases' laws, in its own words (BUrlG § 3, as the gii XML has it).
BURLG3 = ("BUrlG/§3", "Dauer des Urlaubs\n(1) Der Urlaub beträgt jährlich mindestens 24 Werktage. (2) Als Werktage "
          "gelten alle Kalendertage, die nicht Sonn- oder gesetzliche Feiertage sind.")


def test_a_graph_ranker_reaches_a_section_no_case_cites(lay_set, tmp_path):
    from legalkg.predict import TrainingSet
    from legalkg.predict.corpus import Corpus
    from legalkg.predict.examples import Example
    from legalkg.predict.ranker import graph_facts, uses_graph
    from legalkg.predict.rankfeatures import GRAPH_FEATURES, GRAPH_RANKER_FEATURES

    units = {**UNITS, BURLG3[0]: BURLG3[1]}
    corpus = Corpus.build(units)
    assert BURLG3[0] in corpus.ids and "BUrlG" in corpus.laws
    pairs = TrainingSet("lay", [Example("heading:BUrlG/§3", "Dauer des Urlaubs", (BURLG3[0],), (), BURLG3[0])])
    model = train(lay_set, UNITS)  # the predictor knows BGB only
    rk = fit_stacked(lay_set, lambda ts: train(ts, UNITS), graph_facts(units, corpus), n_folds=2,
                     features=GRAPH_RANKER_FEATURES, extra=pairs)
    assert uses_graph(rk.features) and "law_share" not in rk.features and rk.meta["extra_examples"] == 1
    q = ["Wie viele Werktage Urlaub stehen mir im Jahr mindestens zu?"]
    assert BURLG3[0] in [u for u, _ in rk.rank(model, q, 20)[0]]  # a candidate through the graph's BM25
    parts = {u: p for u, _, p in rk.explain(model, q, 20)[0]}[BURLG3[0]]
    assert "bm25" in found_by(parts) and "predictor" not in found_by(parts)  # the predictor knows BGB only
    loaded = rankfile.load(rankfile.save(rk, tmp_path / "g.npz"))
    loaded.attach_units(units, list(UNITS), corpus)
    assert loaded.facts.corpus is corpus and set(GRAPH_FEATURES) <= set(loaded.features)
    assert loaded.rank(model, q, 5) == rk.rank(model, q, 5)


def test_each_task_fits_a_ranker_of_its_own_size(lay_set, monkeypatch):
    """LightGBM is given ``SIZE[task]`` for each task's ranker, on the same rows: the lay and the case
    sizes differ (eval/ranker/capacity-gm/ and capacity-case/ measured each)."""
    import lightgbm as lgb

    from legalkg.predict.ranker import SIZE, candidates, para_labels
    from legalkg.vocab import Task

    given: list[dict] = []

    class Recorded(lgb.LGBMRanker):  # the real ranker, its arguments kept
        def __init__(self, **kw):
            given.append(kw)
            super().__init__(**kw)

    monkeypatch.setattr(lgb, "LGBMRanker", Recorded)
    para = [i for i in UNITS if i.count("/") == 1]
    model = train(lay_set, UNITS)
    rows = candidates(model, [e.text for e in lay_set.examples], cocite.fit([]), UnitFacts.build(UNITS, para, {}))
    golds = [{u for u in ids if u.count("/") == 1} for ids in para_labels(lay_set)]
    for task in Task:
        assert fit_booster(rows, golds, task, features=DEFAULT_FEATURES).n_trees >= 1
    assert [(kw["n_estimators"], kw["learning_rate"]) for kw in given] == \
        [(SIZE[t]["n_estimators"], SIZE[t]["learning_rate"]) for t in Task]
    assert SIZE[Task.LAY] != SIZE[Task.CASE]
