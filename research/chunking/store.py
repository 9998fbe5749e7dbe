"""The study's units in Neo4j: write, index, query (I/O).

Decision: each unit is a ``:StudyUnit:Study_<strategy>`` node with ``strategy``, ``sections``
(list of covered § ids such as ``BGB/§551``), ``level`` (RAPTOR depth), ``text`` and ``embedding``.
The kNN query reads the covered §§ from that list property on the hit itself, without a further
hop, and so works on a study server that holds only study units. Where the server also holds the
§ nodes, ``COVERS_SECTION`` edges link each unit to them for browsing (``chunking/covers``). Labels cannot be query parameters, so they are filled only from
the closed strategy list (:data:`strategies.STRATEGIES`).
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence

import numpy as np
from neo4j import Driver, Session

from legalkg.graph.cypher import query, statements

from .strategies import STRATEGIES, Built, Spec

WRITE_BATCH = 1000
MAX_TERMS = 200


def _fill(name: str, spec: Spec) -> str:
    if spec.name not in STRATEGIES or STRATEGIES[spec.name] != spec:
        raise ValueError(f"not a known strategy: {spec.name!r}")
    base = spec.base if spec.family in ("lexical", "fusion") else spec.name
    return query(f"chunking/{name}").replace("__LABEL__", spec.label).replace("__NAME__", base)


def vector_index(spec: Spec) -> str:
    return f"study_{spec.base if spec.family == 'fusion' else spec.name}"


def fulltext_index(spec: Spec) -> str:
    return f"study_ft_{spec.base}"


def ensure_schema(driver: Driver, db: str) -> None:
    for stmt in statements("chunking/schema"):
        driver.execute_query(stmt, database_=db)


def count(driver: Driver, db: str, spec: Spec) -> int:
    return driver.execute_query(query("chunking/count"), {"strategy": spec.name}, database_=db).records[0]["n"]


def clear(driver: Driver, db: str, spec: Spec) -> None:
    driver.execute_query(_fill("drop_vector", spec), database_=db)
    driver.execute_query(_fill("drop_fulltext", spec), database_=db)
    with driver.session(database=db) as session:
        session.run(query("chunking/clear"), {"strategy": spec.name}).consume()


def write(driver: Driver, db: str, spec: Spec, built: Built, *, fulltext: bool = False,
          await_seconds: int = 900) -> float:
    """Replace the strategy's nodes, create its vector (and full-text) index, wait until online.

    Returns the seconds it took (part of the build time)."""
    started = time.perf_counter()
    clear(driver, db, spec)
    cypher = _fill("write", spec)
    vecs = built.vectors
    for start in range(0, len(built.units), WRITE_BATCH):
        rows = []
        for i in range(start, min(start + WRITE_BATCH, len(built.units))):
            u = built.units[i]
            rows.append({"id": u.id, "sections": list(u.sections), "level": u.level, "text": u.text,
                         "vec": None if vecs is None else vecs[i].astype(np.float32).tolist()})
        driver.execute_query(cypher, {"rows": rows, "strategy": spec.name}, database_=db)
    driver.execute_query(query("chunking/covers"), {"strategy": spec.name}, database_=db)
    if vecs is not None:
        driver.execute_query(_fill("create_vector", spec), {"dim": int(vecs.shape[1])}, database_=db)
    if fulltext:
        driver.execute_query(_fill("create_fulltext", spec), database_=db)
    driver.execute_query(query("chunking/await"), {"seconds": await_seconds}, database_=db)
    return time.perf_counter() - started


def add_fulltext(driver: Driver, db: str, spec: Spec, await_seconds: int = 900) -> float:
    """Full-text index over an already written flat strategy (for its lexical / fusion variants)."""
    started = time.perf_counter()
    driver.execute_query(_fill("create_fulltext", spec), database_=db)
    driver.execute_query(query("chunking/await"), {"seconds": await_seconds}, database_=db)
    return time.perf_counter() - started


def lucene_query(text: str, max_terms: int = MAX_TERMS) -> str:
    """Words of the question as an OR query: letters/digits only, lower case (so AND/OR/NOT are
    plain words and nothing needs escaping), distinct, at most ``max_terms``."""
    words = dict.fromkeys(w.lower() for w in re.findall(r"\w+", text or "") if len(w) > 1)
    return " ".join(list(words)[:max_terms])


def _records(runner: Driver | Session, db: str, cypher: str, params: dict) -> list:
    """Rows from a driver (one managed transaction) or an open session (auto-commit, cheaper per
    query: the study keeps one session open so latency measures the query, not session set-up)."""
    if isinstance(runner, Session):
        return list(runner.run(cypher, params))
    return runner.execute_query(cypher, params, database_=db).records


def knn(runner: Driver | Session, db: str, index: str, vector: Sequence[float], k: int = 100
        ) -> list[tuple[list[str], float]]:
    recs = _records(runner, db, query("chunking/knn"), {"index": index, "k": k, "vector": vector})
    return [(r["sections"], r["score"]) for r in recs]


def lexical(runner: Driver | Session, db: str, index: str, q: str, k: int = 100
            ) -> list[tuple[list[str], float]]:
    if not q:
        return []
    recs = _records(runner, db, query("chunking/fulltext"), {"index": index, "q": q, "k": k})
    return [(r["sections"], r["score"]) for r in recs]
