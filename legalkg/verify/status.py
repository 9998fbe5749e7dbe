"""A citation's status from the grammar's reading and the units that exist (pure, no I/O).

Why only full-depth candidates count: ``cite.resolve`` falls back to the nearest existing ancestor,
which is right for graph edges (an edge to the § beats no edge) but wrong for a check: "§ 574
Abs. 5 ZPO" would resolve to § 574 and pass. Here a citation is ``ok`` only when a unit exists at
the depth it names, in one of the readings the grammar allows (implicit Satz before a Nummer,
"Abs. 1" of a § without numbered Absätze, "Nr. 2a" for Nr. 2 Buchst. a); the ancestors are looked
up too, only to name the nearest existing unit of a broken citation.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum

from pydantic import BaseModel

from ..cite import CitationMatch
from ..cite.resolve import candidate_ids, para_variants


class Status(str, Enum):  # noqa: UP042 - the JSON and the table print .value
    OK = "ok"
    REPEALED = "repealed"
    NO_SUCH_UNIT = "no_such_unit"
    LAW_NOT_IN_GRAPH = "law_not_in_graph"
    AMBIGUOUS = "ambiguous"
    UNPARSED = "unparsed"


#: Every status but ``ok`` makes ``legalkg verify`` exit 1.
BROKEN: frozenset[Status] = frozenset(set(Status) - {Status.OK})


class UnitRow(BaseModel):
    """One existing unit as the lookup returns it."""

    id: str
    citation: str | None = None
    text: str = ""
    level: str | None = None
    repealed: bool = False


class Resolution(BaseModel):
    """What the graph says about one cited unit."""

    status: Status
    id: str | None = None
    nearest: str | None = None
    readings: list[str] = []


def full_depth_ids(match: CitationMatch) -> list[str]:
    """The ids that denote exactly the cited unit (every reading the grammar allows), most likely
    first: the candidates of the citation less those of the citation one level coarser."""
    c = match.citation
    heads = para_variants(c.law, c.para or "")
    present = [f for f in _SUB_LEVELS if getattr(c, f)]
    if not present:
        return heads
    coarser = set(candidate_ids(c._replace(**{present[-1]: None})))
    out = [cand for cand in candidate_ids(c) if cand not in coarser]
    if c.absatz not in (None, "1"):
        # "Abs. 1" may be written for a § without numbered Absätze; "Abs. 3" names no such unit
        out = [cand for cand in out if "/Abs" in cand]
    return out


_SUB_LEVELS = ("absatz", "satz", "nummer", "buchstabe", "doppelbuchstabe")


def lookup_ids(matches: list[CitationMatch]) -> tuple[list[str], list[str]]:
    """(candidate ids, law keys) to look up for ``matches``: every reading and every ancestor."""
    ids: dict[str, None] = {}
    laws: dict[str, None] = {}
    for m in matches:
        if m.law_key is None or m.para is None:
            continue
        laws[m.law_key] = None
        for cand in candidate_ids(m.citation):
            ids[cand] = None
    return list(ids), list(laws)


def resolve_match(match: CitationMatch, units: Mapping[str, UnitRow], laws: set[str]) -> Resolution:
    """The status of one cited unit given the units and laws that exist."""
    if match.law_key is None:
        if match.reason == "no_law":
            return Resolution(status=Status.AMBIGUOUS)  # which law? the text does not say
        return Resolution(status=Status.LAW_NOT_IN_GRAPH)
    if match.law_key not in laws:
        return Resolution(status=Status.LAW_NOT_IN_GRAPH)
    readings = [u for u in full_depth_ids(match) if u in units]
    if not readings:
        nearest = next((cand for cand in candidate_ids(match.citation) if cand in units), None)
        return Resolution(status=Status.NO_SUCH_UNIT, nearest=nearest)
    distinct = _distinct_readings(readings)
    if len(distinct) > 1:
        return Resolution(status=Status.AMBIGUOUS, readings=distinct)
    uid = distinct[0]
    para = next((h for h in para_variants(match.law_key, match.para or "") if h in units), None)
    repealed = units[uid].repealed or (para is not None and units[para].repealed)
    return Resolution(status=Status.REPEALED if repealed else Status.OK, id=uid)


def _distinct_readings(readings: list[str]) -> list[str]:
    """Readings that name different units: one inside another is the same citation read finer
    ('Abs. 1' of a § whose only Absatz it is), so only readings unrelated by containment count."""
    out: list[str] = []
    for r in readings:
        if not any(r.startswith(o + "/") or o.startswith(r + "/") for o in out):
            out.append(r)
    return out
