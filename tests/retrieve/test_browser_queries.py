"""Every pasteable Browser query in cypher/browser/ runs on a live graph and returns rows."""

from __future__ import annotations

import ast
import re

import pytest

from legalkg.graph.cocited import write_cocited
from legalkg.paths import cypher_dir
from legalkg.predict.cocite import shipped_rows

from ..decisions import load_decisions, remove_decisions

#: the queries about ordinances need a graph with ordinances: tests/facts/test_enabling_graph.py runs them
ORDINANCE_FILES = ("12_ordinances_resting_on.cypher", "13_what_an_ordinance_rests_on.cypher",
                   "14_unused_enabling_provisions.cypher")
FILES = sorted(p for p in (cypher_dir() / "browser").glob("*.cypher") if p.name not in ORDINANCE_FILES)
#: Cypher's literal words, which Python spells differently
_CYPHER_WORDS = {"null": None, "true": True, "false": False}
_PARAM = re.compile(r"^:param\s+(\w+)\s*=>\s*(.+?);?\s*$")


def split_browser_file(text: str) -> tuple[dict, str]:
    """(:param values, query) of a Browser script."""
    params: dict = {}
    body: list[str] = []
    for line in text.splitlines():
        m = _PARAM.match(line.strip())
        if m:
            params[m.group(1)] = _CYPHER_WORDS.get(m.group(2), None) if m.group(2) in _CYPHER_WORDS \
                else ast.literal_eval(m.group(2))
        elif not line.strip().startswith("//"):
            body.append(line)
    return params, "\n".join(body).strip().rstrip(";")


@pytest.fixture(scope="module")
def graph(load_graph, driver, neo4j_cfg, tmp_path_factory):
    """BGB and ZPO with the shipped predictors' CO_CITED edges (as `legalkg ingest` writes them) and the
    decisions of tests/decisions.py, removed again afterwards: the session graph of the other modules
    has none."""
    load_graph("BGB,ZPO", model="usem3")
    rows = shipped_rows()
    written = write_cocited(driver, neo4j_cfg.database, rows)
    assert 100 < written["lay"] <= len(rows["lay"])  # pairs with an end outside BGB and ZPO are left out
    assert load_decisions(driver, neo4j_cfg.database, tmp_path_factory.mktemp("decisions")).bad == 0
    yield driver
    remove_decisions(driver, neo4j_cfg.database)
    write_cocited(driver, neo4j_cfg.database, {task: [] for task in rows})
    assert cocited_count(driver, neo4j_cfg.database) == 0


def cocited_count(driver, db: str) -> int:
    return driver.execute_query("MATCH ()-[e:CO_CITED]->() RETURN count(e) AS n", database_=db).records[0]["n"]


def test_there_are_fourteen_browser_queries():
    assert len(FILES) == 11 and len(list((cypher_dir() / "browser").glob("*.cypher"))) == 14


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


def browser_rows(graph, neo4j_cfg, name: str, **params) -> list[dict]:
    defaults, text = split_browser_file((cypher_dir() / "browser" / name).read_text("utf-8"))
    return [r.data() for r in graph.execute_query(text, {**defaults, **params}, database_=neo4j_cfg.database).records]


def test_decisions_citing_573_2_by_court(graph, neo4j_cfg):
    """Of tests/decisions.py, BGH VIII ZR 180/18 (2019) and LG Berlin 67 S 12/21 cite § 573 Abs. 2 Nr. 2 BGB;
    VIII ZR 1/20 cites § 573 Abs. 1 Satz 1, outside Absatz 2."""
    rows = browser_rows(graph, neo4j_cfg, "08_decisions_citing_573_2.cypher")
    assert [(r["court"], r["decisions"]) for r in rows] == [("BGH", 1), ("LG Berlin", 1)]
    assert rows[0]["most_recent"] == [{"file_number": "VIII ZR 180/18", "date": "2019-05-22", "type": "Urteil",
                                       "cited": ["§ 573 Abs. 2 Satz 1 Nr. 2 BGB"]}]


def test_units_most_cited_by_bag_since_2015(graph, neo4j_cfg):
    """The BAG decision of 2016 cites § 626 Abs. 1, § 626 Abs. 2 Satz 1 BGB and § 91 Abs. 1 ZPO; the one of
    2012 (§ 623 BGB) is before the date."""
    rows = browser_rows(graph, neo4j_cfg, "09_units_most_cited_by_bag.cypher")
    assert sorted(r["unit"] for r in rows) == ["§ 626 Abs. 1 BGB", "§ 626 Abs. 2 Satz 1 BGB", "§ 91 Abs. 1 ZPO"]
    assert {r["paragraph"] for r in rows} == {"BGB §626", "ZPO §91"}
    since_2010 = browser_rows(graph, neo4j_cfg, "09_units_most_cited_by_bag.cypher", since="2010-01-01")
    assert {r["unit"] for r in since_2010} - {r["unit"] for r in rows} == {"§ 623 BGB"}


def test_two_decisions_shared_citations(graph, neo4j_cfg):
    """VIII ZR 180/18 and 67 S 12/21 share § 573 BGB at the same unit; with VIII ZR 1/20 (§ 573 Abs. 1 Satz 1)
    the § is shared, the unit is not."""
    rows = browser_rows(graph, neo4j_cfg, "10_shared_citations.cypher")
    assert rows == [{"law": "BGB", "paragraph": "§573", "cited_by_a": ["§ 573 Abs. 2 Satz 1 Nr. 2 BGB"],
                     "cited_by_b": ["§ 573 Abs. 2 Satz 1 Nr. 2 BGB"], "same_units": ["§ 573 Abs. 2 Satz 1 Nr. 2 BGB"]}]
    other = browser_rows(graph, neo4j_cfg, "10_shared_citations.cypher", b="oldp:102")
    assert [(r["cited_by_b"], r["same_units"]) for r in other] == [(["§ 573 Abs. 1 Satz 1 BGB"], [])]


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
