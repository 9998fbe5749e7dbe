"""A server home's settings: what ``legalkg neo4j start`` writes into ``<home>/conf/neo4j.conf``,
and reading them back.

Why read it back: after ``start`` the conf is the one record of how a home's server runs (its
ports, auth, jar folder, heap). The bulk import stops and restarts that server and runs its admin
tool, possibly in a later process than the one that started it, so it takes them from the conf.
"""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import BaseModel

from ..paths import cache_dir
from . import jvm
from .caches import class_archive


class ServerSettings(BaseModel):
    home: Path
    bolt_port: int = 7687
    http_port: int = 7474
    auth: bool = True
    password: str | None = None
    heap: str = "1g"
    pagecache: str = "512m"
    #: further neo4j.conf lines (benchmarks and experiments); a None value drops a default line
    extra: dict[str, str | None] = {}
    #: start the JVM from a start-up cache recorded once per jar set and JVM (:func:`class_archive`)
    class_archive: bool = True

    @property
    def conf_dir(self) -> Path:
        return self.home / "conf"

    @property
    def logs_dir(self) -> Path:
        return self.home / "logs"

    @property
    def pid_file(self) -> Path:
        return self.home / "run" / "neo4j.pid"

    @property
    def bolt_uri(self) -> str:
        return f"bolt://127.0.0.1:{self.bolt_port}"

    @property
    def browser_url(self) -> str:
        return f"http://127.0.0.1:{self.http_port}/browser/"


def default_home() -> Path:
    env = os.environ.get("LEGALKG_NEO4J_HOME")
    return Path(env) if env else cache_dir() / "neo4j"


def environment(s: ServerSettings) -> dict[str, str]:
    """The environment of every Neo4j JVM of a home: Neo4j's tools find their home and conf by it."""
    env = dict(os.environ)
    env["NEO4J_HOME"] = str(s.home)
    env["NEO4J_CONF"] = str(s.conf_dir)
    return env


def _jvm_options(s: ServerSettings, lib: Path) -> list[str]:
    """The server JVM's extra options: the chosen Java's own and its start-up cache when recorded."""
    java = jvm.find()
    archive = class_archive(lib)
    return [*java.flags, *(java.use_cache(archive) if s.class_archive and archive.exists() else [])]


def write_conf(s: ServerSettings, lib: Path) -> Path:
    for sub in ("conf", "data", "logs", "run", "plugins", "import"):
        (s.home / sub).mkdir(parents=True, exist_ok=True)
    conf = {
        "server.directories.data": s.home / "data",
        "server.directories.logs": s.logs_dir,
        "server.directories.run": s.home / "run",
        "server.directories.plugins": s.home / "plugins",
        "server.directories.import": s.home / "import",
        "server.directories.lib": lib,
        "dbms.security.auth_enabled": str(s.auth).lower(),
        "server.default_listen_address": "127.0.0.1",
        "server.bolt.listen_address": f"127.0.0.1:{s.bolt_port}",
        "server.bolt.advertised_address": f"127.0.0.1:{s.bolt_port}",
        "server.http.listen_address": f"127.0.0.1:{s.http_port}",
        "server.http.advertised_address": f"127.0.0.1:{s.http_port}",
        "server.https.enabled": "false",
        "server.memory.heap.initial_size": s.heap,
        "server.memory.heap.max_size": s.heap,
        "server.memory.pagecache.size": s.pagecache,
        "dbms.usage_report.enabled": "false",
        "db.tx_log.rotation.retention_policy": "2 files",
        # Build a vector index from one large buffer instead of many 1-MB flushes, and merge them:
        # one Lucene segment instead of eight for 40k vectors, and a faster kNN search
        # (docs/benchmarks/retrieval.md, "Index layout"). Internal settings of Neo4j 5.26.
        "internal.dbms.index.vector.population_ram_buffer_size": "256",
        "internal.dbms.index.vector.population_merge_factor": "2",
        # Netty waits a 5 s quiet period per event-loop group when Bolt shuts down, which made
        # every stop take seconds (docs/benchmarks/ingest.md). Connections are closed before it,
        # so nothing is waited for. Internal setting of 5.26.
        "internal.dbms.bolt.netty_server_shutdown_quiet_period": "0",
        **({"server.jvm.additional": " ".join(jvm_options)} if (jvm_options := _jvm_options(s, lib)) else {}),
        **s.extra,
    }
    conf = {k: v for k, v in conf.items() if v is not None}
    path = s.conf_dir / "neo4j.conf"
    path.write_text("# written by `legalkg neo4j start`; edits are overwritten on the next start\n"
                    + "".join(f"{k}={v}\n" for k, v in conf.items()), "utf-8")
    return path


def read_conf(home: Path) -> dict[str, str]:
    """The settings of the neo4j.conf that ``legalkg neo4j start`` wrote into ``home`` (OSError without one)."""
    lines = (home / "conf" / "neo4j.conf").read_text("utf-8").splitlines()
    return dict(ln.split("=", 1) for ln in lines if "=" in ln and not ln.startswith("#"))


def settings_of(home: Path) -> ServerSettings:
    """The settings a home's server runs with, as its neo4j.conf records them."""
    conf = read_conf(home)
    return ServerSettings(home=home, bolt_port=int(conf["server.bolt.listen_address"].rsplit(":", 1)[1]),
                          http_port=int(conf["server.http.listen_address"].rsplit(":", 1)[1]),
                          auth=conf.get("dbms.security.auth_enabled") == "true",
                          heap=conf.get("server.memory.heap.max_size", "1g"),
                          pagecache=conf.get("server.memory.pagecache.size", "512m"))


def configured_lib(home: Path) -> Path:
    """The jar folder the home's neo4j.conf names (OSError or KeyError without one)."""
    return Path(read_conf(home)["server.directories.lib"])
