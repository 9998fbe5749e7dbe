"""``related`` (tool, ``POST /related``, the unit page) checks the graph as ``get_unit`` and ``search``
do: a unit of a law whose ingest did not finish, or a graph without any finished law, is one line
(``NotReady``, HTTP 503 with ``Retry-After``), never a neighbourhood with parts missing (issue 36).

An interrupted ingest leaves its ``Gesetz`` node without ``hash`` (ingest sets it last); the tests
write that state with plain Cypher on the live test graph and restore it afterwards.
"""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from fastapi.testclient import TestClient

from legalkg.errors import NotReady
from legalkg.serve import Tools, build_app


@pytest.fixture(scope="module")
def graph(load_graph, driver, neo4j_cfg):
    load_graph("KSchG,TzBfG", model=None)
    return driver, neo4j_cfg.database


@contextmanager
def unfinished(driver, db: str, law: str | None = None):
    """``law``'s load (every law's without one) as an ingest killed midway leaves it."""
    saved = driver.execute_query("MATCH (g:Gesetz) WHERE $law IS NULL OR g.id = $law RETURN g.id AS id, g.hash AS h",
                                 {"law": law}, database_=db).records
    driver.execute_query("MATCH (g:Gesetz) WHERE $law IS NULL OR g.id = $law SET g.hash = null",
                         {"law": law}, database_=db)
    try:
        yield
    finally:
        driver.execute_query("UNWIND $rows AS r MATCH (g:Gesetz {id: r.id}) SET g.hash = r.h",
                             {"rows": [dict(r) for r in saved]}, database_=db)


def test_related_refuses_a_unit_of_a_half_loaded_law_and_answers_the_others(graph):
    driver, db = graph
    tools = Tools(driver, db, vectors=False)
    # § 5 KSchG (Zulassung verspäteter Klagen) has five Absätze; § 17 TzBfG cites §§ 5 bis 7 KSchG
    assert tools.related(id="KSchG/§5")["children_count"] == 5
    with unfinished(driver, db, "KSchG"):
        for kwargs in ({"id": "KSchG/§5"}, {"citation": "§ 5 Abs. 1 KSchG"}):
            with pytest.raises(NotReady, match="law_not_loaded"):
                tools.related(**kwargs)
        assert tools.related(id="TzBfG/§17")["law"] == "TzBfG"
        client = TestClient(build_app(tools), raise_server_exceptions=False)
        resp = client.post("/related", json={"id": "KSchG/§5"})
        assert resp.status_code == 503 and resp.headers["retry-after"] == "30"
        assert "law_not_loaded" in resp.json()["error"] and "legalkg ingest" in resp.json()["error"]
        page = client.get("/unit/KSchG/§5")  # the page says it in its own words (German by default)
        assert page.status_code == 503 and "nicht vollständig geladen" in page.text and "legalkg ingest" in page.text
        contents = client.get("/unit/KSchG")  # the law's table of contents, too
        assert contents.status_code == 503 and "nicht vollständig geladen" in contents.text
    assert tools.related(id="KSchG/§5")["children_count"] == 5


def test_a_graph_without_a_finished_law_is_503_for_related_get_unit_and_search(graph):
    driver, db = graph
    with unfinished(driver, db):
        tools = Tools(driver, db, vectors=False)  # a fresh server: readiness is remembered once it passed
        with pytest.raises(NotReady, match="holds no finished law"):
            tools.related(id="KSchG/§5")
        client = TestClient(build_app(tools), raise_server_exceptions=False)
        for path, body in (("/related", {"id": "KSchG/§5"}), ("/get_unit", {"id": "KSchG/§5"}),
                           ("/search", {"query": "Kündigungsschutzklage", "mode": "fulltext"})):
            resp = client.post(path, json=body)
            assert resp.status_code == 503, (path, resp.text)
            assert "holds no finished law" in resp.json()["error"] and resp.headers["retry-after"] == "30"
