"""The statute facts of one unit, for MCP ``related`` and the unit page (issue 45): the ordinances
that rest on it, what its own law rests on (with the references that reach no unit), the terms it
defines and the definitions that apply to it.

Why one query (``cypher/facts/unit_facts.cypher``): every list is a short walk from the unit, and a
caller that already holds a read transaction (``serve.tools.Tools.read``) passes its own ``read``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from neo4j import Driver

from ..graph.cypher import query
from ..vocab import EnablingStatus

Read = Callable[[str, dict], list[dict]]

#: the statuses an enabling reference that reaches no unit may have (as citations have them)
UNRESOLVED_STATUSES = tuple(s.value for s in EnablingStatus)


def unresolved_records(values: Iterable[str] | None) -> list[dict[str, str]]:
    """``Gesetz.enabling_unresolved`` (``status|citation|words``) as records: a law outside the graph
    stays named, with its status."""
    out = []
    for value in values or ():
        status, _, rest = value.partition("|")
        citation, _, text = rest.partition("|")
        out.append({"status": status, "citation": citation, "text": text})
    return out


def driver_read(driver: Driver, db: str) -> Read:
    """A ``read`` over a driver: one ``cypher/<name>.cypher`` query, its rows as dicts."""
    def read(name: str, params: dict) -> list[dict]:
        return [r.data() for r in driver.execute_query(query(name), params, database_=db).records]
    return read


def unit_facts(read: Read, uid: str, limit: int) -> dict[str, Any]:
    """``rested_on_by`` (ordinances whose Eingangsformel names the unit or a unit inside it, capped at
    ``limit``, and their count), ``law_rests_on`` (the enabling units of the unit's own law, its issuer
    and ``law_rests_on_unresolved`` records), ``defined_here`` and ``applying`` (terms whose scope holds
    the unit and whose key its text contains). Empty lists for a unit not in the graph."""
    rows = read("facts/unit_facts", {"id": uid, "limit": limit})
    if not rows:
        return {"issuer": None, "law_rests_on": [], "law_rests_on_unresolved": [], "rested_on_by": [],
                "rested_on_by_count": 0, "defined_here": [], "applying": []}
    row = dict(rows[0])
    row["law_rests_on_unresolved"] = unresolved_records(row["law_rests_on_unresolved"])[:limit]
    return row
