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
from collections import Counter
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
    built = {"n": 0}

    def ensure(codes: str, model: str | None = "usem3") -> None:
        slugs = codes_mod.resolve_codes(codes)
        wanted = {codes_mod.find_code(c).cited if codes_mod.find_code(c) else c for c in codes.split(",")}
        have = {r["id"] for r in driver.execute_query("MATCH (g:Gesetz) RETURN g.id AS id",
                                                      database_=db).records}
        if have != wanted:
            wipe(driver, db)
            report = ingest_laws(driver, db, iter_laws(None, slugs), settings=LoadSettings(progress=False))
            assert report.ok, report.failures
            built["n"] += 1
        if model:
            try:  # only units without a current vector of this model: the graph often holds them already
                embed_graph(driver, db, EmbedSettings(model=model), progress=False)
            except UserError:  # an index of another model: replace its vectors
                embed_graph(driver, db, EmbedSettings(model=model, reembed=True), progress=False)

    #: how many times the graph was wiped and ingested: a process that serves the graph is current
    #: while this count stays as it was when the process started (tests/web/conftest.py)
    ensure.builds = lambda: built["n"]
    return ensure


#: the laws a module asks ``load_graph`` for, read from its source: ``load_graph("BGB,ZPO", ...)``, or
#: ``load_graph(LAW, ...)`` with ``LAW = "KSchG"`` at the module's top level
GRAPH_CALL = re.compile(r"""load_graph\(\s*(?:["']([^"']+)["']|([A-Z_][A-Z0-9_]*)\b)""")


def graph_key(path: Path) -> str:
    """The laws (sorted) that a test module loads into the session server; "" for a module that loads none."""
    source = path.read_text("utf-8") if path.suffix == ".py" else ""
    return laws_of(GRAPH_CALL.search(source), source)


def laws_of(match: re.Match | None, source: str) -> str:
    if match and match.group(2):  # a module constant: its literal value
        match = re.search(rf"""^{match.group(2)}\s*=\s*["']([^"']+)["']""", source, re.MULTILINE)
    return ",".join(sorted(c.strip().upper() for c in match.group(1).split(","))) if match else ""


def fixture_keys(conftest: Path) -> dict[str, str]:
    """The fixtures of a conftest.py that load laws (``live`` of tests/web: its ``LAWS``), by name."""
    source = conftest.read_text("utf-8")
    keys = {}
    for block in re.split(r"^(?=def |@)", source, flags=re.MULTILINE):
        name = re.match(r"def (\w+)\(", block)
        if name and (key := laws_of(GRAPH_CALL.search(block), source)):
            keys[name.group(1)] = key
    return keys


def module_key(item, own: str, by_conftest: dict[Path, dict[str, str]]) -> str:
    """A module's own ``load_graph`` laws, else those of a folder fixture that its tests use."""
    return own or folder_key(item.path, by_conftest, lambda name: name in item.fixturenames)


def folder_key(path: Path, by_conftest: dict[Path, dict[str, str]], uses) -> str:
    """The laws of the first fixture of a conftest.py between ``path`` and tests/ that ``uses(name)``
    says the module uses ("" for none)."""
    for folder in path.parents:
        if folder == Path(__file__).parent:
            break
        conftest = folder / "conftest.py"
        if conftest.is_file():
            keys = by_conftest.setdefault(conftest, fixture_keys(conftest))
            for name, key in keys.items():
                if uses(name):
                    return key
    return ""


def pytest_collection_modifyitems(config, items):
    """Modules that load the same laws into the session server run one after another, the graph
    with the most tests first and the modules that load none last: each change of laws is a wipe,
    an ingest and an embedding run (BGB and ZPO with usem3 is minutes), and in folder order the same
    graph was rebuilt several times (docs/benchmarks/tests.md). A module's laws are those of its own
    ``load_graph`` call, or of a folder fixture that loads them (tests/web's ``live``). Within a
    group, and among the modules that load none, the order is pytest's.

    Largest first, small modules last: under pytest-xdist the workers take the groups in this
    order (``pytest_xdist_make_scheduler``), and the small ones fill the gaps at the end."""
    own: dict[Path, str] = {}
    keys: dict[Path, str] = {}
    by_conftest: dict[Path, dict[str, str]] = {}
    for item in items:
        key = own.setdefault(item.path, graph_key(item.path))
        keys[item.path] = keys.get(item.path) or module_key(item, key, by_conftest)
    first: dict[str, int] = {}
    for index, item in enumerate(items):
        first.setdefault(keys[item.path], index)
    order = {id(item): index for index, item in enumerate(items)}
    size = Counter(keys[item.path] for item in items)
    items.sort(key=lambda item: (keys[item.path] == "", -size[keys[item.path]] if keys[item.path] else 0,
                                 first[keys[item.path]], order[id(item)]))



def pytest_xdist_make_scheduler(config, log):
    """``pytest -n 2 --dist loadgroup``: the modules of one graph run in one worker (each worker has a
    server of its own, so a graph split over two would be built twice), and every module stays whole
    in one worker, in order (its module fixtures start once; some tests build on the one before).

    Why not xdist's own ``xdist_group`` marks: with pytest 9 the group it writes into a test's id
    never reaches the scheduler, so every test was its own group."""
    if config.getoption("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    root, by_conftest, groups = Path(config.rootpath), {}, {}

    class GraphScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::")[0]
            if module not in groups:
                groups[module] = file_key(root / module, by_conftest) or module
            return groups[module]

    return GraphScheduling(config, log)


def file_key(path: Path, by_conftest: dict[Path, dict[str, str]]) -> str:
    """``module_key`` read from the files alone (the controller of an xdist run collects no tests):
    a folder fixture counts when the module's source names it."""
    own = graph_key(path)
    if own or not path.is_file():
        return own
    source = path.read_text("utf-8")
    return folder_key(path, by_conftest, lambda name: re.search(rf"\b{name}\b", source) is not None)
