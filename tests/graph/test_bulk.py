"""`legalkg ingest` by bulk import (neo4j-admin) into the empty database of a local server (issue 5).

A second live server, started here in its own home, plays the `legalkg neo4j start` server the
import may stop and restart; the session server of conftest.py holds the Cypher-loaded reference.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from legalkg.cli import main
from legalkg.graph.admin import wipe
from legalkg.graph.config import Neo4jConfig
from legalkg.graph.connection import open_driver
from legalkg.graph.cypher import statements
from legalkg.graph.extraction import PackedLaws, law_keys, parsed_unit_ids, unit_counts
from legalkg.graph.ingest import plan_load
from legalkg.graph.inspect import graph_checksum
from legalkg.parse import iter_laws
from legalkg.server import caches, jvm, offline_import
from legalkg.server.homes import record_path, recorded_home
from legalkg.server.offline_import import import_pending
from legalkg.server.process import read_pid, running_command

from ..conftest import started_server
from ..processes import children, orphans_after

SMALL = "BUrlG,KSchG,TzBfG,AGG"


@pytest.fixture(scope="module")
def local_server(tmp_path_factory):
    """A server started as `legalkg neo4j start` starts one: its home recorded for its port."""
    servers = started_server(tmp_path_factory.mktemp("bulk-home"), record=True)
    settings, cfg = next(servers)
    yield settings, cfg
    record_path(settings.bolt_port).unlink(missing_ok=True)
    next(servers, None)


@pytest.fixture
def local_env(local_server, monkeypatch):
    settings, cfg = local_server
    monkeypatch.setenv("LEGALKG_NEO4J_HOME", str(settings.home))
    monkeypatch.setenv("NEO4J_URI", cfg.uri)
    monkeypatch.setenv("NEO4J_USER", cfg.user)
    monkeypatch.setenv("NEO4J_PASSWORD", cfg.password)
    return local_server


def _ingest(*args: str):
    return CliRunner().invoke(main, ["ingest", "--no-embed", "--quiet", *args])


def _dump(cfg: Neo4jConfig) -> tuple[dict, dict, set]:
    """Every node (labels, all properties), every relationship (all properties), every index."""
    drv = open_driver(cfg)
    try:
        nodes = {r["id"]: (sorted(r["labels"]), r["props"]) for r in drv.execute_query(
            "MATCH (n) RETURN n.id AS id, labels(n) AS labels, properties(n) AS props").records}
        rels = {(r["s"], r["t"], r["e"]): r["props"] for r in drv.execute_query(
            "MATCH (a)-[r]->(b) RETURN a.id AS s, type(r) AS t, b.id AS e, properties(r) AS props").records}
        indexes = {(r["name"], r["state"], r["type"]) for r in drv.execute_query(
            "SHOW INDEXES YIELD name, state, type RETURN name, state, type").records}
    finally:
        drv.close()
    return nodes, rels, indexes


@pytest.fixture(scope="module")
def cypher_reference(driver, neo4j_cfg):
    """The SMALL laws loaded by Cypher into the session server: what the import must reproduce."""
    wipe(driver, neo4j_cfg.database)
    env = {"NEO4J_URI": neo4j_cfg.uri, "NEO4J_USER": neo4j_cfg.user, "NEO4J_PASSWORD": neo4j_cfg.password or ""}
    res = CliRunner().invoke(main, ["ingest", "--no-embed", "--quiet", "--codes", SMALL, "--method", "cypher"],
                             env=env)
    assert res.exit_code == 0, res.output
    dump = _dump(neo4j_cfg)
    wipe(driver, neo4j_cfg.database)
    return dump


def test_bulk_import_equals_the_cypher_load(local_env, cypher_reference):
    settings, cfg = local_env
    command = running_command(settings)
    res = _ingest("--codes", SMALL, "--workers", "2")
    assert res.exit_code == 0, res.output
    assert "4 loaded" in res.output
    assert not import_pending(settings.home)
    assert running_command(settings) == command  # restarted with the same JVM command line
    assert not list((settings.home / "import").glob("legalkg-import-*")), "CSV folder left behind"
    nodes, rels, indexes = _dump(cfg)
    ref_nodes, ref_rels, ref_indexes = cypher_reference
    assert len(nodes) > 1000 and len(rels) > len(nodes)
    assert nodes.keys() == ref_nodes.keys()
    assert [k for k in nodes if nodes[k] != ref_nodes[k]] == []
    assert rels.keys() == ref_rels.keys()
    assert [k for k in rels if rels[k] != ref_rels[k]] == []
    assert any(t.startswith("CITES_") for _, t, _ in rels)
    # written after the import as after the Cypher load: 4 case pairs and 1 lay pair (tests/graph/test_ingest.py)
    assert sum(t == "CO_CITED" for _, t, _ in rels) == 5
    # the schema's constraints and indexes, all online (the session server may hold more indexes
    # that other test modules created, e.g. vector indexes)
    schema = {stmt.split()[3] if stmt.split()[1] == "FULLTEXT" else stmt.split()[2]
              for stmt in statements("schema")}
    assert {name for name, _, kind in indexes if kind != "LOOKUP"} == schema and len(schema) > 20
    assert all(state == "ONLINE" for _, state, _ in indexes)
    assert schema <= {name for name, _, _ in ref_indexes}
    lookups = {(name, kind) for name, _, kind in indexes if kind == "LOOKUP"}
    assert lookups == {(name, kind) for name, _, kind in ref_indexes if kind == "LOOKUP"} and len(lookups) == 2


def test_second_ingest_after_the_import_changes_nothing(local_env):
    settings, cfg = local_env
    drv = open_driver(cfg)
    try:
        before = graph_checksum(drv, cfg.database)
        res = _ingest("--codes", SMALL)
        assert res.exit_code == 0, res.output
        assert "0 loaded, 4 unchanged" in res.output and "0 citation edges written" in res.output
        assert "bulk import" not in res.output  # a non-empty database goes the Cypher way
        assert graph_checksum(drv, cfg.database) == before
    finally:
        drv.close()


def test_method_import_refuses_a_database_that_is_not_empty(local_env):
    res = _ingest("--codes", "KSchG", "--method", "import")
    assert res.exit_code != 0
    assert "is not empty" in res.output and "--method cypher" in res.output
    assert "Traceback" not in res.output


def test_ingest_finds_the_home_of_a_server_started_elsewhere_by_its_port(local_server, monkeypatch):
    # `legalkg neo4j start --home X --bolt-port P` and then `legalkg ingest --uri bolt://127.0.0.1:P`
    # with LEGALKG_NEO4J_HOME unset: the bulk import's home comes from the record of the start
    settings, cfg = local_server
    monkeypatch.delenv("LEGALKG_NEO4J_HOME", raising=False)
    assert recorded_home(settings.bolt_port) == settings.home.resolve()
    plan = plan_load(cfg.uri, "auto")
    assert plan.home == settings.home.resolve() and plan.method == "auto"
    assert plan_load(cfg.uri, "import").home == settings.home.resolve()


def test_method_import_needs_the_local_server(neo4j_env):
    """The session server is not the one `legalkg neo4j start` runs from the default home."""
    res = _ingest("--codes", "KSchG", "--method", "import")
    assert res.exit_code != 0
    assert "--method import needs the local server" in res.output


@pytest.mark.slow  # a killed import and its rerun (docs/benchmarks/tests.md)
def test_sigkill_during_the_bulk_import_then_rerun_converges(local_env):
    settings, cfg = local_env
    command = running_command(settings)
    drv = open_driver(cfg)
    wipe(drv, cfg.database)  # its own reference: under -m slow the tests that loaded SMALL before are not run
    first = _ingest("--codes", SMALL)
    assert first.exit_code == 0, first.output
    reference = graph_checksum(drv, cfg.database)
    wipe(drv, cfg.database)
    drv.close()
    proc = subprocess.Popen([sys.executable, "-m", "legalkg.cli", "ingest", "--no-embed", "--quiet",
                             "--codes", SMALL, "--workers", "2"], env=os.environ.copy(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and proc.poll() is None:
        if import_pending(settings.home) and read_pid(settings) is None:
            break  # the server is down: the import is being prepared or running
        time.sleep(0.05)
    assert proc.poll() is None, "ingest finished before it could be killed"
    spawned = children(proc.pid)  # CSV workers or the importer's JVM, by the moment
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert orphans_after(spawned) == []
    assert import_pending(settings.home)
    status = CliRunner().invoke(main, ["neo4j", "status", "--home", str(settings.home),
                                       "--bolt-port", str(settings.bolt_port)])
    assert "interrupted" in status.output
    rerun = _ingest("--codes", SMALL)
    assert rerun.exit_code == 0, rerun.output
    assert not import_pending(settings.home)
    assert running_command(settings) == command  # the marker kept the command line
    drv = open_driver(cfg)
    try:
        assert graph_checksum(drv, cfg.database) == reference
    finally:
        drv.close()


@pytest.mark.slow  # records a JVM cache: minutes (docs/benchmarks/tests.md)
def test_the_first_import_records_the_admin_cache_and_the_next_maps_it(local_env, tmp_path, monkeypatch):
    """On a JDK with an AOT cache (CI: JDK 25) the first import is the admin tool's training run:
    the cache is kept only once a JVM has started on it, and the next import maps it. On other
    JDKs no cache and no AOT option appear."""
    settings, cfg = local_env
    java = jvm.find()
    archive = tmp_path / "cache" / f"admin{java.suffix}"
    monkeypatch.setattr(caches, "admin_archive", lambda lib: archive)
    commands: list[list[str]] = []
    original = offline_import.import_command
    monkeypatch.setattr(offline_import, "import_command", lambda *a, **k: commands.append(original(*a, **k)) or commands[-1])
    drv = open_driver(cfg)
    try:
        for _ in range(2):
            wipe(drv, cfg.database)
            res = _ingest("--codes", "BUrlG")
            assert res.exit_code == 0, res.output
            assert "1 loaded" in res.output
    finally:
        drv.close()
    assert len(commands) == 2
    if java.aot:
        assert any(arg.startswith("-XX:AOTCacheOutput=") for arg in commands[0])
        assert archive.is_file() and archive.stat().st_size > 1_000_000
        assert f"-XX:AOTCache={archive}" in commands[1]
        assert not any(arg.startswith("-XX:AOTCacheOutput=") for arg in commands[1])
        assert [p.name for p in archive.parent.iterdir()] == [archive.name]  # training folder removed
    else:
        assert not archive.exists()
        assert not any(arg.startswith("-XX:AOT") for cmd in commands for arg in cmd)


def test_packed_laws_give_back_each_law_and_its_ids(shared_gii):
    """The bulk import holds its parsed laws packed (pure, no server): each comes back whole by
    index, and the unit ids and keys match what the unpacked laws give."""
    laws = [law for _, law in iter_laws(None, ["kschg", "burlg", "tzbfg"])]
    packed = PackedLaws(laws)
    assert len(packed) == 3 and law_keys(packed) == law_keys(laws) == ["KSchG", "BUrlG", "TzBfG"]
    assert unit_counts(packed) == [len(law.units) for law in laws]
    assert parsed_unit_ids(packed) == parsed_unit_ids(laws)
    for i, law in enumerate(laws):
        back = packed[i]
        assert [(u.id, u.level, u.parent_id, u.text, u.title, u.repealed, u.footnotes) for u in back.units] == \
               [(u.id, u.level, u.parent_id, u.text, u.title, u.repealed, u.footnotes) for u in law.units]
    assert sum(map(len, packed.blobs)) < sum(len(u.text or "") for law in laws for u in law.units) * 3
