"""The statute facts of a unit on a live test graph (issue 45): ordinances resting on it, what its law
rests on (a law outside the graph kept with its status until it is loaded), the terms it defines and
the definitions that apply to it; the same through MCP ``related``. Read from the all-laws archive and
hand-checked against the statute texts quoted below."""

from __future__ import annotations

import pytest

from legalkg.facts.related import driver_read, unit_facts, unresolved_records
from legalkg.graph.admin import wipe
from legalkg.graph.connection import open_driver
from legalkg.graph.cypher import query
from legalkg.graph.ingest import ingest_laws
from legalkg.graph.load import LoadSettings
from legalkg.parse import parse_bytes
from legalkg.serve.tools import Tools
from tests.archive import archive_members

#: GenTPflEV: "Auf Grund des § 16b Abs. 6 des Gentechnikgesetzes in der Fassung der Bekanntmachung vom
#: 16. Dezember 1993 ..., verordnet die Bundesregierung:" -- the GenTG is not loaded at first
GENTPFLEV_RECORD = {"status": "law_not_in_graph", "citation": "§ 16b Abs. 6 GenTG",
                    "text": "§ 16b Abs. 6 des Gentechnikgesetzes"}


def _ingest(driver, db, *slugs):
    files = archive_members(*slugs)
    laws = [(slug, parse_bytes(data, f"{slug}.xml", slug=slug)) for slug, data in files.items()]
    report = ingest_laws(driver, db, iter(laws), settings=LoadSettings(progress=False))
    assert report.ok, report.failures
    return report


@pytest.fixture(scope="module")
def graph(driver, neo4j_cfg):
    wipe(driver, neo4j_cfg.database)
    _ingest(driver, neo4j_cfg.database, "stvg", "bkatv_2013", "fev_2010", "gentpflev")
    return driver_read(driver, neo4j_cfg.database)


def test_unresolved_records_keep_status_citation_and_words():
    assert unresolved_records(["law_not_in_graph|§ 16b Abs. 6 GenTG|§ 16b Abs. 6 des Gentechnikgesetzes"]) == [
        GENTPFLEV_RECORD]
    assert unresolved_records(None) == []


def test_ordinances_resting_on_a_paragraph(graph):
    # BKatV: "Auf Grund des § 26a des Straßenverkehrsgesetzes ... verordnet das Bundesministerium ..."
    facts = unit_facts(graph, "StVG/§26a", 10)
    assert facts["rested_on_by_count"] == 1
    assert [(r["ordinance"], r["target"], r["role"]) for r in facts["rested_on_by"]] == [
        ("BKatV 2013", "StVG/§26a", "basis")]
    # FeV: "§ 6 Absatz 1 Nummer 1, Nummer 3 Buchstabe c und Nummer 7 ... des Straßenverkehrsgesetzes":
    # edges to units inside § 6, one ordinance
    six = unit_facts(graph, "StVG/§6", 50)
    assert six["rested_on_by_count"] == 1 and {r["ordinance"] for r in six["rested_on_by"]} == {"FeV 2010"}
    assert "StVG/§6/Abs1/S1/Nr1" in {r["target"] for r in six["rested_on_by"]}
    # the limit caps the rows, not the count
    assert len(unit_facts(graph, "StVG/§6", 2)["rested_on_by"]) == 2
    # § 1 StVG (Zulassung) is named by neither preamble
    assert unit_facts(graph, "StVG/§1", 10)["rested_on_by_count"] == 0


def test_a_law_outside_the_graph_is_kept_with_its_status(graph):
    facts = unit_facts(graph, "GenTPflEV/§3/Abs1", 10)
    assert facts["law_rests_on"] == []
    assert facts["law_rests_on_unresolved"] == [GENTPFLEV_RECORD]
    assert facts["issuer"] == "die Bundesregierung"


def test_a_law_outside_the_graph_is_an_unresolved_edge_with_its_status(graph, driver, neo4j_cfg):
    # the GenTG is not loaded: § 16b Abs. 6 GenTG stays an AUTHORIZED_BY edge to a CitedLaw node naming it
    [rec] = driver.execute_query(query("facts/enabling_of"), {"law": "GenTPflEV"}, database_=neo4j_cfg.database).records
    assert rec["edges"] == []
    assert [{k: o[k] for k in ("law", "status", "citation", "role", "text")} for o in rec["outside"]] == [
        {"law": "GenTG", **GENTPFLEV_RECORD, "role": "basis"}]
    [o] = rec["outside"]
    assert rec["law"] == "GenTPflEV"
    preamble = driver.execute_query("MATCH (g:Gesetz {id: 'GenTPflEV'}) RETURN g.preamble AS p",
                                    database_=neo4j_cfg.database).records[0]["p"]
    assert preamble[o["start"]:o["end"]] == GENTPFLEV_RECORD["text"]
    nodes = driver.execute_query("MATCH (c:CitedLaw) RETURN c.id AS id, c.name AS name, c.law AS law",
                                 database_=neo4j_cfg.database).records
    assert [r.data() for r in nodes] == [{"id": "GenTPflEV@GenTG", "name": "GenTG", "law": "GenTPflEV"}]
    # the unresolved edge is no unit the ordinance rests on
    assert unit_facts(graph, "GenTPflEV/§3/Abs1", 10)["law_rests_on"] == []


def test_definitions_made_in_a_unit_and_applying_to_another(graph):
    # § 2 Abs. 1 Satz 1 StVG: "Wer auf öffentlichen Straßen ein Kraftfahrzeug führt, bedarf der Erlaubnis
    # (Fahrerlaubnis) der zuständigen Behörde (Fahrerlaubnisbehörde)."
    here = {(d["term"], d["unit"]) for d in unit_facts(graph, "StVG/§2/Abs1", 50)["defined_here"]}
    assert {("Fahrerlaubnis", "StVG/§2/Abs1/S1"), ("Fahrerlaubnisbehörde", "StVG/§2/Abs1/S1")} <= here
    # § 3 Abs. 1 Satz 1 StVG: "Erweist sich jemand als ungeeignet oder nicht befähigt zum Führen von
    # Kraftfahrzeugen, so hat ihm die Fahrerlaubnisbehörde die Fahrerlaubnis zu entziehen." -- terms of
    # § 2 Abs. 1 and § 2 Abs. 5 ("Befähigt zum Führen von Kraftfahrzeugen ist, wer ...")
    applying = {d["term"]: d for d in unit_facts(graph, "StVG/§3/Abs1/S1", 50)["applying"]}
    assert {"Fahrerlaubnis", "Fahrerlaubnisbehörde", "Befähigt zum Führen von Kraftfahrzeugen"} <= set(applying)
    assert applying["Fahrerlaubnis"]["unit"] == "StVG/§2/Abs1/S1" and applying["Fahrerlaubnis"]["scope"] == "StVG"
    assert "Zulassungsbehörde" not in applying  # defined in § 1, not used in § 3 Abs. 1 Satz 1
    assert unit_facts(graph, "StVG/§3/Abs1/S1", 50)["defined_here"] == []
    # GenTPflEV § 3 Abs. 1: "Der Erzeuger hat den Nachbarn ... die Größe der Anbaufläche" -- § 2 Nr. 1, 3, 4
    gen = {d["term"]: d["unit"] for d in unit_facts(graph, "GenTPflEV/§3/Abs1", 50)["applying"]}
    assert gen == {"Anbaufläche": "GenTPflEV/§2/S1/Nr1", "Erzeuger": "GenTPflEV/§2/S1/Nr3",
                   "Nachbar": "GenTPflEV/§2/S1/Nr4"}
    # a definition in another law does not apply: the FeV's terms have their own scope
    assert all(d["scope"] == "StVG" for d in applying.values())


def test_mcp_related_carries_the_facts(graph, neo4j_cfg):
    drv = open_driver(neo4j_cfg)
    try:
        tools = Tools(drv, neo4j_cfg.database, vectors=False)
        rel = tools.related(id="StVG/§26a", limit=5)
        rests = tools.related(id="GenTPflEV/§3/Abs1", limit=5)["facts"]
        defines = tools.related(citation="§ 2 Abs. 1 StVG", limit=50)["facts"]
    finally:
        drv.close()
    assert rel["id"] == "StVG/§26a"
    assert [r["ordinance"] for r in rel["facts"]["rested_on_by"]] == ["BKatV 2013"]
    assert rel["facts"]["rested_on_by_count"] == 1
    # what the unit's own law rests on (outside the graph, with its status) and the definitions
    assert rests["law_rests_on_unresolved"] == [GENTPFLEV_RECORD] and rests["issuer"] == "die Bundesregierung"
    assert {d["term"]: d["unit"] for d in rests["applying"]}["Erzeuger"] == "GenTPflEV/§2/S1/Nr3"
    assert ("Fahrerlaubnis", "StVG/§2/Abs1/S1") in {(d["term"], d["unit"]) for d in defines["defined_here"]}


def test_the_unit_page_shows_enabling_and_enabled_provisions_and_definitions(graph, neo4j_cfg):
    from fastapi.testclient import TestClient

    from legalkg.serve.http import build_app

    drv = open_driver(neo4j_cfg)
    try:
        client = TestClient(build_app(Tools(drv, neo4j_cfg.database, vectors=False)))
        enabled = client.get("/unit/StVG/§26a").text  # the BKatV rests on § 26a StVG
        rests = client.get("/unit/GenTPflEV/§3/Abs1").text  # what the GenTPflEV rests on, outside the graph
        defines = client.get("/unit/StVG/§2/Abs1").text  # "der Erlaubnis (Fahrerlaubnis)"
    finally:
        drv.close()
    facts = enabled[enabled.index('<section aria-labelledby="facts-h">'):]
    assert 'class="links ordinances"' in facts and ">BKatV 2013</a>" in facts
    rests = rests[rests.index('<section aria-labelledby="facts-h">'):]
    assert 'class="links rests-on"' in rests
    assert "§ 16b Abs. 6 GenTG" in rests and '<span class="badge">law_not_in_graph</span>' in rests
    # GenTPflEV § 3 Abs. 1 uses "Erzeuger", defined in its § 2 Nr. 3
    assert 'class="links applying"' in rests and "Erzeuger" in rests
    defines = defines[defines.index('<section aria-labelledby="facts-h">'):]
    assert 'class="links defined"' in defines and "<dfn lang=\"de\">Fahrerlaubnis</dfn>" in defines


def test_loading_the_missing_law_turns_the_record_into_an_edge(graph, driver, neo4j_cfg):
    before = unit_facts(graph, "GenTPflEV/§2", 10)
    assert before["law_rests_on_unresolved"] == [GENTPFLEV_RECORD]
    # the next ingest that reads the ordinance with the GenTG loaded links § 16b Abs. 6 GenTG
    _ingest(driver, neo4j_cfg.database, "gentg", "gentpflev")
    after = unit_facts(graph, "GenTPflEV/§2", 10)
    assert after["law_rests_on_unresolved"] == []
    assert [(e["target"], e["role"], e["exact"]) for e in after["law_rests_on"]] == [
        ("GenTG/§16b/Abs6", "basis", True)]
    assert [r["ordinance"] for r in unit_facts(graph, "GenTG/§16b", 10)["rested_on_by"]] == ["GenTPflEV"]
    # the unresolved edge and its CitedLaw node are gone
    [rec] = driver.execute_query(query("facts/enabling_of"), {"law": "GenTPflEV"}, database_=neo4j_cfg.database).records
    assert rec["outside"] == [] and rec["unresolved"] is None
    assert driver.execute_query("MATCH (c:CitedLaw) RETURN count(c) AS n",
                                database_=neo4j_cfg.database).records[0]["n"] == 0
