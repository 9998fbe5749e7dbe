"""Create the constraints and indexes of ``cypher/schema.cypher`` (idempotent) and wait for them."""

from __future__ import annotations

from neo4j import Driver

from .cypher import query, statements


def ensure_schema(driver: Driver, database: str, wait_s: int = 300) -> None:
    for stmt in statements("schema"):
        driver.execute_query(stmt, database_=database)
    await_indexes(driver, database, wait_s)


def await_indexes(driver: Driver, database: str, wait_s: int = 300) -> None:
    driver.execute_query(query("await_indexes"), {"seconds": wait_s}, database_=database)
    driver.execute_query(query("await_fulltext"), database_=database)
