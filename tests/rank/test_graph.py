"""Graph prior and citation-hop recall over the real BGB citation edges."""

from legalkg.rank.graph import ParaGraph, build_graph, hop_candidates, in_degree, paragraph_of, paragraph_pairs


def test_paragraph_of_unit_ids():
    assert paragraph_of("BGB/§573/Abs2/S1/Nr2") == "BGB/§573"
    assert paragraph_of("EGBGB/Art229§5/Abs1") == "EGBGB/Art229§5"
    assert paragraph_of("BGB/Gl010010") is None


def test_pairs_are_distinct_and_drop_self_citations():
    edges = [("BGB/§281/Abs1/S1", "BGB/§280/Abs1"), ("BGB/§281/Abs5", "BGB/§280"),
             ("BGB/§281/Abs1/S2", "BGB/§281/Abs4"), ("BGB/§282", "BGB/§280/Abs1")]
    assert paragraph_pairs(edges) == {("BGB/§281", "BGB/§280"), ("BGB/§282", "BGB/§280")}
    assert in_degree(paragraph_pairs(edges)) == {"BGB/§280": 2}


def test_a_paragraph_cited_by_three_hits_joins_the_candidates(bgb_edges):
    graph = build_graph(bgb_edges)
    # §§ 281, 282, 283 BGB each say "... unter den Voraussetzungen des § 280 Abs. 1 ..."
    hits = ["BGB/§281", "BGB/§282", "BGB/§283"]
    got = hop_candidates(hits, graph, min_sources=3)
    assert got.get("BGB/§280") == 3
    assert "BGB/§823" not in got
    assert graph.in_degree["BGB/§280"] >= 5  # also §§ 311a, 437, 536a ... lead to § 280


def test_hop_needs_min_sources():
    g = ParaGraph(out_links={"A": ["X", "Y"], "B": ["X"], "C": ["Z"]})
    assert hop_candidates(["A", "B", "C"], g, min_sources=2) == {"X": 2}
    assert hop_candidates(["A", "A"], g, min_sources=2) == {}  # a hit counts once


def test_pagerank_prefers_the_cited_paragraph(bgb_edges):
    graph = build_graph(bgb_edges)
    assert graph.scaled_pagerank("BGB/§280") > graph.scaled_pagerank("BGB/§282")
