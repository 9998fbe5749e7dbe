"""Integration: the graph prior computed in Neo4j equals the in-memory one on the same law."""

from click.testing import CliRunner

from legalkg.cli import main
from legalkg.graph.admin import wipe
from legalkg.rank.graph import in_degree, paragraph_pairs
from legalkg.rank.neo4j_prior import paragraph_in_degree


def test_neo4j_in_degree_equals_in_memory(driver, neo4j_cfg, neo4j_env, bgb, bgb_edges):
    wipe(driver, neo4j_cfg.database)
    result = CliRunner().invoke(main, ["ingest", "--no-embed", "--quiet", "--codes", "BGB"])
    assert result.exit_code == 0, result.output
    from_graph = paragraph_in_degree(driver, "BGB", neo4j_cfg.database)
    # the graph holds no repealed §§ (ingest prunes them) and neither does the ranking corpus
    live = {u.id for u in bgb.units if u.level.value == "Paragraph" and not u.repealed}
    in_memory = {k: v for k, v in in_degree(paragraph_pairs(bgb_edges)).items() if k in live}
    assert from_graph["BGB/§280"] >= 5
    assert from_graph == in_memory
