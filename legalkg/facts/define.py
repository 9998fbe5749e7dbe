"""``legalkg define TERM``: the legal definitions of a term, with their scope, from the graph.

Why from the graph: the ``Term`` nodes and ``DEFINES`` edges (``cite.definitions``, written at
ingest) already say which unit defines a term and where the definition applies; a lookup is one
indexed read of the term's lower-case key.
"""

from __future__ import annotations

from neo4j import Driver
from pydantic import BaseModel

from ..cite import LawRegistry
from ..cite.definitions import term_key
from ..errors import UserError, short
from ..graph.cypher import query


class DefinitionHit(BaseModel):
    term: str
    law: str
    scope: str
    scope_kind: str
    scope_title: str | None = None
    unit: str
    citation: str | None = None
    text: str = ""
    pattern: str

    def scope_line(self) -> str:
        """'BGB (the whole law)', 'BGB/Gl0020...: Titel "Mietvertrag"', '§ 5 UrhG'."""
        if self.scope_kind == "law":
            return f"{self.law} (the whole law)"
        return f"{self.scope_kind} {self.scope_title or self.scope}"


def law_key_of(name: str | None, registry: LawRegistry | None = None) -> str | None:
    """The law key of ``--law`` as people write it ('BGB', 'WEG', 'BKatV'); None for none given."""
    if name is None or not name.strip():
        return None
    key = (registry or LawRegistry.default()).key_for(name.strip())
    if key is None:
        raise UserError(f"unknown law {short(name)}: give its abbreviation as cited (BGB, SGB V, BKatV)")
    return key


def define(driver: Driver, db: str, term: str, law: str | None = None, limit: int = 50) -> list[DefinitionHit]:
    """The definitions of ``term`` (case ignored), of ``law`` only when given (a law key)."""
    key = term_key(term)
    if not key:
        raise UserError("the term is empty: give the word to look up, e.g. legalkg define Verbraucher")
    recs = driver.execute_query(query("facts/define"), {"key": key, "law": law, "limit": limit},
                                database_=db).records
    return [DefinitionHit(**r.data()) for r in recs]
