"""AUTHORIZED_BY edges on a live test graph (issue 45): the StVG and two ordinances resting on it,
read from the all-laws archive; hand-checked against their Eingangsformel."""

from __future__ import annotations

import pytest

from legalkg.graph.admin import wipe
from legalkg.graph.cypher import query
from legalkg.graph.ingest import ingest_laws
from legalkg.graph.load import LoadSettings
from legalkg.parse import parse_bytes
from legalkg.paths import cypher_dir
from tests.archive import archive_members
from tests.retrieve.test_browser_queries import ORDINANCE_FILES, split_browser_file


@pytest.fixture(scope="module")
def graph(driver, neo4j_cfg):
    files = archive_members("stvg", "bkatv_2013", "fev_2010")
    laws = [(slug, parse_bytes(data, f"{slug}.xml", slug=slug)) for slug, data in files.items()]
    wipe(driver, neo4j_cfg.database)
    report = ingest_laws(driver, neo4j_cfg.database, iter(laws), settings=LoadSettings(progress=False))
    assert report.ok, report.failures
    return driver, neo4j_cfg.database, laws, report


def _enabling(driver, db, law):
    [rec] = driver.execute_query(query("facts/enabling_of"), {"law": law}, database_=db).records
    return rec


def test_bkatv_rests_on_26a_stvg(graph):
    driver, db, _, report = graph
    rec = _enabling(driver, db, "BKatV 2013")
    # "Auf Grund des § 26a des Straßenverkehrsgesetzes ..., der zuletzt durch Artikel 1 Nummer 3 des
    # Gesetzes vom 19. Juli 2007 ... geändert worden ist, verordnet das Bundesministerium für Verkehr, Bau und
    # Stadtentwicklung:" -- the amending Artikel 1 Nummer 3 is no basis
    assert [(e["target"], e["role"]) for e in rec["edges"]] == [("StVG/§26a", "basis")]
    assert rec["edges"][0]["text"] == "§ 26a des Straßenverkehrsgesetzes" and rec["edges"][0]["exact"]
    assert rec["issuer"] == "das Bundesministerium für Verkehr, Bau und Stadtentwicklung"
    assert rec["unresolved"] is None
    assert report.enabling["preambles"] == 2 and report.enabling["laws"] == 2


def test_fev_names_every_unit_of_its_list_and_the_in_connection_one(graph):
    driver, db, _, _ = graph
    rec = _enabling(driver, db, "FeV 2010")
    got = {(e["target"], e["role"]) for e in rec["edges"]}
    # "§ 6 Absatz 1 Nummer 1, Nummer 3 Buchstabe c und Nummer 7, § 6e Absatz 1, § 30c Absatz 1 sowie § 63
    # des Straßenverkehrsgesetzes ..., –§ 6 Absatz 1 Nummer 1 Buchstabe f in Verbindung mit Absatz 2a des
    # Straßenverkehrsgesetzes": each named unit, or its deepest existing ancestor
    # hand-checked in stvg.xml: § 6 Abs. 1 has its list in Satz 1, Nr. 3 has no Buchstabe c any more, § 30c
    # has no Absätze, § 6 no Absatz 2a (the preamble names the StVG of 2010): the deepest unit that exists
    assert got == {("StVG/§6/Abs1/S1/Nr1", "basis"), ("StVG/§6/Abs1/S1/Nr3", "basis"),
                   ("StVG/§6/Abs1/S1/Nr7", "basis"), ("StVG/§6e/Abs1", "basis"), ("StVG/§30c", "basis"),
                   ("StVG/§63", "basis"), ("StVG/§6", "in_connection")}
    exact = {e["target"]: e["exact"] for e in rec["edges"]}
    assert exact["StVG/§6/Abs1/S1/Nr1"] and exact["StVG/§6e/Abs1"] and not exact["StVG/§6/Abs1/S1/Nr3"]
    assert rec["issuer"] == "das Bundesministerium für Verkehr, Bau und Stadtentwicklung"


def test_a_second_ingest_writes_no_enabling_edge(graph):
    driver, db, laws, _ = graph
    count = "MATCH ()-[e:AUTHORIZED_BY|DEFINES]->() RETURN type(e) AS t, count(e) AS n, collect(e.gen)[0] AS gen"
    before = {r["t"]: (r["n"], r["gen"]) for r in driver.execute_query(count, database_=db).records}
    again = ingest_laws(driver, db, iter(laws), settings=LoadSettings(progress=False))
    after = {r["t"]: (r["n"], r["gen"]) for r in driver.execute_query(count, database_=db).records}
    assert after == before and before["AUTHORIZED_BY"][0] > 0 and before["DEFINES"][0] > 0
    assert all(r.status == "unchanged" for r in again.laws)


def _browser(driver, db, name):
    params, text = split_browser_file((cypher_dir() / "browser" / name).read_text("utf-8"))
    return driver.execute_query(text, params, database_=db).records


def test_browser_which_ordinances_rest_on_6_stvg(graph):
    driver, db, _, _ = graph
    recs = _browser(driver, db, ORDINANCE_FILES[0])
    assert {r["ordinance"] for r in recs} == {"FeV 2010"}  # the BKatV rests on § 26a, not § 6
    assert "§ 6 Abs. 1 Satz 1 Nr. 1 StVG" in {r["enabling_unit"] for r in recs}


def test_browser_what_the_bkatv_rests_on(graph):
    driver, db, _, _ = graph
    [rec] = _browser(driver, db, ORDINANCE_FILES[1])
    assert rec["enabling_unit"] == "§ 26a StVG" and rec["role"] == "basis"


def test_browser_unused_enabling_provisions_leave_out_the_used_ones(graph):
    driver, db, _, _ = graph
    recs = _browser(driver, db, ORDINANCE_FILES[2])
    units = {r["enabling_provision"] for r in recs}
    assert recs and all(u.endswith("StVG") for u in units)
    # § 6 Abs. 1 Satz 1 StVG ("wird ermächtigt, ... Rechtsverordnungen ... zu erlassen über 1. ...") holds the
    # Nummern the FeV rests on, so it is used; § 26a Abs. 1 (the BKatV's basis) too
    assert not any(u.startswith(("§ 6 Abs. 1 Satz 1 StVG", "§ 26a")) for u in units)
