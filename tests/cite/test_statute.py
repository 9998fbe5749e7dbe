"""In-statute references -> edges (issue 4, job a), on hand-built fragments of BGB and ZPO."""

from __future__ import annotations

from legalkg.cite import statute_edges
from legalkg.model import Level

from .conftest import ids_of, make_law


def pairs(edges):
    return sorted((e.source_id, e.target_id) for e in edges)


def test_bgb_437_cites_its_remedies_at_the_nummer(bgb, registry):
    edges, stats = statute_edges(bgb, registry, ids_of(bgb), set())
    got = [(e.source_id, e.target_id) for e in edges if e.source_id.startswith("BGB/§437")]
    assert sorted(got) == sorted([
        ("BGB/§437/S1/Nr1", "BGB/§439"),
        ("BGB/§437/S1/Nr2", "BGB/§440"), ("BGB/§437/S1/Nr2", "BGB/§323"),
        ("BGB/§437/S1/Nr2", "BGB/§326/Abs5"), ("BGB/§437/S1/Nr2", "BGB/§441"),
        ("BGB/§437/S1/Nr3", "BGB/§440"), ("BGB/§437/S1/Nr3", "BGB/§280"),
        ("BGB/§437/S1/Nr3", "BGB/§281"), ("BGB/§437/S1/Nr3", "BGB/§283"),
        ("BGB/§437/S1/Nr3", "BGB/§311a"), ("BGB/§437/S1/Nr3", "BGB/§284"),
    ])
    # counted once at the Nummer, not again at the Satz and the Paragraph
    assert not any(e.source_id in ("BGB/§437", "BGB/§437/S1") for e in edges)


def test_relative_satz_and_ranges_of_absaetze(bgb, registry):
    edges, _ = statute_edges(bgb, registry, ids_of(bgb), set())
    got = pairs(e for e in edges if e.source_id.startswith("BGB/§326/Abs1"))
    assert got == sorted([
        ("BGB/§326/Abs1/S1", "BGB/§275/Abs1"), ("BGB/§326/Abs1/S1", "BGB/§275/Abs2"),
        ("BGB/§326/Abs1/S1", "BGB/§275/Abs3"), ("BGB/§326/Abs1/S1", "BGB/§441/Abs3"),
        ("BGB/§326/Abs1/S2", "BGB/§326/Abs1/S1"),  # "Satz 1" inside Absatz 1
        ("BGB/§326/Abs1/S2", "BGB/§275/Abs1"), ("BGB/§326/Abs1/S2", "BGB/§275/Abs2"),
        ("BGB/§326/Abs1/S2", "BGB/§275/Abs3"),
    ])
    levels = {e.target_id: e.target_level for e in edges}
    assert levels["BGB/§326/Abs1/S1"] == Level.SATZ
    assert levels["BGB/§275/Abs2"] == Level.ABSATZ


def test_cross_code_edges_and_relative_absatz(bgb, zpo, registry):
    known = ids_of(bgb, zpo)
    edges, stats = statute_edges(zpo, registry, known, set())
    got = {(e.source_id, e.target_id, e.kind) for e in edges}
    assert ("ZPO/§29a/Abs2/S1", "ZPO/§29a/Abs1", "intra") in got
    for n in (1, 2, 3):
        assert ("ZPO/§29a/Abs2/S1", f"BGB/§549/Abs2/S1/Nr{n}", "cross") in got
    # "§§ 574 bis 574b des BGB" includes the suffixed § 574a that lies in between
    for p in ("§574", "§574a", "§574b"):
        assert ("ZPO/§93b/Abs1/S1", f"BGB/{p}", "cross") in got
    assert ("ZPO/§93b/Abs1/S1", "BGB/§574/Abs3", "cross") in got
    assert stats.by_kind["cross"] == 7 and stats.by_kind["intra"] == 1


def test_law_outside_the_graph_is_reported_not_invented(bgb, zpo, registry):
    edges, stats = statute_edges(zpo, registry, ids_of(zpo), set())
    assert all(e.target_id.startswith("ZPO/") for e in edges)
    # one per cited unit: § 549 Abs. 2 Nr. 1, 2, 3; §§ 574 bis 574b; § 574 Abs. 3
    assert stats.unresolved["law_not_in_graph"] == 5


def test_repealed_and_missing_targets_are_counted(registry):
    law = make_law("BGB", [
        ("BGB/§1", "Siehe § 2 und § 3. Ferner § 99. Und § 4 des Gesetzes über Fooangelegenheiten."),
        ("BGB/§2", "(weggefallen)"), ("BGB/§3", "x"),
    ], repealed={"BGB/§2"})
    edges, stats = statute_edges(law, registry, ids_of(law), {"BGB/§2"})
    assert pairs(edges) == [("BGB/§1", "BGB/§3")]
    assert stats.unresolved == {"repealed": 1, "missing_unit": 1, "unknown_law": 1}


def test_vorstehender_absatz_and_dieses_gesetzes(registry):
    law = make_law("ZPO", [
        ("ZPO/§5", ""), ("ZPO/§5/Abs1", "a"), ("ZPO/§5/Abs2", "b"),
        ("ZPO/§5/Abs3", "Die Frist des vorstehenden Absatzes gilt auch für § 5 Abs. 1 dieses Gesetzes."),
        ("ZPO/§6", "Absatz 2 und Nummer 3 gelten nicht."),
    ])
    edges, stats = statute_edges(law, registry, ids_of(law), set())
    assert pairs(edges) == [("ZPO/§5/Abs3", "ZPO/§5/Abs1"), ("ZPO/§5/Abs3", "ZPO/§5/Abs2")]
    assert stats.unresolved == {"missing_unit": 2}  # § 6 has no Absatz 2 / Nummer 3


def test_satz_nummer_relative_to_the_absatz(registry):
    law = make_law("GVG", [
        ("GVG/§9", ""), ("GVG/§9/Abs1", ""), ("GVG/§9/Abs1/S1", "Liste:"),
        ("GVG/§9/Abs1/S1/Nr1", "a"), ("GVG/§9/Abs1/S1/Nr2", "b"),
        ("GVG/§9/Abs1/S2", "Im Fall der Nummer 2 gilt Satz 1 Nr. 1 entsprechend."),
    ])
    edges, _ = statute_edges(law, registry, ids_of(law), set())
    assert pairs(edges) == [("GVG/§9/Abs1/S2", "GVG/§9/Abs1/S1/Nr1"),
                            ("GVG/§9/Abs1/S2", "GVG/§9/Abs1/S1/Nr2")]


def test_f_takes_the_next_existing_section_ff_only_the_section(registry):
    law = make_law("BGB", [
        ("BGB/§1", "Die §§ 10 f. und § 20 ff. gelten."),
        ("BGB/§10", "x"), ("BGB/§10a", "x"), ("BGB/§11", "x"), ("BGB/§20", "x"), ("BGB/§21", "x"),
        ("BGB/§30", "Die §§ 10 bis 11 gelten."),
    ])
    edges, _ = statute_edges(law, registry, ids_of(law), set())
    assert pairs(edges) == [("BGB/§1", "BGB/§10"), ("BGB/§1", "BGB/§10a"), ("BGB/§1", "BGB/§20"),
                            ("BGB/§30", "BGB/§10"), ("BGB/§30", "BGB/§10a"), ("BGB/§30", "BGB/§11")]


def test_genitive_law_name_does_not_reach_back_over_in_verbindung_mit(registry):
    law = make_law("BGB", [
        ("BGB/§312", "nach § 312d Absatz 1 in Verbindung mit Artikel 246a § 1 Absatz 2 des "
                     "Einführungsgesetzes zum Bürgerlichen Gesetzbuche"),
        ("BGB/§312d", ""), ("BGB/§312d/Abs1", "x"),
    ])
    egbgb = make_law("EGBGB", [("EGBGB/Art246a§1", ""), ("EGBGB/Art246a§1/Abs2", "x")])
    edges, _ = statute_edges(law, registry, ids_of(law, egbgb), set())
    assert {(e.target_id, e.kind) for e in edges} == {("BGB/§312d/Abs1", "intra"),
                                                      ("EGBGB/Art246a§1/Abs2", "cross")}


def test_list_lead_in_names_the_law_of_its_items(registry):
    # StPO § 100a Abs. 2 Nr. 1 "aus dem Strafgesetzbuch:" ... e) "nach den §§ 146 und 151, ..."
    stpo = make_law("StPO", [
        ("StPO/§100a", ""), ("StPO/§100a/Abs2", ""), ("StPO/§100a/Abs2/S1", ""),
        ("StPO/§100a/Abs2/S1/Nr1", "aus dem Strafgesetzbuch: a) ... e) Geld- und "
                                   "Wertzeichenfälschung nach den §§ 146 und 151,"),
        ("StPO/§100a/Abs2/S1/Nr1/Bste", "Geld- und Wertzeichenfälschung nach den §§ 146 und 151,"),
        ("StPO/§146", "x"),
    ])
    stgb = make_law("StGB", [("StGB/§146", "x"), ("StGB/§151", "x")])
    edges, _ = statute_edges(stpo, registry, ids_of(stpo, stgb), set())
    assert pairs(edges) == [("StPO/§100a/Abs2/S1/Nr1/Bste", "StGB/§146"),
                            ("StPO/§100a/Abs2/S1/Nr1/Bste", "StGB/§151")]


def test_und_after_absatz_in_a_section_list_is_a_sibling_absatz(registry):
    # ZVG § 171 Abs. 5 Satz 1
    law = make_law("ZVG", [
        ("ZVG/§171", "Die Vorschriften der §§ 165, 166, 168 Abs. 1 und 3, §§ 169a, 170 Absatz 1 "
                     "und 3 sind anzuwenden."),
        ("ZVG/§3", "x"), ("ZVG/§165", "x"), ("ZVG/§166", "x"), ("ZVG/§168", ""),
        ("ZVG/§168/Abs1", "x"), ("ZVG/§168/Abs3", "x"), ("ZVG/§169a", "x"), ("ZVG/§170", ""),
        ("ZVG/§170/Abs1", "x"), ("ZVG/§170/Abs3", "x"),
    ])
    edges, _ = statute_edges(law, registry, ids_of(law), set())
    assert {e.target_id for e in edges} == {"ZVG/§165", "ZVG/§166", "ZVG/§168/Abs1", "ZVG/§168/Abs3",
                                            "ZVG/§169a", "ZVG/§170/Abs1", "ZVG/§170/Abs3"}
