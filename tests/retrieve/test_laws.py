"""The law router's pure rule (legalkg.retrieve.laws) on hand-made rankings, without a server."""

from __future__ import annotations

import pytest

from legalkg.cite import LawRegistry
from legalkg.fusion import reciprocal_rank
from legalkg.retrieve import SearchRequest
from legalkg.retrieve.laws import AUTO_LAW, WEIGHTS, cited_laws, laws_of, predicted_laws, route, routed_laws


@pytest.fixture(scope="module")
def registry():
    return LawRegistry.default()


def test_laws_of_sums_reciprocal_ranks_so_many_good_hits_beat_one_first_hit():
    # ZPO has the first hit; BGB the 2nd and 3rd: 1/62 + 1/63 > 1/61
    assert laws_of(["ZPO", "BGB", "BGB"]) == ["BGB", "ZPO"]
    # one BGB hit at 2 against ZPO at 1: rank decides
    assert laws_of(["ZPO", "BGB"]) == ["ZPO", "BGB"]


def test_laws_of_skips_hits_without_a_law_but_keeps_their_ranks():
    assert laws_of([]) == []
    assert laws_of(["", None, "GG"]) == ["GG"]
    # two empty hits between: BGB's one hit sits at rank 4, below ZPO's at 1
    assert laws_of(["ZPO", None, None, "BGB"]) == ["ZPO", "BGB"]


def test_predicted_laws_divide_by_the_training_prior_so_a_rare_law_can_lead():
    # a predictor trained mostly on BGB cases: many BGB §§ with small scores, one StGB § with a large one
    rows = [("BGB/§823", 0.2), ("StGB/§242", 0.3), ("BGB/§253", 0.2), ("BGB/§1004", 0.1), ("ZPO/§253", 0.05)]
    prior = {"BGB": 0.81, "StGB": 0.01, "ZPO": 0.01}
    assert predicted_laws(rows, prior, power=0.0) == ["BGB", "StGB", "ZPO"]  # summed scores: BGB's mass wins
    assert predicted_laws(rows, prior) == ["StGB", "BGB", "ZPO"]  # 0.3/0.1 = 3 against 0.5/0.9 = 0.56
    # a law without a training citation gets the floor prior, not a division by zero
    assert predicted_laws([("GG/Art3", 0.01)], {}) == ["GG"]
    assert predicted_laws([], prior) == []


def test_cited_laws_finds_citations_and_bare_law_names_in_text_order(registry):
    assert cited_laws("Nach § 253 ZPO und § 573 Abs. 2 BGB, wieder § 254 ZPO", registry) == ["ZPO", "BGB"]
    assert "BGB" in cited_laws("Gilt das BGB auch für meinen Mietvertrag?", registry)
    assert cited_laws("Mein Vermieter gibt die Kaution nicht zurück", registry) == []


def test_route_lets_a_law_the_query_names_lead_over_the_fulltext_winner():
    runs = {"cited": ["BGB"], "predictor": ["BGB", "ZPO"], "fulltext": ["ZPO", "WoFG", "BGB"]}
    fused = route(runs)
    assert [law for law, _, _ in fused] == ["BGB", "ZPO", "WoFG"]
    law, score, shares = fused[0]
    assert set(shares) == {"cited", "predictor", "fulltext"}
    assert score == pytest.approx(sum(shares.values()))
    assert shares["cited"] == pytest.approx(WEIGHTS["cited"] * reciprocal_rank(1))
    assert shares["fulltext"] == pytest.approx(WEIGHTS["fulltext"] * reciprocal_rank(3))


def test_route_weight_zero_switches_a_signal_off_and_k_cuts():
    runs = {"cited": ["BGB"], "fulltext": ["ZPO", "WoFG"]}
    assert routed_laws(runs, 1, {"cited": 0.0, "fulltext": 1.0}) == ["ZPO"]
    assert routed_laws(runs, 2) == ["BGB", "ZPO"]
    assert routed_laws({}, 3) == []


def test_request_reads_law_auto_in_any_case_and_keeps_other_laws():
    assert SearchRequest(query="x", law="AUTO").law == AUTO_LAW
    assert SearchRequest(query="x", law=" Auto ").law == AUTO_LAW
    assert SearchRequest(query="x", law="SGB V").law == "SGB V"
    assert SearchRequest(query="x").law is None
