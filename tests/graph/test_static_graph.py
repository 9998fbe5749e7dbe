"""`legalkg ingest --model static` on a small law, then `legalkg search` through its own 256-d
vector indexes (live Neo4j)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from legalkg.cli import main
from legalkg.embed.static import DEFAULT_FILE
from legalkg.graph.vectors import recorded_model

pytestmark = [pytest.mark.neo4j,
              pytest.mark.skipif(not DEFAULT_FILE.is_file(), reason="the shipped static encoder is not built")]


@pytest.fixture(scope="module")
def burlg(load_graph, driver):
    load_graph("BUrlG", model=None)
    return driver


def test_ingest_and_search_with_the_static_encoder(burlg, neo4j_cfg, neo4j_env):
    db = neo4j_cfg.database
    cli = CliRunner().invoke(main, ["ingest", "--codes", "BUrlG", "--quiet", "--model", "static", "--reembed"])
    assert cli.exit_code == 0, cli.output
    rec = recorded_model(burlg, db, "Paragraph")
    assert rec["name"] == "static" and rec["dim"] == 256
    dims = {r["name"]: r["options"]["indexConfig"]["vector.dimensions"] for r in burlg.execute_query(
        "SHOW VECTOR INDEXES YIELD name, options RETURN name, options", database_=db).records}
    assert dims["vector_Paragraph"] == dims["vector_Satz"] == 256
    # § 3 BUrlG: "Der Urlaub beträgt jährlich mindestens 24 Werktage."
    out = CliRunner().invoke(main, ["search", "Wie viele Werktage Urlaub stehen mir jährlich mindestens zu?",
                                    "--mode", "vector", "--level", "§", "-k", "3", "--json"])
    assert out.exit_code == 0, out.output
    ids = [h["id"] for h in json.loads(out.output)["seeds"]]
    assert "BUrlG/§3" in ids
    # the recorded model is checked: another model's vectors are refused without --reembed
    again = CliRunner().invoke(main, ["ingest", "--codes", "BUrlG", "--quiet", "--model", "usem3"])
    assert again.exit_code == 1 and "static" in again.output and "--reembed" in again.output
