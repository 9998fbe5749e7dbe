"""Recording the server JVM's start-up cache with a throwaway training server.

Why a training server: a JVM writes its cache (AOT cache or class-data archive) at exit, holding
what it loaded and, on JDK 25, the method profiles of what it ran. A server that has answered the
queries a load and a search use records the classes and profiles those need; the user's server
then maps the cache on every start (``conf.write_conf``).
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

from neo4j import GraphDatabase

from . import jvm, process
from .caches import class_archive
from .conf import ServerSettings, write_conf

#: What the training server runs before it stops: the classes of a load, the schema step and a search.
#: (A longer training on a stored graph and then its schema was tried and not kept: the schema step
#: gained too little and unevenly; docs/benchmarks/ingest.md, benchmarks/bulk_parts.py.)
TRAINING = [
    "CREATE CONSTRAINT t_id IF NOT EXISTS FOR (n:T) REQUIRE n.id IS UNIQUE",
    "CREATE FULLTEXT INDEX t_text IF NOT EXISTS FOR (n:T) ON EACH [n.text] "
    "OPTIONS {indexConfig: {`fulltext.analyzer`: 'german', `fulltext.eventually_consistent`: true}}",
    "UNWIND range(1, 200) AS i MERGE (n:T {id: 'T/' + i}) SET n.text = 'Der Käufer zahlt ' + i "
    "WITH n MATCH (r:T {id: 'T/1'}) MERGE (r)-[:CONTAINS_T]->(n)",
    "CALL db.awaitIndexes(60)",
    "CALL db.index.fulltext.awaitEventuallyConsistentIndexRefresh()",
    "CALL db.index.fulltext.queryNodes('t_text', 'Käufer') YIELD node, score RETURN node.id, score LIMIT 5",
    "MATCH (n:T)-[:CONTAINS_T]->(m) RETURN count(m)",
]


def record_class_archive(lib: Path, timeout: float = 240.0, training: Sequence[str] | None = None,
                         target: Path | None = None, params: dict | None = None) -> bool:
    """Record :func:`legalkg.server.caches.class_archive` with a throwaway server (once per jar set and JVM).

    The training server answers :data:`TRAINING`, is stopped, and the JVM writes the archive at
    exit. It is validated by a JVM start and then renamed into place: a truncated archive would
    crash every JVM that maps it. Returns False (and leaves nothing behind) when anything fails:
    the archive only saves time. ``training`` (with its query ``params``) and ``target`` replace
    :data:`TRAINING` and the cache's path, for benchmarks/bulk_parts.py.
    """
    target = class_archive(lib) if target is None else target
    training = TRAINING if training is None else training
    try:  # a cache folder that cannot be written must not stop the start either
        target.parent.mkdir(parents=True, exist_ok=True)
        jvm.sweep_training(target.parent)
        work = Path(tempfile.mkdtemp(prefix="train-", dir=target.parent))
    except OSError:
        return False
    java = jvm.find()
    partial = work / f"classes{java.suffix}"
    train = ServerSettings(home=work / "home", bolt_port=process.free_port(), http_port=process.free_port(),
                           auth=False, heap="512m", pagecache="64m", class_archive=False,
                           extra={"server.jvm.additional": " ".join([*java.flags, *java.record_cache(partial)])})
    try:
        write_conf(train, lib)
        process.launch(train, lib, timeout)
        with GraphDatabase.driver(train.bolt_uri, auth=None) as drv:
            for stmt in training:
                drv.execute_query(stmt, params)
        process.stop(train, timeout=timeout)
        # the check fails unless the archive maps with the server's class path (conf/* holds no jars)
        return java.keep(partial, target, f"{train.conf_dir}/*:{lib}/*")
    except Exception:  # noqa: BLE001 - an optimisation must never stop a start
        if process.read_pid(train):
            process.stop(train, timeout=30)
        return False
    finally:
        shutil.rmtree(work, ignore_errors=True)
