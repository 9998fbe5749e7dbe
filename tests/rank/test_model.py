"""The shipped fusion model loads, scores deterministically and explains its scores."""

import numpy as np

from legalkg.rank.features import COMPONENT_FEATURES, FEATURES, QueryVectors
from legalkg.rank.model import load_model
from legalkg.rank.ranker import Ranker


def test_shipped_model_loads_and_scores_deterministically():
    model = load_model()
    assert model.features == list(FEATURES)
    assert model.cv["recall10"] > 0.19  # out-of-fold, above the popularity list
    X = np.random.default_rng(0).normal(size=(50, len(FEATURES)))
    a, b = model.score(X), load_model().score(X.copy())
    assert np.array_equal(a, b)
    assert model.popularity["BGB/§1004"] > model.popularity.get("BGB/§573", 0) > 0


def test_contributions_add_up_to_the_score():
    model = load_model()
    x = np.linspace(0, 1, len(FEATURES))
    contrib = model.contributions(x)
    assert set(contrib) == set(COMPONENT_FEATURES)
    assert abs(sum(contrib.values()) + model.intercept - model.score(x[None, :])[0]) < 1e-3


def test_ranker_explains_hits_on_the_small_corpus(small_res):
    model = load_model()
    comp = model.components.model_copy(update={"dense": False})
    ranker = Ranker(small_res, model, components=comp)
    hits = ranker.rank_vectors("Ist die Kündigung meiner Wohnung nach § 573 BGB wirksam?",
                               QueryVectors(None, None), k=3, explain=True)
    assert [h.id for h in hits][0] == "BGB/§573"
    assert hits[0].citation == "§ 573 BGB"
    assert hits[0].contributions["citations"] > 0
