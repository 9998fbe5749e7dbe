"""Every pasteable Browser query in cypher/browser/ runs on a live graph and returns rows."""

from __future__ import annotations

import ast
import re

import pytest

from legalkg.graph.cocited import write_cocited
from legalkg.paths import cypher_dir
from legalkg.predict.cocite import shipped_rows

FILES = sorted((cypher_dir() / "browser").glob("*.cypher"))
_PARAM = re.compile(r"^:param\s+(\w+)\s*=>\s*(.+?);?\s*$")


def split_browser_file(text: str) -> tuple[dict, str]:
    """(:param values, query) of a Browser script."""
    params: dict = {}
    body: list[str] = []
    for line in text.splitlines():
        m = _PARAM.match(line.strip())
        if m:
            params[m.group(1)] = ast.literal_eval(m.group(2))
        elif not line.strip().startswith("//"):
            body.append(line)
    return params, "\n".join(body).strip().rstrip(";")


@pytest.fixture(scope="module")
def graph(load_graph, driver, neo4j_cfg):
    """BGB and ZPO with the shipped predictors' CO_CITED edges (as `legalkg ingest` writes them),
    removed again afterwards: the session graph of the other modules has none."""
    load_graph("BGB,ZPO", model="usem3")
    rows = shipped_rows()
    written = write_cocited(driver, neo4j_cfg.database, rows)
    assert 100 < written["lay"] <= len(rows["lay"])  # pairs with an end outside BGB and ZPO are left out
    yield driver
    write_cocited(driver, neo4j_cfg.database, {task: [] for task in rows})
    assert cocited_count(driver, neo4j_cfg.database) == 0


def cocited_count(driver, db: str) -> int:
    return driver.execute_query("MATCH ()-[e:CO_CITED]->() RETURN count(e) AS n", database_=db).records[0]["n"]


def test_there_are_seven_browser_queries():
    assert len(FILES) == 7


def test_what_is_cited_together_with_573(graph, neo4j_cfg):
    """GerLayQA questions cite § 573 BGB (ordinary notice by the landlord) with § 573a (notice in a
    two-flat house: 13 questions) and § 573c (notice periods: 20), as the shipped lay model's table
    says (docs/retrieval.md); the pattern finds § 573c although its edge points away from § 573."""
    params, text = split_browser_file((cypher_dir() / "browser" / "07_cocited_with.cypher").read_text("utf-8"))
    assert params == {"id": "BGB/§573", "task": "lay"}
    records = graph.execute_query(text, params, database_=neo4j_cfg.database).records
    by_unit = {r["cited_with"]: r for r in records}
    assert by_unit["§ 573c BGB"]["cases"] == 20 and by_unit["§ 573a BGB"]["cases"] == 13
    assert by_unit["§ 573c BGB"]["title"].startswith("Fristen der ordentlichen Kündigung")
    assert records[0]["cited_with"] == "§ 573a BGB"  # npmi 0.60, the strongest
    assert [r["npmi"] for r in records] == sorted((r["npmi"] for r in records), reverse=True)
    assert {r["task"] for r in records} == {"lay"}
    both = graph.execute_query(text, {**params, "task": None}, database_=neo4j_cfg.database).records
    assert len(both) == len(records)  # the LER decisions never cite § 573 with another § twice


def test_a_second_write_adds_no_edge(graph, neo4j_cfg):
    db = neo4j_cfg.database
    before = cocited_count(graph, db)
    again = write_cocited(graph, db, shipped_rows())
    assert cocited_count(graph, db) == before == sum(again.values())


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_browser_query_returns_rows(graph, neo4j_cfg, path):
    params, text = split_browser_file(path.read_text("utf-8"))
    assert params, f"{path.name} sets no :param"
    records = graph.execute_query(text, params, database_=neo4j_cfg.database).records
    assert records, f"{path.name} returned nothing"
