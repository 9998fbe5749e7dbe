"""Batched writes of per-law facts: upsert rows, then finish each law's generation.

Why one helper: definitions, enabling edges and broken references are each written as rows that
carry their law's generation (``gen``), in batches a transaction holds, then a ``finish`` query per
law deletes what an older generation left; the three loaders share that shape.
"""

from __future__ import annotations

from collections.abc import Sequence

from neo4j import Driver

from .cypher import query


def upsert_batched(driver: Driver, db: str, name: str, rows: Sequence[dict], batch: int) -> int:
    """Run the load query ``name`` over ``rows`` in batches of ``batch``; returns the rows it reports
    written (its ``n``)."""
    written = 0
    for i in range(0, len(rows), batch):
        recs = driver.execute_query(query(name), {"rows": list(rows[i:i + batch])}, database_=db).records
        written += recs[0]["n"] if recs else 0
    return written


def finish_batched(driver: Driver, db: str, name: str, laws: Sequence[dict], batch: int) -> None:
    """Run the finishing query ``name`` over ``laws`` (each ``{"law", "gen", ...}``) in batches."""
    for i in range(0, len(laws), batch):
        driver.execute_query(query(name), {"laws": list(laws[i:i + batch])}, database_=db)
