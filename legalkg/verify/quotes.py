"""Quotations next to a citation, compared with the cited unit's text (pure, no I/O).

Why: an answer or a brief that cites "§ 433 Abs. 1 Satz 1 BGB" and quotes it may quote it wrong (a
word changed, a "nicht" dropped, a number changed). The citation then checks ``ok`` while the quote
misstates the law. Both sides are normalised the same way (whitespace, line-break hyphenation, quote
marks and dashes, case) and compared word by word:

- ``quote_ok``: the quoted words occur in the unit in this order, contiguously (an ellipsis "…",
  "...", "[…]" in the quote may skip unit words);
- ``quote_differs``: a span of the unit matches most of the quote; ``closest`` is that span and
  ``differing`` the words that differ (``quoted -> unit``);
- ``quote_not_found``: nothing in the unit is close; ``neighbour`` names another unit at hand (the
  enclosing §, another cited unit) that holds the quote, if one does.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from difflib import SequenceMatcher
from typing import Literal

from pydantic import BaseModel, Field

#: quotation marks: „…“ “…” "…" »…« «…» ‚…‘ (German and English forms)
_QUOTE_RE = re.compile(r"„([^„“”\"\n]{3,2000})[“”\"]|“([^“”\n]{3,2000})”|\"([^\"\n]{3,2000})\"|"
                       r"»([^»«\n]{3,2000})«|«([^»«\n]{3,2000})»|‚([^‚‘\n]{3,500})‘")
_ELLIPSIS = re.compile(r"\[\s*(?:…|\.\.\.)\s*\]|…|\.\.\.")
_HYPHEN_BREAK = re.compile(r"(?<=[^\W\d_])-\s*\n\s*(?=[a-zäöüß])")
_WORD = re.compile(r"[^\W_]+(?:[-'’][^\W_]+)*|§+|\d+(?:[.,]\d+)*")
#: a quote that stops right before one of these words reverses what the unit says
NEGATIONS = frozenset({"nicht", "kein", "keine", "keinen", "keinem", "keiner", "keines", "nie", "niemals"})
#: how far a quotation may stand from its citation (characters) to count as its quote
NEAR = 160
#: a closest span must share at least this share of the quote's words to be "differs", not "not found"
MIN_SHARED = 0.5


class QuoteCheck(BaseModel):
    """One quotation checked against the unit its citation names."""

    status: Literal["quote_ok", "quote_differs", "quote_not_found"]
    quote: str
    start: int = Field(description="offset of the quotation in the text (inside the quote marks)")
    end: int
    unit_id: str | None = Field(None, description="the cited unit the quote was compared with")
    closest: str | None = Field(None, description="quote_differs: the closest span of the unit (normalised)")
    differing: list[str] = Field(default_factory=list, description="quote_differs: 'quoted -> unit' pairs")
    neighbour: str | None = Field(None, description="quote_not_found: another unit that holds the quote")


def words(text: str) -> list[str]:
    """The normalised words of a text: hyphenation at line breaks undone, quote marks and dashes
    dropped, lower case."""
    text = _HYPHEN_BREAK.sub("", text.replace("\u00ad", ""))
    return [w.lower().replace("’", "'") for w in _WORD.findall(text)]


def quotations(text: str) -> list[tuple[int, int, str]]:
    """(start, end, quote) of every quotation in ``text`` (offsets of the quoted words)."""
    out = []
    for m in _QUOTE_RE.finditer(text):
        g = next(i for i in range(1, 7) if m.group(i) is not None)
        out.append((m.start(g), m.end(g), m.group(g)))
    return out


def _contains(hay: list[str], needle: list[str], start: int = 0) -> int:
    """Index of ``needle`` as a contiguous run in ``hay`` at or after ``start``; -1 if none."""
    if not needle:
        return start
    first = needle[0]
    k = len(needle)
    for i in range(start, len(hay) - k + 1):
        if hay[i] == first and hay[i:i + k] == needle:
            return i
    return -1


def _exact(quote: str, unit: list[str]) -> int:
    """Every part of the quote (between ellipses) occurs in the unit, in order: the index after the
    match (so the word right after it can be read); -1 when it does not."""
    pos = 0
    parts = [words(p) for p in _ELLIPSIS.split(quote)]
    if not any(parts):
        return -1
    for part in parts:
        at = _contains(unit, part, pos)
        if at < 0:
            return -1
        pos = at + len(part)
    return pos


def _closest(q: list[str], unit: list[str]) -> tuple[float, list[str], list[str]]:
    """(share of quote words matched, closest unit span, differing pairs) of the best alignment."""
    sm = SequenceMatcher(None, unit, q, autojunk=False)
    blocks = [b for b in sm.get_matching_blocks() if b.size]
    if not blocks:
        return 0.0, [], []
    best = max(blocks, key=lambda b: b.size)
    lo = max(0, best.a - best.b - 3)
    hi = min(len(unit), best.a + (len(q) - best.b) + 3)
    window = unit[lo:hi]
    sm = SequenceMatcher(None, window, q, autojunk=False)
    ops = sm.get_opcodes()
    first = next((a1 for tag, a1, _a2, _b1, _b2 in ops if tag == "equal"), 0)
    last = max((a2 for tag, _a1, a2, _b1, _b2 in ops if tag == "equal"), default=len(window))
    shared = sum(b.size for b in sm.get_matching_blocks())
    diffs = []
    for tag, a1, a2, b1, b2 in ops:
        if tag == "equal" or (a2 <= first and b1 == b2) or (a1 >= last and b1 == b2):
            continue  # unit words around the quote are no difference
        diffs.append(f"{' '.join(q[b1:b2]) or '∅'} -> {' '.join(window[a1:a2]) or '∅'}")
    return shared / len(q), window[first:last], diffs


def check_quote(quote: str, unit_id: str | None, unit_text: str, start: int = 0, end: int = 0,
                others: Mapping[str, str] | None = None) -> QuoteCheck:
    """The status of ``quote`` against ``unit_text``; ``others`` (id -> text) are looked in when the
    quote is not found in the unit."""
    unit = words(unit_text)
    base = {"quote": quote, "start": start, "end": end, "unit_id": unit_id}
    after = _exact(quote, unit)
    if after >= 0:
        if after < len(unit) and unit[after] in NEGATIONS and quote.rstrip()[-1:] in ".;!":
            # "der Schuldner leistet." cut from "der Schuldner leistet nicht.": the quote claims the
            # sentence ends where the unit goes on to deny it
            return QuoteCheck(status="quote_differs", closest=" ".join(unit[max(0, after - 8):after + 1]),
                              differing=[f"∅ -> {unit[after]}"], **base)
        return QuoteCheck(status="quote_ok", **base)
    q = words(_ELLIPSIS.sub(" ", quote))
    shared, span, diffs = _closest(q, unit) if q else (0.0, [], [])
    if shared >= MIN_SHARED:
        return QuoteCheck(status="quote_differs", closest=" ".join(span), differing=diffs, **base)
    neighbour = next((oid for oid, text in (others or {}).items()
                      if oid != unit_id and text and _exact(quote, words(text)) >= 0), None)
    return QuoteCheck(status="quote_not_found", neighbour=neighbour, **base)


def near_quotes(text: str, spans: Iterable[tuple[int, int, str, str]],
                others: Mapping[str, str] | None = None) -> list[QuoteCheck]:
    """Check each quotation of ``text`` against the nearest cited unit within ``NEAR`` characters.

    ``spans``: (chain start, chain end, unit id, unit text) of the cited units that resolved.
    """
    cited = list(spans)
    out = []
    for qs, qe, quote in quotations(text):
        best = None
        for cs, ce, uid, utext in cited:
            gap = qs - ce if qs >= ce else cs - qe if cs >= qe else 0
            if 0 <= gap <= NEAR and (best is None or gap < best[0]):
                best = (gap, uid, utext)
        if best is not None and len(words(quote)) >= 3:
            out.append(check_quote(quote, best[1], best[2], qs, qe, others))
    return out
