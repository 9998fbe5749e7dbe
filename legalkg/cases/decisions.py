"""A court decision record (LER form or an Open Legal Data case) -> what the graph stores of it.

Why here and pure: ``legalkg ingest-cases`` reads dumps of 250,000 decisions, the evaluation reads
the same records; the record's form, its court, date and file number, the statute units it cites
(through the citation grammar, resolved to the deepest unit that exists) and the file numbers of
the decisions it cites are read once, in one place, without a server. A record that cannot be read
raises :class:`BadRecord` with one line naming the problem; the loader counts it and goes on.

Forms (the loader tells them apart by their fields):

* LER: ``{"id", "text", "court"?, "norms"?, ...}``; plain text. LER records carry no date, file
  number or ECLI; ``date``, ``file_number``, ``ecli`` and ``type`` are read when a record has them.
* Open Legal Data case dump: ``{"id", "court": {"name", ...} | str, "file_number", "date", "type",
  "ecli", "content": Legal HTML}``; the HTML is read as text (``cases.query.html_to_text``).

Ids: an LER record keeps its id (``ler-bgh-0000``); an Open Legal Data case becomes ``oldp:<id>``,
so the two sources never collide and a re-ingest of either finds its node again.
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterator
from dataclasses import dataclass, field
from datetime import date as Date
from typing import Any

from ..cite import MAX_CHARS, extract, resolve
from ..cite.caselaw import cited_file_numbers, file_key
from .query import html_to_text
from .spans import SpanReader

#: Federal courts by their full name -> the abbreviation counts per court are given under.
COURTS: dict[str, str] = {
    "Bundesgerichtshof": "BGH", "Bundesarbeitsgericht": "BAG", "Bundesverfassungsgericht": "BVerfG",
    "Bundessozialgericht": "BSG", "Bundesfinanzhof": "BFH", "Bundesverwaltungsgericht": "BVerwG",
    "Bundespatentgericht": "BPatG",
}
#: Words of the leading text (the node's ``lead``): enough to recognise a decision in a list.
LEAD_WORDS = 60
LEAD_CHARS = 400
#: Characters of a citation as written that an edge keeps (a chain "§§ 1, 2, ... BGB" can be long).
CITE_TEXT_CHARS = 200
_ISO_DATE = re.compile(r"^(\d{4}-\d{2}-\d{2})(?:[T ].*)?$")
#: What every statute citation with a unit holds: a § or an article ('Art. 20', 'Artikel 3').
STATUTE_MARK = re.compile(r"§|\bArt(?:ikel)?\b")
#: What every file number holds ('IX ZR 12/19').
FILE_MARK = re.compile(r"/")


class BadRecord(ValueError):
    """A record the loader skips: its message is one line naming the problem and the fix."""


@dataclass
class CitedUnit:
    """One statute unit a decision cites: the deepest unit of the graph the citation names, the
    citation as first written, and how often the decision cites that unit."""

    target: str
    text: str
    count: int = 1


@dataclass
class Decision:
    id: str
    source: str
    court: str | None
    date: str | None
    file_number: str | None
    ecli: str | None
    type: str | None
    lead: str
    text: str
    cites: list[CitedUnit] = field(default_factory=list)
    #: "COURT|FILEKEY" (COURT empty when the citation names none) of every decision cited by file number
    cites_files: list[str] = field(default_factory=list)
    #: statute citations (with a law and a §) that found no unit in the graph
    unresolved: int = 0


def _str(rec: dict, key: str) -> str | None:
    value = rec.get(key)
    if value is None or value == "":
        return None
    if not isinstance(value, str | int):
        raise BadRecord(f"'{key}' must be a string, not {type(value).__name__}")
    return str(value).strip() or None


def court_of(value: Any) -> str | None:
    """'Bundesgerichtshof' or {"name": "Bundesgerichtshof", ...} -> 'BGH'; other courts keep their name."""
    if isinstance(value, dict):
        value = value.get("name") or value.get("slug")
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise BadRecord(f"'court' must be a name or an object with a 'name', not {type(value).__name__}")
    name = " ".join(value.split())
    return COURTS.get(name, name)


def iso_date(value: str | None) -> str | None:
    """'2018-01-10' (a time after it is dropped) or None; anything else is a bad record."""
    if value is None:
        return None
    m = _ISO_DATE.match(value)
    try:
        return Date.fromisoformat(m.group(1)).isoformat() if m else Date.fromisoformat(value).isoformat()
    except ValueError:
        raise BadRecord(f"'date' {value[:30]!r} is not a date: write it as YYYY-MM-DD") from None


def lead_of(text: str) -> str:
    """The first ``LEAD_WORDS`` words, at most ``LEAD_CHARS`` characters."""
    words = " ".join(text.split()[:LEAD_WORDS])
    return words if len(words) <= LEAD_CHARS else words[:LEAD_CHARS].rsplit(" ", 1)[0] + " …"


def record_text(rec: dict) -> tuple[str, str]:
    """(plain text, source) of a record in either form."""
    if "content" in rec:
        content = rec["content"]
        if not isinstance(content, str):
            raise BadRecord("'content' must be the decision as an HTML string (Open Legal Data form)")
        return html_to_text(content), "openlegaldata"
    text = rec.get("text")
    if not isinstance(text, str):
        raise BadRecord("a decision needs its text: 'text' (LER form) or 'content' (Open Legal Data HTML)")
    return text, "ler"


def parts(text: str, limit: int = MAX_CHARS) -> list[str]:
    """The text in pieces the citation grammar reads at once, cut at line ends (a decision longer than
    ``limit`` characters is scanned piece by piece, never refused)."""
    out: list[str] = []
    while len(text) > limit:
        cut = text.rfind("\n", 0, limit)
        cut = cut if cut > 0 else limit
        out.append(text[:cut])
        text = text[cut:]
    out.append(text)
    return out


def marked_runs(text: str, mark: re.Pattern) -> list[str]:
    """The runs of consecutive lines of ``text`` that hold ``mark``, each run as one string.

    Why: the citation grammar tokenizes all it is given, and most lines of a decision cite nothing (of
    the shared LER decisions' characters, 33 % lie in lines with a § or an article). A citation does
    not cross a line end (none of their 10,048 annotated spans does), and kept lines that were
    neighbours stay joined, so the runs give what the whole text gives (tests/cases).
    """
    runs: list[str] = []
    run: list[str] = []
    for line in text.split("\n"):
        if mark.search(line):
            run.append(line)
        elif run:
            runs.append("\n".join(run))
            run = []
    if run:
        runs.append("\n".join(run))
    return runs


def cited_units(text: str, known: Container[str], registry: Any = None,
                reader: SpanReader | None = None) -> tuple[list[CitedUnit], int]:
    """Every statute unit ``text`` cites, resolved to the deepest unit in ``known``, in order of first
    citation; and the number of citations that found none. A ``reader`` (``cases.spans``) reads each
    line span by span and remembers what the grammar read; the result is the same."""
    found: dict[str, CitedUnit] = {}
    unresolved = 0
    for piece in (p for run in marked_runs(text, STATUTE_MARK) for p in parts(run)):
        for target, chain in (reader.read(piece) if reader is not None else _whole(piece, known, registry)):
            if target is None:
                unresolved += 1
            elif target in found:
                found[target].count += 1
            else:
                found[target] = CitedUnit(target, chain[:CITE_TEXT_CHARS])
    return list(found.values()), unresolved


def _whole(piece: str, known: Container[str], registry: Any) -> Iterator[tuple[str | None, str]]:
    for m in extract(piece, registry=registry, known=known):
        if m.law_key and m.para:
            yield resolve(m, known), piece[m.chain_start:m.chain_end]


def graph_ids(case_id: str) -> tuple[str, str]:
    """The ids a case of an evaluation (``legalkg eval``: the record's own id) has as a ``Decision`` in
    the graph: as an LER record, and as an Open Legal Data record (``decision_id``)."""
    return case_id, f"oldp:{case_id}"


def decision_id(rec: dict, source: str) -> str:
    raw = _str(rec, "id")
    if raw is None:
        raise BadRecord("the record has no 'id': each decision needs one to be found again on a re-ingest")
    return raw if source == "ler" else f"oldp:{raw}"


def read_decision(rec: dict, known: Container[str], registry: Any = None, reader: SpanReader | None = None
                  ) -> Decision:
    """One record -> a :class:`Decision` with its cited units; :class:`BadRecord` if it cannot be read."""
    text, source = record_text(rec)
    cites, unresolved = cited_units(text, known, registry, reader)
    cited = dict.fromkeys(f for run in marked_runs(text, FILE_MARK) for f in cited_file_numbers(run))
    files = [f"{court_of(c) or ''}|{k}" for c, k in cited]
    file_number = _str(rec, "file_number")
    own = f"|{file_key(file_number)}" if file_number else None
    return Decision(
        id=decision_id(rec, source), source=source, court=court_of(rec.get("court")),
        date=iso_date(_str(rec, "date")), file_number=file_number, ecli=_str(rec, "ecli"),
        type=_str(rec, "type"), lead=lead_of(text), text=text, cites=cites,
        cites_files=[f for f in files if not own or not f.endswith(own)], unresolved=unresolved)
