"""A citation's status from the grammar's reading and the units that exist (pure, no I/O).

Why readings of its own instead of ``cite.resolve``: that falls back to the nearest existing
ancestor, which is right for graph edges (an edge to the § beats no edge) but wrong for a check:
"§ 574 Abs. 5 ZPO" would resolve to § 574 and pass. Here a citation is ``ok`` only when a unit
exists at the depth it names, in one of the readings court style allows (``readings``); the
ancestors (``cite.resolve.candidate_ids``) are looked up too, only to name the nearest existing
unit of a broken citation.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from enum import Enum
from functools import lru_cache

from pydantic import BaseModel

from ..cite import CitationMatch
from ..cite.resolve import candidate_ids, para_variants
from ..model import Citation


class Status(str, Enum):  # noqa: UP042 - the JSON and the table print .value
    OK = "ok"
    REPEALED = "repealed"
    NO_SUCH_UNIT = "no_such_unit"
    LAW_NOT_IN_GRAPH = "law_not_in_graph"
    LAW_NOT_LOADED = "law_not_loaded"
    LAW_REPEALED = "law_repealed"
    EU_LAW = "eu_law"
    STATE_LAW = "state_law"
    UNKNOWN_LAW = "unknown_law"
    AMBIGUOUS = "ambiguous"
    UNPARSED = "unparsed"


#: The grammar's reason for a law it does not resolve -> its status (cite.lawstatus's table).
_LAW_STATUS = {"law_repealed": Status.LAW_REPEALED, "eu_law": Status.EU_LAW, "state_law": Status.STATE_LAW,
               "unknown_law": Status.UNKNOWN_LAW}

#: Every status but ``ok`` makes ``legalkg verify`` exit 1.
BROKEN: frozenset[Status] = frozenset(set(Status) - {Status.OK})


class UnitRow(BaseModel):
    """One existing unit as the lookup returns it."""

    id: str
    citation: str | None = None
    text: str = ""
    level: str | None = None
    title: str | None = None
    repealed: bool = False


class Resolution(BaseModel):
    """What the graph says about one cited unit."""

    status: Status
    id: str | None = None
    nearest: str | None = None
    readings: list[str] = []


_MAX_IMPLICIT_SATZ = 12
_NR_SUFFIX = re.compile(r"(\d+)([a-z])")
_ITEM_THEN_SATZ = re.compile(r"\b(?:Nr|Nummer|Buchst|Buchstabe|lit)\b.*\b(?:S|Satz|Sätze)\b", re.S)


def reading_citation(match: CitationMatch) -> Citation:
    """The tuple to look up. "§ 3 Nr. 26 Satz 2 EStG" cites a sentence inside Nr. 26, which is no
    node of its own (docs/model.md): the item holds its sentences, so the Satz is dropped."""
    c = match.citation
    if c.satz and (c.nummer or c.buchstabe) and _ITEM_THEN_SATZ.search(match.text):
        return c._replace(satz=None)
    return c


def readings(c: Citation) -> list[tuple[str, bool]]:
    """See ``cached_readings``; a fresh list."""
    return list(cached_readings(c))


@lru_cache(maxsize=4096)
def cached_readings(c: Citation) -> tuple[tuple[str, bool], ...]:
    """(id, splits "Nr. 2a") of every id that denotes exactly the cited unit, most likely first:
    as written; with the implicit Satz before a Nummer or a Buchstabe (S1 first: a list cited
    without its Satz is the first Satz's); "Nr. 2a" as Nr. 2 Buchst. a; "Abs. 1" written for a §
    without numbered Absätze."""
    heads = para_variants(c.law, c.para or "")
    segs = [(p, v) for p, v in (("Abs", c.absatz), ("S", c.satz), ("Nr", c.nummer), ("Bst", c.buchstabe),
                                 ("DBst", c.doppelbuchstabe)) if v]
    variants: list[tuple[list[tuple[str, str]], bool]] = [(segs, False)]
    for parts, _split in list(variants):
        names = [p for p, _ in parts]
        nr = next((v for p, v in parts if p == "Nr"), None)
        m = _NR_SUFFIX.fullmatch(nr) if nr else None
        if m and "Bst" not in names:
            i = names.index("Nr")
            variants.append((parts[:i] + [("Nr", m.group(1)), ("Bst", m.group(2))] + parts[i + 1:], True))
    for parts, split in list(variants):
        names = [p for p, _ in parts]
        first_item = next((names.index(p) for p in ("Nr", "Bst") if p in names), None)
        if first_item is not None and "S" not in names:
            for k in range(1, _MAX_IMPLICIT_SATZ + 1):
                variants.append((parts[:first_item] + [("S", str(k))] + parts[first_item:], split))
    if c.absatz == "1":
        variants += [(parts[1:], split) for parts, split in list(variants)]
    out: dict[str, bool] = {}
    for parts, split in variants:
        tail = [f"{p}{v}" for p, v in parts]
        for h in heads:
            out.setdefault("/".join([h, *tail]), split)
    return tuple(out.items())


def lookup_ids(matches: list[CitationMatch]) -> tuple[list[str], list[str]]:
    """(candidate ids, law keys) to look up for ``matches``: every reading and every ancestor."""
    ids: dict[str, None] = {}
    laws: dict[str, None] = {}
    seen: set[tuple] = set()  # what the ids depend on: a unit cited 300,000 times is read once
    for m in matches:
        if m.law_key is None or m.para is None:
            continue
        key = (m.law_key, m.para, m.absatz, m.satz, m.nummer, m.buchstabe, m.doppelbuchstabe, m.text)
        if key in seen:
            continue
        seen.add(key)
        laws[m.law_key] = None
        c = reading_citation(m)
        for cand, _ in cached_readings(c):
            ids[cand] = None
        for cand in candidate_ids(c):
            ids[cand] = None
    return list(ids), list(laws)


def resolve_match(match: CitationMatch, units: Mapping[str, UnitRow], laws: set[str],
                  unloaded: frozenset[str] | set[str] = frozenset()) -> Resolution:
    """The status of one cited unit given the units and laws that exist. ``unloaded``: laws in
    the graph whose load did not finish (an ingest stopped midway): their units may be missing,
    so no answer about them is given (``law_not_loaded``)."""
    if match.law_key is None:
        if match.reason == "no_law":
            return Resolution(status=Status.AMBIGUOUS)  # which law? the text does not say
        if match.reason in _LAW_STATUS:  # a former federal law, EU or state law, or no known law
            return Resolution(status=_LAW_STATUS[match.reason])
        return Resolution(status=Status.LAW_NOT_IN_GRAPH)
    if match.law_key in unloaded:
        return Resolution(status=Status.LAW_NOT_LOADED)
    if match.law_key not in laws:
        return Resolution(status=Status.LAW_NOT_IN_GRAPH)
    c = reading_citation(match)
    found = [(u, split) for u, split in cached_readings(c) if u in units]
    if not found:
        nearest = next((cand for cand in candidate_ids(c) if cand in units), None)
        return Resolution(status=Status.NO_SUCH_UNIT, nearest=nearest)
    literal = c.to_id()
    if found[0][0] != literal and len({split for _, split in found}) > 1:
        # "Nr. 7c" where Nr. 7c and Nr. 7 Buchst. c both exist (and not as written): the text does not say
        return Resolution(status=Status.AMBIGUOUS, readings=[u for u, _ in found])
    uid = found[0][0]
    para = next((h for h in para_variants(match.law_key, match.para or "") if h in units), None)
    repealed = units[uid].repealed or (para is not None and units[para].repealed)
    return Resolution(status=Status.REPEALED if repealed else Status.OK, id=uid)

