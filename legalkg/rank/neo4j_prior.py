"""The graph prior computed inside Neo4j (I/O): the same in-degree as the in-memory path.

Use this when the statutes are ingested already; ``legalkg.rank.graph.in_degree`` computes the
same numbers from ``legalkg.cite.statute_edges`` without a server (the benchmark uses that).
"""

from __future__ import annotations

from neo4j import Driver

from ..graph.cypher import query


def paragraph_in_degree(driver: Driver, law: str, database: str | None = None) -> dict[str, int]:
    """Paragraph id -> number of distinct other §§ citing it (only §§ with in-degree > 0)."""
    records, _, _ = driver.execute_query(query("rank/paragraph_in_degree"), law=law,
                                         database_=database, routing_="r")
    return {r["id"]: int(r["in_degree"]) for r in records if r["in_degree"]}
