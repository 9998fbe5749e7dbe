"""Create the constraints and indexes of ``cypher/schema.cypher`` (idempotent) and wait for them."""

from __future__ import annotations

from neo4j import Driver

from .cypher import query, statements


def _fulltext(stmt: str) -> bool:
    return stmt.lstrip().upper().startswith("CREATE FULLTEXT")


def ensure_schema(driver: Driver, database: str, wait_s: int = 300) -> None:
    """Constraints and range indexes in one transaction, then each full-text index on its own.

    Why one transaction: its indexes are filled by one population job, one scan of the store, instead
    of one scan and one wait per statement; after a bulk import of the 58 codes the schema step took
    about 1.5 s less that way (docs/benchmarks/ingest.md, "eighth session"). The full-text indexes
    stay separate statements: each is its own population job, and two jobs run side by side (one
    job for all of them was slower, fifth session).
    """
    stmts = statements("schema")
    with driver.session(database=database) as session:
        with session.begin_transaction() as tx:
            for stmt in stmts:
                if not _fulltext(stmt):
                    tx.run(stmt).consume()
            tx.commit()
    for stmt in stmts:
        if _fulltext(stmt):
            driver.execute_query(stmt, database_=database)
    await_indexes(driver, database, wait_s)


def await_indexes(driver: Driver, database: str, wait_s: int = 300) -> None:
    driver.execute_query(query("await_indexes"), {"seconds": wait_s}, database_=database)
    driver.execute_query(query("await_fulltext"), database_=database)
