"""The pages' pure parts (legalkg.serve.web.views) and the templates' escaping, without a server."""

from __future__ import annotations

import pytest

from legalkg.errors import UserError
from legalkg.serve.tools import LINK_LIMIT, check_limit
from legalkg.serve.web import i18n, lawtext, pages, views

TEXT = "Nach § 1 Abs. 2 KSchG und §§ 5 bis 7 KSchG, nicht § 99 KSchG."


def record(chain: tuple[int, int], own: tuple[int, int], status: str = "ok") -> dict:
    return {"chain_start": chain[0], "chain_end": chain[1], "start": own[0], "end": own[1], "status": status}


def test_a_single_chain_is_highlighted_whole_and_a_range_per_unit():
    first = (TEXT.index("§ 1"), TEXT.index(" und"))
    chain = (TEXT.index("§§"), TEXT.index(", nicht"))
    bad = (TEXT.index("§ 99"), len(TEXT) - 1)
    records = [record(first, (first[0], first[0] + 10)),
               record(chain, (chain[0], chain[0] + 4)), record(chain, (TEXT.index("bis"), TEXT.index("bis") + 5)),
               record(bad, (bad[0], bad[0] + 4), "no_such_unit")]
    segments = views.highlight(TEXT, records)
    assert "".join(s["text"] for s in segments) == TEXT
    marked = [s["text"] for s in segments if s["record"]]
    assert marked == ["§ 1 Abs. 2 KSchG", "§§ 5", "bis 7", "§ 99 KSchG"]
    assert segments[-1] == {"text": ".", "record": None}


def test_overlapping_and_empty_spans_are_left_out():
    records = [record((0, 10), (0, 4)), record((0, 10), (2, 6)), record((12, 12), (12, 12))]
    assert views.record_spans(records) == [(0, 4, 0)]
    assert views.highlight("", []) == []


def test_shares_are_sorted_by_size_and_sum_to_100_percent():
    rows = views.shares({"fulltext": 0.25, "vector": 0.5, "predictor": -0.25})
    assert [r["name"] for r in rows] == ["vector", "fulltext", "predictor"]
    assert sum(r["percent"] for r in rows) == pytest.approx(100)
    assert views.shares({}) == []


def test_excerpt_url_and_citation_list():
    assert views.excerpt("a  b\nc d", 3) == "a b c …"
    assert views.excerpt(None) == ""
    assert views.unit_url("BGB/§573/Abs2") == "/unit/BGB/%C2%A7573/Abs2"
    assert views.citation_list([{"id": "X/§1", "citation": "§ 1 X"}, {"id": "X/§2", "citation": None}]) == "§ 1 X\nX/§2"


def test_graph_has_one_node_per_unit_and_no_link_above_the_paragraph():
    related = {"id": "K/§5", "citation": "§ 5 K", "repealed": False,
               "parent": {"id": "K/Gl1", "citation": "Teil 1", "unit": False},
               "children": [{"id": "K/§5/Abs1", "citation": "§ 5 Abs. 1 K"}],
               "cites": [{"id": "K/§4", "citation": "§ 4 K"}, {"id": "K/§5", "citation": "§ 5 K"}],
               "cited_by": [{"id": "K/§5/Abs1", "citation": "§ 5 Abs. 1 K"}, {"id": "T/§17", "citation": "§ 17 T"}]}
    elements = views.graph_elements(related)
    nodes = {e["data"]["id"]: e["data"] for e in elements if "source" not in e["data"]}
    edges = [e["data"] for e in elements if "source" in e["data"]]
    assert set(nodes) == {"K/§5", "K/Gl1", "K/§5/Abs1", "K/§4", "T/§17"}
    assert nodes["K/Gl1"]["href"] is None and nodes["T/§17"]["href"] == "/unit/T/%C2%A717"
    assert {(e["source"], e["target"], e["role"]) for e in edges} == {
        ("K/Gl1", "K/§5", "parent"), ("K/§5", "K/§5/Abs1", "child"), ("K/§5", "K/§4", "cites"),
        ("K/§5/Abs1", "K/§5", "cited_by"), ("T/§17", "K/§5", "cited_by")}
    capped = views.graph_elements(related, cap=1)  # drops the second citing unit, T/§17, and its edge
    assert len(capped) == len(elements) - 2 and "T/§17" not in {e["data"]["id"] for e in capped}


@pytest.mark.parametrize("bad", [0, LINK_LIMIT + 1, "x", True, None, 2.5])
def test_related_limit_is_checked(bad):
    with pytest.raises(UserError, match="limit must be"):
        check_limit(bad)


def test_limit_accepts_form_strings():
    assert check_limit("7") == 7 and check_limit(LINK_LIMIT) == LINK_LIMIT


def test_templates_escape_statute_and_pasted_text():
    env = pages.environment()
    hostile = '<script>alert(1)</script><img src=x onerror="alert(2)">'
    html = env.get_template("check.html").render(
        form={"text": hostile}, error=None, legend=[],
        report={"records": [], "counts": {}, "threshold": 0.1}, records=[],
        segments=[{"text": hostile, "record": None}])
    assert "<script>alert" not in html and "<img src=x" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    unit = {"id": "X/§1", "citation": "§ 1 X", "title": hostile, "text": hostile, "repealed": True,
            "level": "Paragraph", "words": 3}
    related = {"path": [], "parent": None, "children": [], "children_count": 0, "cites": [], "cites_count": 0,
               "cited_by": [], "cited_by_count": 0, "cited_by_laws": []}
    tree = lawtext.link_pieces(lawtext.build_tree(
        [{"id": "X/§1", "parent": "X", "level": "Paragraph", "label": "1", "text": hostile,
          "cites": [{"text": "<script>", "starts": [0], "ends": [8], "id": "X/§2", "citation": hostile}]}], "X/§1"))
    graph = views.graph_elements({**related, "id": "X/§1", "citation": "</script><script>alert(3)"})
    html = env.get_template("unit.html").render(form={}, unit=unit, related=related, graph=graph, tree=tree,
                                                crumbs=[{"name": hostile, "url": "/unit/X", "title": hostile}],
                                                backlinks=[], official=None, up=None)
    assert "<script>alert" not in html and "</script><script>alert(3)" not in html
    assert html.count("<script") == html.count("</script>") == 2  # app.js and the data (no inline script)


def test_the_decisions_block_escapes_and_counts_per_court():
    """The unit page's decisions block (issue 46): courts counted in one line, a decision's lead and file
    number shown as text, its cited units linked."""
    hostile = '<script>alert(1)</script>'
    unit = {"id": "X/§1", "citation": "§ 1 X", "title": "t", "text": "x", "repealed": False, "level": "Paragraph",
            "words": 1}
    decisions = {"count": 3, "courts": [{"court": "BGH", "count": 2}, {"court": hostile, "count": 1}],
                 "decisions": [{"id": "oldp:1", "court": hostile, "date": "2021-03-04", "file_number": hostile,
                                "type": "Urteil", "lead": hostile, "times": 2,
                                "units": [{"id": "X/§1/Abs2", "citation": "§ 1 Abs. 2 X"}]}]}
    related = {"path": [], "parent": None, "children": [], "children_count": 0, "cites": [], "cites_count": 0,
               "cited_by": [], "cited_by_count": 0, "cited_by_laws": [], "cited_by_decisions": decisions}
    html = pages.environment().get_template("unit.html").render(form={}, unit=unit, related=related, graph=[])
    # escaped five times: the courts line, data-court, the court, the file number, the lead
    assert "<script>alert" not in html and html.count("&lt;script&gt;alert(1)") == 5
    assert '<span id="decisions-count">3</span>' in html and "(BGH 2, &lt;script&gt;" in html
    assert '<a href="/unit/X/%C2%A71/Abs2">§ 1 Abs. 2 X</a> (2-mal)' in html  # German by default
    assert "Die neueste von 3 ist aufgeführt." in html and "Urteil vom 2021-03-04" in html  # one: singular
    english = pages.environment().get_template("unit.html").render(
        form={}, unit=unit, related=related, graph=[], t=i18n.translator("en"), lang="en")
    assert "(2 times)" in english and "The most recent of 3 is listed." in english
    assert "Urteil of 2021-03-04" in english and "Cited by" in english
    assert views.court_counts(decisions["courts"]) == f"BGH 2, {hostile} 1"
