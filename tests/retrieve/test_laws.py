"""The law router's pure rule (legalkg.retrieve.laws) on hand-made rankings, without a server."""

from __future__ import annotations

import pytest

from legalkg.cite import LawRegistry
from legalkg.fusion import reciprocal_rank
from legalkg.retrieve import SearchRequest
from legalkg.retrieve.laws import AUTO_LAW, WEIGHTS, cited_laws, laws_of, route, routed_laws


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
