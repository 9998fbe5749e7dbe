"""Which legal definition applies to a term a text uses next to a citation (``verify --definitions``).

Why per cited unit: "Verbraucher" means what § 13 BGB says wherever the BGB applies, "Arbeitnehmer"
something else in each law that defines it. A sentence that cites a unit and uses a defined term is
read with the definition whose scope (the law, a Gliederung above the unit, its §) holds that unit:
"Nach § 312 Abs. 1 BGB ... zwischen einem Unternehmer und einem Verbraucher" -> § 14 and § 13 BGB.
The terms come from the graph's ``Term`` nodes (``cite.definitions``, written at ingest), in one
lookup for the whole text (``cypher/facts/applying_terms.cypher``); this module is the pure rest:
the citing sentence, the word bounds of a term (inflected: "Verbrauchers", "Verbrauchern") and,
of overlapping terms, the longest.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from pydantic import BaseModel

from .records import CitationRecord
from .text import Spans, citing_sentence, sentence_bounds

#: the endings a defined noun takes in a sentence ("des Verbrauchers", "den Verbrauchern")
_ENDINGS = r"(?:s|es|n|en|e|er|ern)?"
#: most distinct (unit, sentence) pairs looked up for one text: bounds the lookup of a long brief
MAX_LOOKUPS = 2_000

Read = Callable[[str, dict], list]


class AppliedDefinition(BaseModel):
    """A term the citing sentence uses, and the definition that applies to the cited unit."""

    kind: str = "definition"
    cited: str  # the cited unit's id
    term: str  # the term as defined
    written: str  # the term as the text writes it
    start: int  # the term's offsets in the text
    end: int
    defined_in: str  # the defining unit's id
    citation: str | None = None  # its court-style citation
    scope: str  # the law key, a Gliederung id or a § id
    scope_kind: str  # "law" | a Gliederung kind | "§"
    pattern: str | None = None


def lookup_rows(text: str, records: Sequence[CitationRecord], chain_spans: Spans) -> list[dict]:
    """One row per distinct (resolved unit, citing sentence): ``{i, id, text, lo}``, the sentence in lower case."""
    bounds = sentence_bounds(text, chain_spans)
    seen: set[tuple[str, int, int]] = set()
    rows = []
    for r in records:
        if not r.id:
            continue
        lo, hi = citing_sentence(text, bounds, r.chain_start, r.chain_end, neighbours=0)
        if (r.id, lo, hi) in seen:
            continue
        seen.add((r.id, lo, hi))
        rows.append({"i": len(rows), "id": r.id, "text": text[lo:hi].lower(), "lo": lo})
        if len(rows) >= MAX_LOOKUPS:
            break
    return rows


def applied(text: str, rows: list[dict], hits: list[dict]) -> list[AppliedDefinition]:
    """The lookup's hits as definitions at the term's place in the text: a term only as a whole word
    (with its endings), outside the citation itself, and of overlapping terms the longest."""
    by_row: dict[int, list[dict]] = {}
    for h in hits:
        by_row.setdefault(h["i"], []).append(h)
    out: list[AppliedDefinition] = []
    for i, found in sorted(by_row.items()):
        row = rows[i]
        taken: list[tuple[int, int]] = []
        for h in sorted(found, key=lambda h: (-len(h["key"]), h["key"])):
            rx = re.compile(rf"(?<!\w){re.escape(h['key'])}{_ENDINGS}(?!\w)")
            for m in rx.finditer(row["text"]):
                a, b = row["lo"] + m.start(), row["lo"] + m.end()
                if any(a < y and x < b for x, y in taken):
                    continue
                taken.append((a, b))
                out.append(AppliedDefinition(cited=row["id"], term=h["term"], written=text[a:b], start=a, end=b,
                                             defined_in=h["defined_in"], citation=h["citation"],
                                             scope=h["scope"], scope_kind=h["scope_kind"], pattern=h["pattern"]))
                break  # the first use in the sentence says it
    out.sort(key=lambda d: (d.start, d.cited))
    return out


def applying_definitions(read: Read, text: str, records: Sequence[CitationRecord],
                         chain_spans: Spans) -> list[AppliedDefinition]:
    """The definitions that apply to the terms each citing sentence uses, for the unit it cites."""
    rows = lookup_rows(text, records, chain_spans)
    if not rows:
        return []
    hits = [dict(r) for r in read("facts/applying_terms", {"rows": [{k: r[k] for k in ("i", "id", "text")}
                                                                    for r in rows]})]
    return applied(text, rows, hits)
