"""Read-only facts about a running graph: server, schema, counts, recorded embedding models."""

from __future__ import annotations

import hashlib

from neo4j import Driver
from pydantic import BaseModel

from .connection import server_info
from .cypher import query


class GraphReport(BaseModel):
    server: dict[str, str]
    indexes: list[dict]
    constraints: list[dict]
    labels: dict[str, int]
    relationships: dict[str, int]
    embedding_models: list[dict]


def _rows(driver: Driver, name: str, database: str, **params) -> list[dict]:
    return [r.data() for r in driver.execute_query(query(name), params, database_=database).records]


def label_counts(driver: Driver, database: str) -> dict[str, int]:
    return {r["label"]: r["count"] for r in _rows(driver, "stats_labels", database)}


def relationship_counts(driver: Driver, database: str) -> dict[str, int]:
    return {r["type"]: r["count"] for r in _rows(driver, "stats_relationships", database)}


def report(driver: Driver, database: str) -> GraphReport:
    return GraphReport(
        server=server_info(driver, database),
        indexes=_rows(driver, "doctor_indexes", database),
        constraints=_rows(driver, "doctor_constraints", database),
        labels=label_counts(driver, database),
        relationships=relationship_counts(driver, database),
        embedding_models=_rows(driver, "embedding_models", database),
    )


def graph_checksum(driver: Driver, database: str) -> str:
    """sha256 over sorted nodes (id, labels, content hash) and relationships (source, type, target).

    Two graphs with the same checksum hold the same units with the same content and the same edges;
    bookkeeping properties (``gen``, timestamps) are deliberately left out.
    """
    nodes = sorted(f"{r['id']}|{sorted(r['labels'])}|{r['hash']}"
                   for r in _rows(driver, "checksum_nodes", database))
    rels = sorted(f"{r['source']}|{r['type']}|{r['target']}"
                  for r in _rows(driver, "checksum_relationships", database))
    digest = hashlib.sha256()
    for line in nodes + ["--"] + rels:
        digest.update(line.encode())
        digest.update(b"\n")
    return digest.hexdigest()
