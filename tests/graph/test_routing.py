"""Every command through a routing URI (``neo4j://``) against the local single server: the driver
asks the server for its routing table and sends reads and writes where it says (issue 27).

A cluster or Aura is reached the same way (``neo4j+s://``); docs/scale.md says what differs there.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from legalkg.cli import main
from legalkg.graph.admin import wipe
from legalkg.graph.config import Neo4jConfig
from legalkg.graph.connection import open_driver

LAW = "BUrlG"  # the smallest law of the test data that has every level down to Satz


@pytest.fixture(scope="module")
def routing_cfg(neo4j_cfg, driver) -> Neo4jConfig:
    wipe(driver, neo4j_cfg.database)  # a graph of this one law
    yield neo4j_cfg.model_copy(update={"uri": neo4j_cfg.uri.replace("bolt://", "neo4j://", 1)})
    wipe(driver, neo4j_cfg.database)  # later modules load what they need


@pytest.fixture
def routing_env(routing_cfg, monkeypatch, tmp_path):
    monkeypatch.setenv("NEO4J_URI", routing_cfg.uri)
    monkeypatch.setenv("NEO4J_USER", routing_cfg.user)
    monkeypatch.setenv("NEO4J_PASSWORD", routing_cfg.password or "")
    monkeypatch.setenv("LEGALKG_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("LEGALKG_MODEL", raising=False)
    return routing_cfg


def run(*args: str) -> str:
    out = CliRunner().invoke(main, list(args))
    assert out.exit_code == 0, out.output
    return out.output


def test_the_driver_routes_through_the_single_server(routing_cfg):
    assert routing_cfg.uri.startswith("neo4j://127.0.0.1:")
    with open_driver(routing_cfg) as drv:
        table = drv.execute_query("CALL dbms.routing.getRoutingTable({}, $db) YIELD servers RETURN servers",
                                  {"db": routing_cfg.database}).records[0]["servers"]
    roles = {s["role"] for s in table}
    assert {"WRITE", "READ", "ROUTE"} <= roles


def test_ingest_embed_search_stats_doctor_through_neo4j_scheme(routing_env):
    ingested = run("ingest", "--codes", LAW, "--quiet", "--workers", "1")
    assert "laws: 1 loaded" in ingested and "vectors written" in ingested
    again = run("embed", "--quiet", "--workers", "1")
    assert "0 vectors written" in again

    hits = json.loads(run("search", "Wie viele Tage Urlaub stehen mir zu?", "--mode", "vector", "--json"))
    assert hits["seeds"] and all(h["id"].startswith(f"{LAW}/") for h in hits["seeds"])
    learned = run("search", "Urlaubsanspruch Mindesturlaub", "--law", LAW)
    assert "§" in learned

    stats = run("stats")
    assert "Paragraph" in stats and "Gesetz" in stats
    doctor = run("doctor")
    assert routing_env.uri in doctor and "reachable" in doctor and "vector_Satz: VECTOR ONLINE" in doctor
