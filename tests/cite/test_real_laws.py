"""Edges on laws parsed from the real gii XML (needs legalkg.parse and $LEGALKG_SHARED)."""

from __future__ import annotations

import pytest

from legalkg import paths

parse = pytest.importorskip("legalkg.parse")


@pytest.fixture(scope="module")
def bgb_zpo():
    if not (paths.gii_dir() / "bgb.xml").exists():
        pytest.skip("shared gii data not available")
    return parse.parse_file(paths.gii_dir() / "bgb.xml"), parse.parse_file(paths.gii_dir() / "zpo.xml")


@pytest.fixture(scope="module")
def edges(bgb_zpo, request):
    from legalkg.cite import LawRegistry, statute_edges

    bgb, zpo = bgb_zpo
    known = {u.id for law in bgb_zpo for u in law.units}
    repealed = {u.id for law in bgb_zpo for u in law.units if u.repealed}
    reg = LawRegistry.default()
    return {law.key: statute_edges(law, reg, known, repealed) for law in bgb_zpo}


def test_bgb_437_cites_exactly_the_remedies(edges):
    got = {e.target_id for e in edges["BGB"][0] if e.source_id.startswith("BGB/§437/")}
    assert got == {"BGB/§439", "BGB/§440", "BGB/§441", "BGB/§323", "BGB/§326/Abs5", "BGB/§280",
                   "BGB/§281", "BGB/§283", "BGB/§311a", "BGB/§284"}


def test_zpo_93b_range_into_bgb_includes_574a(edges):
    got = {e.target_id for e in edges["ZPO"][0] if e.source_id == "ZPO/§93b/Abs1/S1"}
    assert {"BGB/§574", "BGB/§574a", "BGB/§574b", "BGB/§574/Abs3"} <= got


def test_each_reference_counted_once_not_at_every_ancestor(edges):
    bgb_edges = edges["BGB"][0]
    assert not any(e.source_id in ("BGB/§437", "BGB/§437/S1") for e in bgb_edges)


def test_statistics_are_consistent(edges):
    for edge_list, stats in edges.values():
        assert stats.edges == len(edge_list) == sum(stats.by_kind.values()) == sum(stats.by_level.values())
        assert len({(e.source_id, e.target_id) for e in edge_list}) == len(edge_list)


def test_known_units_built_once_give_the_same_edges_as_a_plain_id_set(bgb_zpo, edges):
    """An ingest passes one KnownUnits to every law; ZPO's ranges into the BGB use its § order."""
    from legalkg.cite import KnownUnits, LawRegistry, statute_edges

    ids = {u.id for law in bgb_zpo for u in law.units}
    known = KnownUnits(ids)
    assert known.laws == {"BGB", "ZPO"} and "BGB/§574a" in known and len(known) == len(ids)
    assert known.para_index["BGB"].index("§574a") == known.para_index["BGB"].index("§574") + 1
    repealed = {u.id for law in bgb_zpo for u in law.units if u.repealed}
    zpo_edges, zpo_stats = statute_edges(bgb_zpo[1], LawRegistry.default(), known, repealed)
    assert zpo_edges == edges["ZPO"][0] and zpo_stats == edges["ZPO"][1]
