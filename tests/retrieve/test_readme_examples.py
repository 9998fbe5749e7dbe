"""The docs' table of README's example questions is what the engine answers (live Neo4j, the 58 default
codes without vectors: at § level the lay engine reads no vector index).

The table (docs/retrieval.md, eval/ranker/graph-candidates/examples/README.md) is rendered from
``examples/results.json`` (``benchmarks/readme_examples.py``); here the engine is asked again on a graph
of the same laws, and its answers must equal the file's. The test chooses nothing: the questions and
their gold are ``research/examples.py``, the answers the engine's.
"""

from __future__ import annotations

import json

import pytest

from legalkg.retrieve import Retriever
from research.examples import answer
from research.quotes import read_json

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]  # an ingest of the 58 codes (docs/benchmarks/tests.md)

RESULTS = "eval/ranker/graph-candidates/examples/results.json"


@pytest.fixture(scope="module")
def retriever(load_graph, driver, neo4j_cfg):
    load_graph("default", model=None)
    return Retriever(driver, neo4j_cfg.database)


def test_the_engine_answers_the_examples_as_the_docs_show(retriever, driver, neo4j_cfg):
    stored = read_json(RESULTS)
    laws = sorted(r["id"] for r in driver.execute_query("MATCH (g:Gesetz) RETURN g.id AS id",
                                                         database_=neo4j_cfg.database).records)
    assert laws == stored["laws"]
    got = answer(retriever)
    assert json.loads(json.dumps(got, ensure_ascii=False)) == stored["rows"]
