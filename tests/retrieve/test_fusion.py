"""legalkg.fusion on hand-made rankings: the RRF formula, its tie rule, the weighted form, over-fetch."""

from __future__ import annotations

import pytest

from legalkg.fusion import (
    MIN_FETCH,
    RRF_K,
    overfetch,
    reciprocal_rank,
    rrf,
    rrf_scores,
    weighted_rrf,
)


def test_a_document_in_both_rankings_beats_the_two_first_places():
    fused = rrf([["a", "b"], ["b", "c"]])
    assert [key for key, _ in fused] == ["b", "a", "c"]
    assert dict(fused) == pytest.approx({"b": 1 / 62 + 1 / 61, "a": 1 / 61, "c": 1 / 62})


def test_scores_follow_the_formula_with_any_constant():
    rankings = [["x", "y", "z"], ["z"], ["y", "x"]]
    for c in (1, RRF_K, 1000):
        expected = {"x": 1 / (c + 1) + 1 / (c + 2), "y": 1 / (c + 2) + 1 / (c + 1), "z": 1 / (c + 3) + 1 / (c + 1)}
        assert rrf_scores(rankings, c) == pytest.approx(expected)


def test_ties_break_on_the_key_and_k_cuts():
    # x and y swap places in the two rankings: equal scores, so the key decides
    fused = rrf([["y", "x", "q"], ["x", "y"]])
    assert [key for key, _ in fused] == ["x", "y", "q"]
    assert fused[0][1] == fused[1][1]
    assert rrf([["y", "x", "q"], ["x", "y"]], k=2) == fused[:2]
    assert rrf([], k=3) == [] and rrf([[], []]) == []


def test_rrf_scores_keep_first_seen_order_and_count_repeats():
    scores = rrf_scores([["c", "a"], ["b", "c"]])
    assert list(scores) == ["c", "a", "b"]
    assert rrf_scores([["a", "a"]])["a"] == pytest.approx(1 / 61 + 1 / 62)


def test_a_generator_of_rankings_is_read_once():
    rankings = (r for r in (["a"], ["b", "a"]))
    assert [key for key, _ in rrf(rankings)] == ["a", "b"]


def test_one_term_is_one_over_the_constant_plus_the_rank():
    assert reciprocal_rank(1) == pytest.approx(1 / 61)
    assert reciprocal_rank(3, rrf_k=7) == pytest.approx(1 / 10)


@pytest.mark.parametrize("k, fetch", [(1, MIN_FETCH), (5, 50), (12, 50), (13, 52), (100, 400), (1000, 4000)])
def test_overfetch_is_four_times_k_and_at_least_fifty(k, fetch):
    assert overfetch(k) == fetch >= k


def test_weighted_rrf_with_unit_weights_is_rrf():
    rankings = {"a": ["x", "y", "z"], "b": ["z"], "c": ["y", "x"]}
    plain = rrf(rankings.values())
    weighted = weighted_rrf(rankings, {"a": 1, "b": 1, "c": 1})
    assert [(key, pytest.approx(score)) for key, score, _ in weighted] == plain


def test_weighted_rrf_weights_shares_and_switches():
    rankings = {"strong": ["p", "q"], "weak": ["q", "r"]}
    fused = weighted_rrf(rankings, {"strong": 2.0, "weak": 0.5}, k=2)
    assert [key for key, _, _ in fused] == ["q", "p"]
    key, score, shares = fused[0]
    assert shares == pytest.approx({"strong": 2 / 62, "weak": 0.5 / 61})
    assert score == pytest.approx(sum(shares.values()))
    # weight 0 or no weight leaves a ranking out
    assert [key for key, _, _ in weighted_rrf(rankings, {"weak": 1.0, "strong": 0})] == ["q", "r"]
    assert weighted_rrf(rankings, {}) == []
