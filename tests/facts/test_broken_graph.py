"""Broken references in the graph (issue 45): the ingest keeps each row of ``legalkg references --broken``
as a ``BrokenReference`` node linked from its citing unit, replaces them when the law is loaded again,
and the page ``/references/broken`` lists them. Live Neo4j, GG alone (small, and it has a real one).

Hand-checked in gg.xml: Art. 125a Abs. 1 Satz 1 GG reads "... oder wegen der Aufhebung der Artikel 74a,
75 oder 98 Abs. 3 Satz 2 nicht mehr als Bundesrecht erlassen werden könnte, gilt als Bundesrecht fort.";
the norm "Art 74a und 75" is "(weggefallen)".
"""

from __future__ import annotations

import csv

import pytest
from starlette.requests import Request

from legalkg import codes as codes_mod
from legalkg.cite import KnownUnits, LawRegistry
from legalkg.graph.connection import open_driver
from legalkg.graph.extraction import parsed_unit_ids
from legalkg.graph.import_files import NODE_COLUMNS, law_csv
from legalkg.graph.ingest import ingest_laws
from legalkg.graph.load import LoadSettings
from legalkg.parse import iter_laws
from legalkg.serve.tools import Tools
from legalkg.serve.web.pages import Pages

pytestmark = [pytest.mark.neo4j, pytest.mark.timeout(600)]

LAW = "GG"
SOURCE = "GG/Art125a/Abs1/S1"
WRITTEN = "Artikel 74a, 75 oder 98 Abs. 3 Satz 2"
NODES = ("MATCH (u:Unit)-[:HAS_BROKEN_REFERENCE]->(b:BrokenReference) "
         "RETURN u.id AS unit, b.law AS law, b.reference AS reference, b.target AS target, b.status AS status, "
         "b.reason AS reason ORDER BY unit, target")


@pytest.fixture(scope="module")
def gg(load_graph, driver, neo4j_cfg):
    load_graph(LAW, model=None)
    return driver


def nodes(driver, db) -> list[dict]:
    return [r.data() for r in driver.execute_query(NODES, database_=db).records]


def test_the_ingest_keeps_the_repealed_articles_as_nodes(gg, neo4j_cfg):
    got = [r for r in nodes(gg, neo4j_cfg.database) if r["unit"] == SOURCE]
    assert [(r["target"], r["status"], r["reference"], r["law"]) for r in got] == [
        ("Art. 74a GG", "repealed", WRITTEN, "GG"), ("Art. 75 GG", "repealed", WRITTEN, "GG")]
    assert got[0]["reason"].startswith("the cited unit is repealed")


def test_a_reload_replaces_the_nodes(gg, neo4j_cfg):
    db = neo4j_cfg.database
    before = nodes(gg, db)
    # a node the law's text no longer makes, and a marker that says the set changed
    gg.execute_query("MATCH (u:Unit {id: $id}) CREATE (u)-[:HAS_BROKEN_REFERENCE]->(:BrokenReference "
                     "{id: 'stale', law: 'GG', gen: 'old', target: 'Art. 999 GG'}) "
                     "WITH 1 AS x MATCH (g:Gesetz {id: 'GG'}) SET g.broken_hash = 'old'", {"id": SOURCE}, database_=db)
    report = ingest_laws(gg, db, iter_laws(None, codes_mod.resolve_codes(LAW)), settings=LoadSettings(progress=False))
    assert report.ok and report.broken_references == len(before) == 2
    assert "broken references: 2 BrokenReference nodes" in "\n".join(report.summary_lines())
    assert nodes(gg, db) == before
    assert gg.execute_query("MATCH (g:Gesetz {id: 'GG'}) RETURN g.broken_hash AS h",
                            database_=db).records[0]["h"] not in (None, "old")


def test_the_bulk_import_writes_the_same_node(law):
    gg = law("gg")
    ids, repealed = parsed_unit_ids([gg])
    lines, *_ = law_csv(gg, LawRegistry.default(), KnownUnits(ids), repealed)
    rows = [dict(zip(NODE_COLUMNS, r, strict=True)) for r in csv.reader(lines.lines["nodes-BrokenReference"])]
    assert {(r["target"], r["status"], r["reference"]) for r in rows if r["id"].startswith(SOURCE + "#")} == {
        ("Art. 74a GG", "repealed", WRITTEN), ("Art. 75 GG", "repealed", WRITTEN)}
    rels = [r for r in csv.reader(lines.lines["rels"]) if r[2] == "HAS_BROKEN_REFERENCE"]
    assert sorted(r[0] for r in rels) == sorted(r["id"].split("#")[0] for r in rows)


def page_html(tools: Tools, law: str, lang: str = "") -> tuple[int, str]:
    """The page as ``GET /references/broken?law=<law>[&lang=<lang>]`` answers it."""
    query = f"law={law}" + (f"&lang={lang}" if lang else "")
    scope = {"type": "http", "method": "GET", "path": "/references/broken", "query_string": query.encode(),
             "headers": [], "scheme": "http", "server": ("127.0.0.1", 80)}
    response = Pages(tools).broken(Request(scope), law, "1")
    return response.status_code, response.body.decode()


def test_the_page_lists_the_row(gg, neo4j_cfg):
    drv = open_driver(neo4j_cfg)
    try:
        tools = Tools(drv, neo4j_cfg.database, vectors=False)
        status, html = page_html(tools, "gg")
        assert status == 200 and '<html lang="de">' in html
        row = html[html.index(f'data-unit="{SOURCE}"'):]
        row = row[:row.index("</tr>")]
        assert f'href="/unit/{SOURCE}"' in row and "Art. 125a Abs. 1 Satz 1 GG" in row
        assert WRITTEN in row and "Art. 74a GG" in row and "weggefallen" in row
        assert "Die zitierte Vorschrift ist weggefallen" in row and "Recht, das als Bundesrecht" in row
        status, html = page_html(tools, "XYZ", "en")
        assert status == 400 and "Law &#39;XYZ&#39; has no broken references" in html
    finally:
        drv.close()
