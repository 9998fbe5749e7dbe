"""``CO_CITED`` edges: the §§ that the shipped predictors' training cases cite together, for people.

Why in the graph at all: "what is cited together with § 573 BGB" is a question for Neo4j Browser
(``cypher/browser/07_cocited_with.cypher``). Retrieval never reads these edges: each CV fold needs the
pairs of its own training cases, and a graph holds one set, so the ranker and ``--expand cocited``
read the model files (``legalkg.predict.cocite``). The rows come from there (``cocite.shipped_rows``:
one per pair and task, ``a`` < ``b``); this module only writes them.

One edge per pair and task, from the smaller id to the larger: the relation is symmetric, so a
second direction would double every count and every query reads the edge undirected anyway.
Idempotent: edges are MERGEd on (a, b, task) and carry ``gen`` = the hash of the task's rows; edges of
the task with another ``gen`` (pairs a retrained predictor lost) are deleted. A second write changes
nothing, and an ingest of more laws adds the pairs whose second end arrived.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from neo4j import Driver

from .cypher import query
from .rows import content_hash

BATCH = 5000


def write_cocited(driver: Driver, db: str, rows_by_task: Mapping[str, Sequence[dict]],
                  batch: int = BATCH) -> dict[str, int]:
    """Write each task's co-citation rows as ``CO_CITED`` edges (both ends in the graph); returns
    the edges that now exist per task. An empty row list removes the task's edges."""
    written: dict[str, int] = {}
    for task, rows in rows_by_task.items():
        gen = content_hash([task, list(rows)])
        n = 0
        for start in range(0, len(rows), batch):
            part = list(rows[start:start + batch])
            recs = driver.execute_query(query("load/upsert_cocited"), {"rows": part, "task": task, "gen": gen},
                                        database_=db).records
            n += recs[0]["n"] if recs else 0
        driver.execute_query(query("load/delete_stale_cocited"), {"task": task, "gen": gen}, database_=db)
        written[task] = n
    return written
