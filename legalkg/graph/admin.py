"""Destructive maintenance: wiping a database (tests and benchmarks; no command wipes a graph)."""

from __future__ import annotations

from neo4j import Driver

from .cypher import query


def wipe(driver: Driver, database: str) -> None:
    """Delete every node and relationship in batches (indexes and constraints stay)."""
    with driver.session(database=database) as session:
        session.run(query("wipe")).consume()
