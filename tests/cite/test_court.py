"""Court citation forms -> exact tuples (issue 4, job b)."""

from __future__ import annotations

import pytest

from legalkg.cite import extract
from legalkg.model import Citation

F = ("law_key", "unit", "para", "absatz", "satz", "nummer", "buchstabe", "halbsatz", "alternative")


def tuples(text, registry, **kw):
    return [tuple(getattr(m, f) for f in F) for m in extract(text, registry=registry, **kw)]


CASES = [
    ("§ 574 Abs. 2 Nr. 2 ZPO", [("ZPO", "§", "§574", "2", None, "2", None, None, None)]),
    ("§ 91a Abs. 1 S. 2 ZPO", [("ZPO", "§", "§91a", "1", "2", None, None, None, None)]),
    ("§ 5 III BGB", [("BGB", "§", "§5", "3", None, None, None, None, None)]),
    ("§ 812 I 1 BGB", [("BGB", "§", "§812", "1", "1", None, None, None, None)]),
    ("Art. 3 Abs. 1 GG", [("GG", "Art", "Art3", "1", None, None, None, None, None)]),
    ("Art. 20 Abs. 3 GG", [("GG", "Art", "Art20", "3", None, None, None, None, None)]),
    ("§§ 3, 5 Abs. 1 UWG", [("UWG", "§", "§3", None, None, None, None, None, None),
                            ("UWG", "§", "§5", "1", None, None, None, None, None)]),
    ("§ 263 Abs. 1 , § 13 Abs. 1 StGB", [("StGB", "§", "§263", "1", None, None, None, None, None),
                                         ("StGB", "§", "§13", "1", None, None, None, None, None)]),
    ("SGB V § 13", [("SGB V", "§", "§13", None, None, None, None, None, None)]),
    ("§ 8 UWG 2004", [("UWG", "§", "§8", None, None, None, None, None, None)]),
    ("§ 5 Abs 3 JGG", [("JGG", "§", "§5", "3", None, None, None, None, None)]),
    ("§ 246 Abs. 1 Halbs. 2 StGB", [("StGB", "§", "§246", "1", None, None, None, "2", None)]),
    ("§ 13 Abs. 1 Satz 1 Halbsatz 2 GVG", [("GVG", "§", "§13", "1", "1", None, None, "2", None)]),
    ("§ 574 Abs. 2 Nr. 2 Alt. 2 ZPO", [("ZPO", "§", "§574", "2", None, "2", None, None, "2")]),
    ("§ 812 Abs. 1 Satz 1 Fall 1 BGB", [("BGB", "§", "§812", "1", "1", None, None, None, "1")]),
    ("§ 263 Abs. 3 Satz 2 Nr. 1 Var. 2 StGB", [("StGB", "§", "§263", "3", "2", "1", None, None, "2")]),
    ("§ 3 Nr. 24a Buchst. d EStG", [("EStG", "§", "§3", None, None, "24a", "d", None, None)]),
    ("§ 2 Abs. 1 Nr. 1 lit. a SGB II", [("SGB II", "§", "§2", "1", None, "1", "a", None, None)]),
    ("§ 67 Abs. 2 Satz 2 und 3 StGB", [("StGB", "§", "§67", "2", "2", None, None, None, None),
                                       ("StGB", "§", "§67", "2", "3", None, None, None, None)]),
    ("§ 54 Abs. 1 Satz 2 , Abs. 2 Satz 1 StGB", [("StGB", "§", "§54", "1", "2", None, None, None, None),
                                                 ("StGB", "§", "§54", "2", "1", None, None, None, None)]),
    ("§ 244 Abs. 1 Nr. 1 , Buchst. a StGB", [("StGB", "§", "§244", "1", None, "1", "a", None, None)]),
    ("§ 577 Abs. 2 Satz 4 i. V. m. § 559 Abs. 2 ZPO",
     [("ZPO", "§", "§577", "2", "4", None, None, None, None),
      ("ZPO", "§", "§559", "2", None, None, None, None, None)]),
    ("§§ 46 Abs. 2 ArbGG, 91 Abs. 1 ZPO", [("ArbGG", "§", "§46", "2", None, None, None, None, None),
                                           ("ZPO", "§", "§91", "1", None, None, None, None, None)]),
    ("§§ 579 , 580 Nr. 4 , 5 ZPO", [("ZPO", "§", "§579", None, None, None, None, None, None),
                                    ("ZPO", "§", "§580", None, None, "4", None, None, None),
                                    ("ZPO", "§", "§580", None, None, "5", None, None, None)]),
    ("§§ 244 Abs. 2 , 261 StPO", [("StPO", "§", "§244", "2", None, None, None, None, None),
                                  ("StPO", "§", "§261", None, None, None, None, None, None)]),
    ("Art. 229 § 5 EGBGB", [("EGBGB", "Art", "Art229§5", None, None, None, None, None, None)]),
    ("§ 13 des Bürgerlichen Gesetzbuchs", [("BGB", "§", "§13", None, None, None, None, None, None)]),
    ("§ 91 der Zivilprozessordnung", [("ZPO", "§", "§91", None, None, None, None, None, None)]),
    ("§ 211 des Strafgesetzbuches", [("StGB", "§", "§211", None, None, None, None, None, None)]),
    ("§ 10 WEG", [("WEG", "§", "§10", None, None, None, None, None, None)]),
    ("§ 10 WoEigG", [("WEG", "§", "§10", None, None, None, None, None, None)]),
    ("§ 34 BauGB", [("BauGB", "§", "§34", None, None, None, None, None, None)]),
    ("§ 370 Abs. 1 Nr. 2 AO", [("AO", "§", "§370", "1", None, "2", None, None, None)]),
    ("Art. 7 EGBGB", [("EGBGB", "Art", "Art7", None, None, None, None, None, None)]),
    ("Absatz 4 des § 59a BRAO", [("BRAO", "§", "§59a", "4", None, None, None, None, None)]),
    ("Paragraph 143a MarkenG", [("MarkenG", "§", "§143a", None, None, None, None, None, None)]),
]


@pytest.mark.parametrize("text,expected", CASES, ids=[c[0] for c in CASES])
def test_court_forms(text, expected, full_registry):
    assert tuples(text, full_registry) == expected


def test_tokenised_text_with_spaces_before_commas(registry):
    got = tuples("§ 69a Abs. 1 Satz 1 , § 69b Abs. 1 Satz 3 , § 69 Abs. 1 StGB", registry)
    assert [g[2:5] for g in got] == [("§69a", "1", "1"), ("§69b", "1", "3"), ("§69", "1", None)]
    assert all(g[0] == "StGB" for g in got)


def test_range_expands_numerically(registry):
    got = tuples("§§ 10 bis 12 BGB", registry)
    assert [g[2] for g in got] == ["§10", "§11", "§12"]


def test_f_is_the_section_and_the_next_ff_only_the_section(registry):
    assert [g[2] for g in tuples("§ 312 f. BGB", registry)] == ["§312", "§313"]
    ms = extract("§§ 558 ff. BGB", registry=registry)
    assert [(m.para, m.ff) for m in ms] == [("§558", "ff")]


def test_version_marks_are_kept_and_inside_the_span(registry):
    text = "§ 53a StPO a. F. gilt"
    (m,) = extract(text, registry=registry)
    assert m.version == "aF"
    assert text[m.chain_start:m.chain_end] == "§ 53a StPO a. F."


def test_unknown_law_is_reported(registry):
    (m,) = extract("§ 12 FooBarG", registry=registry)
    assert (m.law_cited, m.law_key, m.reason) == ("FooBarG", None, "unknown_law")
    assert m.node_id is None


def test_bare_section_uses_default_law(registry):
    (m,) = extract("nach § 5 Abs. 2", default_law="BGB", registry=registry)
    assert m.citation == Citation(law="BGB", para="§5", absatz="2")
    (m,) = extract("nach § 5 Abs. 2", registry=registry)
    assert (m.law_key, m.reason) == (None, "no_law")


def test_citation_tuple_and_id(registry):
    (m,) = extract("§ 574 Abs. 2 Nr. 2 ZPO", registry=registry)
    assert m.citation == Citation("ZPO", "§574", "2", None, "2")
    assert m.node_id == "ZPO/§574/Abs2/Nr2"


def test_commentary_margin_numbers_are_not_statute_citations(registry):
    text = "( vgl. Fischer , StGB , 65. Aufl. , § 177 Rn. 129 ) und BGHR StGB § 63 Gefährlichkeit 35"
    assert extract(text, registry=registry) == []


def test_offsets_point_into_the_text(registry):
    text = "Die Revision ist nach § 543 Abs. 2 Nr. 1 ZPO zuzulassen."
    (m,) = extract(text, registry=registry)
    assert text[m.start:m.end] == m.text == "§ 543 Abs. 2 Nr. 1"
    assert text[m.chain_start:m.chain_end] == "§ 543 Abs. 2 Nr. 1 ZPO"


def test_law_mentions_only_on_request(registry):
    text = "Die Zivilprozessordnung kennt das nicht ( Fischer , StGB , 64. Aufl. )."
    assert extract(text, registry=registry) == []
    ms = extract(text, registry=registry, law_mentions=True)
    assert [(m.text, m.law_key, m.unit) for m in ms] == [("Zivilprozessordnung", "ZPO", None)]
