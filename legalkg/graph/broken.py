"""``BrokenReference`` nodes: the rows of ``legalkg references --broken`` (``cite.broken``) kept in the
graph, one per citation of a unit that points to a missing or repealed unit, linked from the citing
unit by ``HAS_BROKEN_REFERENCE``; the page ``/references/broken`` reads them.

Why at ingest: both loaders extract every law's citations anyway, and ``statute_edges`` hands over
the references that reach no unit on the way (``broken=``), so the rows cost only their judging
(``cite.broken.law_broken_rows``). A marker of their own (``Gesetz.broken_hash``) rewrites them when
they change; a reloaded law drops the nodes its text no longer makes. Both loaders write the same rows
(``broken_rows``): the bulk import as CSV, the Cypher load through ``load/upsert_broken``.
"""

from __future__ import annotations

from neo4j import Driver

from ..cite import KnownUnits, LawRegistry, statute_edges
from ..cite.broken import law_broken_rows
from ..cite.statute import BrokenRef
from ..model import Law
from .batches import finish_batched, upsert_batched
from .rows import content_hash

#: the label of a broken reference's node and the type of the edge from its citing unit
BROKEN_REFERENCE = "BrokenReference"
HAS_BROKEN_REFERENCE = "HAS_BROKEN_REFERENCE"


def broken_rows(law: Law, found: list[BrokenRef], registry: LawRegistry) -> tuple[list[dict], str]:
    """One row per broken reference of ``law`` ({id, unit, props}) and their digest (``broken_hash``)."""
    rows = []
    for r in law_broken_rows(law, found, registry):
        key = content_hash([r.source, r.target, r.reference])[:16]
        rows.append({"id": f"{r.source}#{key}", "unit": r.source,
                     "props": {"law": law.key, "reference": r.reference, "target": r.target, "status": r.status,
                               "reason": r.reason}})
    return rows, content_hash(sorted((r["id"], sorted(r["props"].items())) for r in rows))


def law_citations(law: Law, registry: LawRegistry, known: KnownUnits, repealed: set[str]
                  ) -> tuple[list, object, tuple[list[dict], str]]:
    """One law's citation edges, their statistics and its broken-reference rows, from one extraction."""
    found: list[BrokenRef] = []
    edges, stats = statute_edges(law, registry, known, repealed, broken=found)
    return edges, stats, broken_rows(law, found, registry)


def load_broken(driver: Driver, db: str, per_law: dict[str, tuple[list[dict], str]], states: dict[str, dict],
                batch: int) -> int:
    """Write the broken references of laws whose ``broken_hash`` changed; returns rows written."""
    todo = {law: v for law, v in per_law.items() if states.get(law, {}).get("broken_hash") != v[1]}
    rows = [{**r, "gen": digest} for rows_of, digest in todo.values() for r in rows_of]
    written = upsert_batched(driver, db, "load/upsert_broken", rows, batch)
    finish_batched(driver, db, "load/finish_broken", [{"law": law, "gen": d} for law, (_, d) in todo.items()], batch)
    return written
