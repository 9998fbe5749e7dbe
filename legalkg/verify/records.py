"""One record per cited unit, built from the grammar's matches and the lookup's rows (pure).

Why ranges are treated apart: "§§ 280 bis 283 BGB" names its ends; the §§ between are read by
number (``cite.extract`` has no graph), so a missing or repealed § between them is no broken
citation. The same holds for the second § of "§ 12 f.", which is "the next existing §". Only a missing end is
reported.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pydantic import BaseModel, Field

from ..cite import CitationMatch
from ..fastmodel import builder
from .status import BROKEN, Resolution, Status, UnitRow, resolve_match
from .text import Spans, unread_sections


class CitationRecord(BaseModel):
    """What ``verify`` says about one cited unit (one JSON line of ``legalkg verify --json``)."""

    span: str | None = Field(None, description="the whole citation chain as written, on the chain's first "
                             "record only (later records of the chain carry its offsets)")
    chain_start: int
    chain_end: int
    written: str = Field(description="this unit's part of the chain as written")
    start: int
    end: int
    cited: str = Field(description="the unit as the grammar read it, court style")
    law: str | None = Field(None, description="the law key the grammar read (None: no law, or an unknown one)")
    status: Status
    id: str | None = Field(None, description="the resolved node id (ok, repealed)")
    citation: str | None = Field(None, description="the unit's court-style citation from the graph")
    text: str | None = Field(None, description="the unit's current text (in ``VerifyReport.rows``: on the "
                             "first record of the unit only)")
    nearest: str | None = Field(None, description="no_such_unit: the nearest existing unit above it")
    readings: list[str] = Field(default_factory=list, description="ambiguous: the units it may mean")
    support: float | None = Field(None, description="lexical + vector match of the citing sentence")
    lexical: float | None = None
    vector: float | None = None
    supported: bool | None = Field(None, description="support >= the documented threshold")
    sentence_start: int | None = None
    sentence_end: int | None = None
    version: str | None = Field(None, description="'aF' / 'nF' as written; the graph holds the current text")
    ff: str | None = None

    @property
    def broken(self) -> bool:
        return self.status in BROKEN


#: The support fields of a record before ``Verifier.add_support``.
UNSCORED: dict[str, None] = dict.fromkeys(("support", "lexical", "vector", "supported", "sentence_start",
                                          "sentence_end"))


_new_record = builder(CitationRecord)


def set_fields(record: CitationRecord, values: dict) -> None:
    """Set ``values`` (fields of the record, of their types already) without pydantic's per-assignment
    handler: ``Verifier.add_support`` sets six fields on each of 125,000 records of a 1 MB text. The
    fields were given when the record was built, so the record's set of given fields stays right."""
    record.__dict__.update(values)


def json_row(record: CitationRecord) -> dict:
    """``record.model_dump(mode="json")``, built from its fields directly: every field but the status
    is a JSON value already (``Verifier.rows`` writes one per citation, 125,000 for 1 MB)."""
    row = dict(record.__dict__)
    row["status"] = record.status.value
    if row["readings"]:
        row["readings"] = list(row["readings"])
    return row


def optional_parts(matches: Sequence[CitationMatch]) -> set[int]:
    """Indices of matches that a range or "f." implies without naming them: the inner §§ of a
    range and the second § of "f." (the first and last § of a range are named)."""
    first: dict[tuple[int, int], int] = {}  # offsets -> the first match with them
    groups: dict[tuple[int, int], list[int]] = {}  # offsets of several matches -> their indices
    for i, m in enumerate(matches):
        at = (m.start, m.end)
        j = first.setdefault(at, i)
        if j != i:
            groups.setdefault(at, [j]).append(i)
    out: set[int] = set()
    for idx in groups.values():
        if len({matches[i].para for i in idx}) < 2:
            continue
        if matches[idx[0]].ff == "f":
            out.update(idx[1:])
        else:
            out.update(idx[1:-1])
    return out


def cited_text(m: CitationMatch) -> str:
    """The unit as read, court style; as written when no law is named (a bare "§ 5")."""
    if m.para is None or not (m.law_key or m.law_cited):
        return m.text
    return m.citation.human() if m.law_key else m.citation._replace(law=m.law_cited).human()


def build_records(text: str, matches: Sequence[CitationMatch], units: Mapping[str, UnitRow],
                  laws: set[str], unloaded: frozenset[str] | set[str] = frozenset()) -> list[CitationRecord]:
    """The records of ``matches`` (no support score yet), implied-but-missing range members dropped.

    Why the chain's text only on its first record: "§§ 1, 1, 1, ..." is one chain of thousands of
    records, and a copy of it in each made the output grow with the square of the input."""
    optional = optional_parts(matches)
    out: list[CitationRecord] = []
    chain = None
    # what a record's resolution, names and unit depend on -> (its record's fields without offsets,
    # whether an implied range member of that status is dropped): a unit cited 100,000 times is
    # resolved, named and built once, and each citation of it is a copy of those fields with its own
    # offsets (``fastmodel``: 4x faster than ``model_copy``, 12x than ``model_construct``)
    built: dict[tuple, tuple[dict, bool]] = {}
    for i, m in enumerate(matches):
        key = (m.law_key, m.law_cited, m.reason, m.para, m.absatz, m.satz, m.nummer, m.buchstabe,
               m.doppelbuchstabe, m.text, m.version, m.ff)
        if key not in built:
            built[key] = record_of(m, resolve_match(m, units, laws, unloaded), units)
        template, droppable = built[key]
        if droppable and i in optional:
            continue
        first = (m.chain_start, m.chain_end) != chain
        chain = (m.chain_start, m.chain_end)
        values = template.copy()
        values.update(span=text[m.chain_start:m.chain_end] if first else None, chain_start=m.chain_start,
                      chain_end=m.chain_end, start=m.start, end=m.end)
        if values["readings"]:  # each record its own list
            values["readings"] = list(values["readings"])
        out.append(_new_record(values))
    return out


def record_of(m: CitationMatch, res: Resolution, units: Mapping[str, UnitRow]) -> tuple[dict, bool]:
    """The fields of ``m``'s record (every field, in the model's order; the offsets are ``m``'s), and
    whether it is dropped as an implied range member."""
    row = units.get(res.id) if res.id else None
    values = {"span": None, "chain_start": m.chain_start, "chain_end": m.chain_end, "written": m.text,
              "start": m.start, "end": m.end, "cited": cited_text(m), "law": m.law_key, "status": res.status,
              "id": res.id, "citation": row.citation if row else None, "text": row.text if row else None,
              "nearest": res.nearest, "readings": list(res.readings), **UNSCORED, "version": m.version,
              "ff": m.ff}
    return values, res.status in (Status.NO_SUCH_UNIT, Status.REPEALED)


def text_records(text: str, matches: Sequence[CitationMatch], units: Mapping[str, UnitRow],
                 laws: set[str], unloaded: frozenset[str] | set[str] = frozenset(),
                 ) -> tuple[list[CitationRecord], Spans]:
    """Every record of ``text`` in text order, the unread § signs included, and the chain spans
    (built once: the support score masks them)."""
    records = build_records(text, matches, units, laws, unloaded)
    chains = Spans([(m.chain_start, m.chain_end) for m in matches])
    records += [unparsed_record(text, s, e) for s, e in unread_sections(text, chains)]
    records.sort(key=lambda r: (r.chain_start, r.start))
    return records, chains


def unparsed_record(text: str, start: int, end: int) -> CitationRecord:
    return CitationRecord(span=text[start:end], chain_start=start, chain_end=end, written=text[start:end],
                          start=start, end=end, cited=text[start:end], status=Status.UNPARSED)
