"""``AUTHORIZED_BY`` edges (an ordinance rests on these units) as load rows, and their Cypher write.

Why beside the citations and not inside them: the edges start at a Gesetz node, not a unit, and
their marker is a hash of their own (``Gesetz.enabling_hash``), so changing the preamble reader
rewrites these edges and leaves the million citation edges alone. Both loaders write the same
rows (``enabling_rows``): the bulk import as CSV, the Cypher load through ``load/upsert_enabling``.
References that reach no unit stay on the Gesetz node as ``enabling_unresolved`` (status|citation|text).
"""

from __future__ import annotations

from collections.abc import Container, Iterable

from neo4j import Driver

from ..cite import KnownUnits, LawRegistry
from ..cite.preamble import enabling_facts
from ..model import Law
from .cypher import query
from .rows import content_hash

#: edge properties, in the order the import columns list them
EDGE_PROPS = ("role", "citation", "text", "start", "end", "issuer", "exact")


def enabling_rows(law: Law, registry: LawRegistry, known: Container[str], repealed: Container[str]
                  ) -> tuple[list[dict], list[str] | None, str]:
    """The law's edge rows ({source, target, props}), its unresolved references and their hash."""
    laws = known.laws if isinstance(known, KnownUnits) else None
    ids = known.ids if isinstance(known, KnownUnits) else known
    facts = enabling_facts(law, registry, ids, repealed, laws)
    rows = [{"source": e["source"], "target": e["target"],
             "props": {k: e[k] for k in EDGE_PROPS if e.get(k) is not None}} for e in facts.edges]
    unresolved = [f"{u['status']}|{u['citation']}|{u['text']}" for u in facts.unresolved] or None
    digest = content_hash([sorted((r["target"], sorted(r["props"].items())) for r in rows), unresolved])
    return rows, unresolved, digest


def load_enabling(driver: Driver, db: str, per_law: dict[str, tuple[list[dict], list[str] | None, str]],
                  states: dict[str, dict], batch: int) -> int:
    """Write the edges of laws whose enabling hash changed; returns edges written."""
    todo = {law: v for law, v in per_law.items() if states.get(law, {}).get("enabling_hash") != v[2]}
    rows = [{**r, "gen": digest} for rows, _, digest in todo.values() for r in rows]
    written = 0
    for i in range(0, len(rows), batch):
        recs = driver.execute_query(query("load/upsert_enabling"), {"rows": rows[i:i + batch]}, database_=db).records
        written += recs[0]["n"] if recs else 0
    laws = [{"law": law, "gen": digest, "unresolved": unresolved} for law, (_, unresolved, digest) in todo.items()]
    for i in range(0, len(laws), batch):
        driver.execute_query(query("load/finish_enabling"), {"laws": laws[i:i + batch]}, database_=db)
    return written


def enabling_counts(laws: Iterable[Law], rows: Iterable[tuple[list, list | None, str]]) -> dict[str, int]:
    """Laws with a preamble, laws with at least one edge, edges and unresolved references."""
    rows = list(rows)
    return {"preambles": sum(1 for law in laws if law.preamble), "laws": sum(1 for r in rows if r[0]),
            "edges": sum(len(r[0]) for r in rows), "unresolved": sum(len(r[1] or ()) for r in rows)}


def merge_counts(a: dict[str, int], b: dict[str, int]) -> dict[str, int]:
    return {k: a.get(k, 0) + b.get(k, 0) for k in {*a, *b}}
