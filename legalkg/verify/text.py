"""The text around a citation (pure): the sentences that cite it, masked of their citations, and
the § signs the grammar could not read.

Why a splitter of its own: the statute parser's splitter knows statute layout, not briefs and
decisions, whose citations are full of dots ("Abs.", "i. V. m.", "a. F."). Citation chains are
therefore opaque here (no sentence ends inside one), a line break always ends a sentence (LER
decisions hold one sentence a line), and a dot ends one only before a capital or a digit and
after a word that is no common abbreviation.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

#: Words before a dot that do not end a sentence (lower-cased, without the dot).
ABBREVIATIONS = frozenset({
    "abs", "art", "nr", "vgl", "bzw", "ggf", "etc", "usw", "aufl", "rn", "rdn", "rdnr", "urt", "beschl",
    "az", "ff", "buchst", "halbs", "alt", "var", "anm", "insb", "insbes", "sog", "str", "zb", "ua",
    "bd", "hrsg", "fn", "tz", "s", "z", "b", "v", "m", "i", "a", "f", "d", "h", "u", "o", "n", "st",
    "dr", "prof", "abschn", "anh", "bl", "gem", "lit", "mwn", "nachw", "rspr", "zit", "ziff",
})
#: A passage longer than this is cut to this many characters on each side of the citation.
MAX_SIDE_CHARS = 600
PLACEHOLDER = "[NORM]"

_END = re.compile(r"[.!?](?=\s+[\"'„(]?[A-ZÄÖÜ0-9])|\n")
_WORD_BEFORE = re.compile(r"(\w+)\W*$")
_NEXT_WORD = re.compile(r"\s*\S*")
_COMMENTARY_AFTER = re.compile(r"§§?\s*\d+\w*\s*(?:[,.]\s*)?(?:rn|rdn|rdnr|randnr|rz|anm)\b", re.I)


def _inside(pos: int, spans: Sequence[tuple[int, int]]) -> bool:
    return any(s <= pos < e for s, e in spans)


def sentence_bounds(text: str, protected: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """[start, end) of every sentence of ``text``; no boundary falls inside a ``protected`` span."""
    bounds: list[tuple[int, int]] = []
    start = 0
    spans = sorted(protected)
    for m in _END.finditer(text):
        pos = m.start()
        if m.group() != "\n":
            if _inside(pos, spans):
                continue
            before = _WORD_BEFORE.search(text, max(0, pos - 30), pos)
            if before and (before.group(1).lower() in ABBREVIATIONS or before.group(1).isdigit()):
                continue
        end = pos + 1
        if text[start:end].strip():
            bounds.append((start, end))
        start = end
    if text[start:].strip():
        bounds.append((start, len(text)))
    return bounds


def citing_sentence(text: str, bounds: Sequence[tuple[int, int]], start: int, end: int,
                    neighbours: int = 1) -> tuple[int, int]:
    """The sentence holding [start, end) with ``neighbours`` sentences before and after it, at most
    MAX_SIDE_CHARS on each side of the citation. Why neighbours: a decision often names the
    subject in one sentence and the § in the next ("Die Revision ist unbegründet. Nach [NORM]
    ..."); one neighbour on each side raised the support score's AUC (docs/verify.md)."""
    lo, hi = 0, len(text)
    for i, (s, e) in enumerate(bounds):
        if s <= start < e:
            lo = bounds[max(0, i - neighbours)][0]
            hi = max(bounds[min(len(bounds) - 1, i + neighbours)][1], end)
            break
    return max(lo, start - MAX_SIDE_CHARS), min(hi, end + MAX_SIDE_CHARS)


def masked(text: str, lo: int, hi: int, spans: Sequence[tuple[int, int]], placeholder: str = PLACEHOLDER) -> str:
    """``text[lo:hi]`` with every citation span inside it replaced, whitespace collapsed: the
    words of the sentence, not the numbers of its citations, are what support a unit."""
    out: list[str] = []
    pos = lo
    for s, e in sorted(spans):
        if e <= lo or s >= hi or s < pos:
            continue
        out.append(text[pos:s])
        out.append(placeholder)
        pos = e
    out.append(text[pos:hi])
    return " ".join("".join(out).split())


def unread_sections(text: str, read: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """[start, end) of each § sign outside the ``read`` chain spans, with the next word: a
    citation the grammar could not decode ("§ abc", "§§ ;"). § signs of commentary margin numbers
    ("§ 177 Rn. 129") and of reporter entries ("BGHR StGB § 46") are left out, as the grammar
    leaves them out on purpose."""
    out: list[tuple[int, int]] = []
    spans = sorted(read)
    i = 0
    while i < len(text):
        i = text.find("§", i)
        if i < 0:
            break
        j = i
        while j < len(text) and text[j] == "§":
            j += 1
        if _inside(i, spans) or _COMMENTARY_AFTER.match(text, i) or "BGHR" in text[max(0, i - 24):i]:
            i = j
            continue
        m = _NEXT_WORD.match(text, j)
        end = m.end() if m else j
        out.append((i, end))
        i = max(j, end)
    return out
