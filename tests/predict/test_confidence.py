"""The predictor's vote entropy (``rankfeatures.CONFIDENCE_FEATURES``) and the ranker design that reads it
(``CONFIDENCE_RANKER_FEATURES``, eval/ranker/confidence/): pure, no server, the hand-made questions and
statute texts of conftest.py.

Checked by hand: q1-q3 ask about the Kaution (gold § 551, q2 also § 548), q4-q6 about a defective sale
(§ 437, q5 also § 439), q7-q8 about the Pflichtteil (§ 2303). A question in the Kaution words alone has
neighbours that vote for §§ 551 and 548 only; one that mixes the words of all three topics has
neighbours voting for §§ of all three, so its votes scatter more.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from legalkg.predict import rankfile, train
from legalkg.predict.corpus import Corpus
from legalkg.predict.ranker import PARA, RANKER_FEATURES, Ranker, candidates, fit_stacked, graph_facts
from legalkg.predict.rankfeatures import (
    CONFIDENCE_FEATURES,
    CONFIDENCE_RANKER_FEATURES,
    FEATURES,
    ROUTER_RANKER_FEATURES,
    vote_entropy,
)
from legalkg.vocab import RankerFeatures

from .conftest import UNITS

KAUTION = "Vermieter behält die Kaution"
MIXED = "Vermieter Kaution, Ware mangelhaft, Pflichtteil Testament"


def test_vote_entropy_by_hand():
    assert vote_entropy(np.array([2.0, 2.0, np.nan, 0.0])) == pytest.approx(math.log(2))
    assert vote_entropy(np.array([3.0, 0.0])) == 0.0
    assert vote_entropy(np.array([1.0, 1.0, 2.0])) == pytest.approx(1.5 * math.log(2))  # p = 1/4, 1/4, 1/2
    assert math.isnan(vote_entropy(np.array([0.0, np.nan, -1.0])))
    assert math.isnan(vote_entropy(np.array([], dtype=np.float32)))


def test_the_confidence_design_is_the_router_design_with_the_entropy():
    assert RANKER_FEATURES[RankerFeatures.CONFIDENCE] == CONFIDENCE_RANKER_FEATURES
    assert CONFIDENCE_RANKER_FEATURES == ROUTER_RANKER_FEATURES + CONFIDENCE_FEATURES
    assert not set(CONFIDENCE_FEATURES) & set(ROUTER_RANKER_FEATURES)  # the shipped lay design reads none


def test_each_candidate_carries_its_querys_vote_entropy(lay_set):
    model = train(lay_set, UNITS)
    facts = Ranker("lay", None, None, features=CONFIDENCE_RANKER_FEATURES).attach_units(
        UNITS, [], Corpus.build(UNITS)).facts
    col = FEATURES.index(CONFIDENCE_FEATURES[0])
    sure, mixed, unknown = candidates(model, [KAUTION, MIXED, "Xylophon Zeppelin"], None, facts)
    knn = model.component_scores([KAUTION, MIXED], PARA)["knn"][1]
    for got, row in ((sure, knn[0]), (mixed, knn[1])):
        assert np.unique(got.x[:, col]).tolist() == [pytest.approx(vote_entropy(row))]
    assert sure.x[0, col] < mixed.x[0, col]  # the neighbours of the mixed question scatter over three topics
    voted = {model.levels[PARA].labels[j] for j in np.flatnonzero(knn[0] > 0)}
    assert voted <= {"BGB/§551", "BGB/§548"}
    assert not unknown.ids or np.isnan(unknown.x[:, col]).all()  # no known word: no neighbour votes


def test_a_ranker_of_this_design_keeps_it_in_its_file(lay_set, tmp_path):
    corpus = Corpus.build(UNITS)
    facts = graph_facts(UNITS, corpus, features=CONFIDENCE_RANKER_FEATURES)
    rk = fit_stacked(lay_set, lambda ts: train(ts, UNITS), facts, n_folds=2, features=CONFIDENCE_RANKER_FEATURES)
    loaded = rankfile.load(rankfile.save(rk, tmp_path / "c.npz")).attach_units(UNITS, [], corpus)
    assert loaded.features == CONFIDENCE_RANKER_FEATURES
