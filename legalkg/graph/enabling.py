"""``AUTHORIZED_BY`` edges (an ordinance rests on these units) as load rows, and their Cypher write.

Why beside the citations and not inside them: the edges start at a Gesetz node, not a unit, and
their marker is a hash of their own (``Gesetz.enabling_hash``), so changing the preamble reader
rewrites these edges and leaves the million citation edges alone. Both loaders write the same
rows (``enabling_rows``): the bulk import as CSV, the Cypher load through ``load/upsert_enabling``.
References that reach no unit stay on the Gesetz node as ``enabling_unresolved`` (status|citation|text).
A reference whose law is outside the graph (``EnablingStatus.law_outside``) is also kept as an unresolved
edge, as the issue asks: ``AUTHORIZED_BY`` with its ``status`` to a ``CitedLaw`` node that names the law
(``name``: its key, or the preamble's words). One such node per ordinance and law (id
``ordinance@name``): the law's own rows make it, so the bulk import needs no merge across laws, and
reloading the ordinance replaces it. A later ingest that reads the ordinance with the law in the graph
turns the edge into one to a unit.
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterable

from neo4j import Driver

from ..cite import KnownUnits, LawRegistry
from ..cite.preamble import enabling_facts
from ..model import Law
from ..vocab import EnablingStatus
from .batches import finish_batched, upsert_batched
from .rows import content_hash

#: edge properties, in the order the import columns list them
EDGE_PROPS = ("role", "citation", "text", "start", "end", "issuer", "exact", "status")
#: the article of a law named in the genitive ("des Tierseuchengesetzes"), left out of its CitedLaw name
_ARTICLE = re.compile(r"^(?:des|der)\s+")
#: the label of the node an unresolved edge to a law outside the graph ends at
CITED_LAW = "CitedLaw"


def cited_law_id(ordinance: str, name: str) -> str:
    """The id of the ``CitedLaw`` node of one ordinance and one law it names outside the graph."""
    return f"{ordinance}@{name}"


def enabling_rows(law: Law, registry: LawRegistry, known: Container[str], repealed: Container[str]
                  ) -> tuple[list[dict], list[str] | None, str]:
    """The law's edge rows ({source, target, props}), its unresolved references and their hash."""
    laws = known.laws if isinstance(known, KnownUnits) else None
    ids = known.ids if isinstance(known, KnownUnits) else known
    facts = enabling_facts(law, registry, ids, repealed, laws)
    rows = [{"source": e["source"], "target": e["target"],
             "props": {k: e[k] for k in EDGE_PROPS if e.get(k) is not None}} for e in facts.edges]
    seen: set[tuple[str, str]] = set()
    for u in facts.unresolved:  # a law outside the graph: an unresolved edge to its CitedLaw node
        if not (EnablingStatus(u["status"]).law_outside and u.get("law_name")):
            continue
        if (u["role"], u["citation"]) in seen:
            continue
        seen.add((u["role"], u["citation"]))
        name = _ARTICLE.sub("", u["law_name"])
        rows.append({"source": law.key, "target": cited_law_id(law.key, name), "cited": name,
                     "props": {k: u[k] for k in EDGE_PROPS if u.get(k) is not None}})
    unresolved = [f"{u['status']}|{u['citation']}|{u['text']}" for u in facts.unresolved] or None
    digest = content_hash([sorted((r["target"], sorted(r["props"].items())) for r in rows), unresolved])
    return rows, unresolved, digest


def load_enabling(driver: Driver, db: str, per_law: dict[str, tuple[list[dict], list[str] | None, str]],
                  states: dict[str, dict], batch: int) -> int:
    """Write the edges of laws whose enabling hash changed; returns edges written."""
    todo = {law: v for law, v in per_law.items() if states.get(law, {}).get("enabling_hash") != v[2]}
    rows = [{**r, "gen": digest} for rows, _, digest in todo.values() for r in rows]
    written = (upsert_batched(driver, db, "load/upsert_enabling", [r for r in rows if "cited" not in r], batch)
               + upsert_batched(driver, db, "load/upsert_cited_law", [r for r in rows if "cited" in r], batch))
    laws = [{"law": law, "gen": digest, "unresolved": unresolved} for law, (_, unresolved, digest) in todo.items()]
    finish_batched(driver, db, "load/finish_enabling", laws, batch)
    return written


def enabling_counts(laws: Iterable[Law], rows: Iterable[tuple[list, list | None, str]]) -> dict[str, int]:
    """Laws with a preamble, laws with at least one edge to a unit, those edges, unresolved references
    and, of them, the unresolved edges to laws outside the graph."""
    rows = list(rows)
    units = [[r for r in edges if "cited" not in r] for edges, _, _ in rows]
    return {"preambles": sum(1 for law in laws if law.preamble), "laws": sum(1 for u in units if u),
            "edges": sum(len(u) for u in units), "unresolved": sum(len(r[1] or ()) for r in rows),
            "unresolved_edges": sum(len(r[0]) for r in rows) - sum(len(u) for u in units)}


def merge_counts(a: dict[str, int], b: dict[str, int]) -> dict[str, int]:
    return {k: a.get(k, 0) + b.get(k, 0) for k in {*a, *b}}
