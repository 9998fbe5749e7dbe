"""``Term`` nodes and ``DEFINES`` edges (legal definitions, ``cite.definitions``) as load rows, and
their Cypher write.

Why a step of its own, with its own marker ``Gesetz.terms_hash``: a change of the definition reader
rewrites these nodes and edges only. Both loaders write the same rows (``term_rows``).
"""

from __future__ import annotations

from neo4j import Driver

from ..cite.definitions import definitions
from ..model import Law
from .batches import finish_batched, upsert_batched
from .rows import content_hash


def term_rows(law: Law) -> tuple[list[dict], str]:
    """One row per definition: the Term node ({id, props}), its defining unit and the edge's properties."""
    rows = []
    for d in definitions(law):
        rows.append({"id": d.node_id, "unit": d.unit,
                     "props": {"law": law.key, "term": d.term, "key": d.key, "scope": d.scope,
                               "scope_kind": d.scope_kind},
                     "edge": {"pattern": d.pattern, "text": d.text}})
    digest = content_hash(sorted((r["id"], r["unit"], r["edge"]["pattern"], r["props"]["term"], r["edge"]["text"])
                                 for r in rows))
    return rows, digest


def term_nodes(rows: list[dict]) -> dict[str, dict]:
    """Term id -> its node properties (the first definition of a term in a scope names it)."""
    out: dict[str, dict] = {}
    for r in rows:
        out.setdefault(r["id"], r["props"])
    return out


def load_terms(driver: Driver, db: str, per_law: dict[str, tuple[list[dict], str]], states: dict[str, dict],
               batch: int) -> int:
    """Write the definitions of laws whose terms hash changed; returns rows written."""
    todo = {law: v for law, v in per_law.items() if states.get(law, {}).get("terms_hash") != v[1]}
    rows = []
    for rows_of, digest in todo.values():
        names = term_nodes(rows_of)
        rows.extend({**r, "props": names[r["id"]], "gen": digest} for r in rows_of)
    written = upsert_batched(driver, db, "load/upsert_terms", rows, batch)
    finish_batched(driver, db, "load/finish_terms", [{"law": law, "gen": d} for law, (_, d) in todo.items()], batch)
    return written
