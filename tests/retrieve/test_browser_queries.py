"""Every pasteable Browser query in cypher/browser/ runs on a live graph and returns rows."""

from __future__ import annotations

import ast
import re

import pytest

from legalkg.paths import cypher_dir

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
    load_graph("BGB,ZPO", model="usem3")
    return driver


def test_there_are_six_browser_queries():
    assert len(FILES) == 6


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_browser_query_returns_rows(graph, neo4j_cfg, path):
    params, text = split_browser_file(path.read_text("utf-8"))
    assert params, f"{path.name} sets no :param"
    records = graph.execute_query(text, params, database_=neo4j_cfg.database).records
    assert records, f"{path.name} returned nothing"
