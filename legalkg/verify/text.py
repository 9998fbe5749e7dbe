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
from bisect import bisect_left, bisect_right
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
#: The word after an unread § sign is cut to this many characters (a § before 1 MB without a space).
MAX_WORD_CHARS = 60
_NEXT_WORD = re.compile(rf"\s{{0,20}}\S{{0,{MAX_WORD_CHARS}}}")
_COMMENTARY_AFTER = re.compile(r"§§?\s*\d+\w*\s*(?:[,.]\s*)?(?:rn|rdn|rdnr|randnr|rz|anm)\b", re.I)


class Spans:
    """Sorted, merged [start, end) spans with a look-up by position in O(log n).

    Why: a text of 1 MB holds up to 100,000 citation chains; asking every sentence end, every §
    sign and every record's passage against all of them made verify quadratic."""

    def __init__(self, spans: Sequence[tuple[int, int]]) -> None:
        merged: list[list[int]] = []
        for s, e in sorted(spans):
            if merged and s < merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], e)
            else:
                merged.append([s, e])
        self.starts = [s for s, _ in merged]
        self.ends = [e for _, e in merged]

    def covers(self, pos: int) -> bool:
        i = bisect_right(self.starts, pos) - 1
        return i >= 0 and pos < self.ends[i]

    def inside(self, lo: int, hi: int) -> range:
        """Indices of the spans that start in [lo, hi)."""
        return range(bisect_left(self.starts, lo), bisect_left(self.starts, hi))


def as_spans(spans: Sequence[tuple[int, int]] | Spans) -> Spans:
    return spans if isinstance(spans, Spans) else Spans(spans)


def sentence_bounds(text: str, protected: Sequence[tuple[int, int]] | Spans) -> list[tuple[int, int]]:
    """[start, end) of every sentence of ``text``; no boundary falls inside a ``protected`` span."""
    bounds: list[tuple[int, int]] = []
    start = 0
    spans = as_spans(protected)
    for m in _END.finditer(text):
        pos = m.start()
        if m.group() != "\n":
            if spans.covers(pos):
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
    i = bisect_right(bounds, (start, len(text) + 1)) - 1
    if i >= 0 and bounds[i][0] <= start < bounds[i][1]:
        lo = bounds[max(0, i - neighbours)][0]
        hi = max(bounds[min(len(bounds) - 1, i + neighbours)][1], end)
    return max(lo, start - MAX_SIDE_CHARS), min(hi, end + MAX_SIDE_CHARS)


#: Distinct masked slices a ``MaskedText`` remembers with their passages (bounded memory).
SEEN_PASSAGES = 1024


class MaskedText:
    """The text with every span replaced by the placeholder, built once; a passage is a slice.

    Why: masking each record's passage anew walked all the chains inside it, about 150 for a
    passage of 1,200 characters of dense citations, for each of 100,000 records. A span that
    starts before a passage begins is left out of it; one that starts before it ends is in it."""

    def __init__(self, text: str, spans: Sequence[tuple[int, int]] | Spans, placeholder: str = PLACEHOLDER) -> None:
        self.spans = as_spans(spans)
        self.width = len(placeholder)
        pieces: list[str] = []
        self.out_starts: list[int] = []
        pos = out = 0
        for s, e in zip(self.spans.starts, self.spans.ends, strict=True):
            pieces.append(text[pos:s])
            out += s - pos
            self.out_starts.append(out)
            pieces.append(placeholder)
            out += self.width
            pos = e
        pieces.append(text[pos:])
        self.text = "".join(pieces)
        #: a run of citations, "[NORM], [NORM]; [NORM]", reads as one: the words around it support
        #: the unit, and 150 placeholders in a row only cost the embedding model time
        self.runs = re.compile(f"{re.escape(placeholder)}(?:[ ,;]+{re.escape(placeholder)})+")
        self.joined = placeholder
        #: masked slice -> its passage, for the first ``SEEN_PASSAGES``: the passages of a text of
        #: repeated citations repeat (1 MB of "§ 1 BGB " is 125,000 passages, a few of them distinct)
        self.seen: dict[str, str] = {}

    def _after(self, i: int, pos: int) -> int:
        """Where ``pos``, at or after the end of span ``i``, lies in the masked text."""
        return self.out_starts[i] + self.width + max(0, pos - self.spans.ends[i])

    def passage(self, lo: int, hi: int) -> str:
        """``text[lo:hi]`` masked, whitespace collapsed."""
        starts = self.spans.starts
        i = bisect_right(starts, lo) - 1
        a = lo if i < 0 else (self.out_starts[i] if starts[i] == lo else self._after(i, lo))
        k = bisect_left(starts, hi) - 1
        b = hi if k < 0 else self._after(k, hi)
        raw = self.text[a:max(a, b)]
        out = self.seen.get(raw)
        if out is None:
            out = self.runs.sub(self.joined, " ".join(raw.split()))
            if len(self.seen) < SEEN_PASSAGES:
                self.seen[raw] = out
        return out


def masked(text: str, lo: int, hi: int, spans: Sequence[tuple[int, int]] | Spans,
           placeholder: str = PLACEHOLDER) -> str:
    """``text[lo:hi]`` with every citation span that starts inside it replaced, whitespace
    collapsed: the words of the sentence, not the numbers of its citations, are what support a
    unit. For many passages of one text build one ``MaskedText``."""
    return MaskedText(text, spans, placeholder).passage(lo, hi)


def unread_sections(text: str, read: Sequence[tuple[int, int]] | Spans) -> list[tuple[int, int]]:
    """[start, end) of each § sign outside the ``read`` chain spans, with the next word: a
    citation the grammar could not decode ("§ abc", "§§ ;"). § signs of commentary margin numbers
    ("§ 177 Rn. 129") and of reporter entries ("BGHR StGB § 46") are left out, as the grammar
    leaves them out on purpose."""
    out: list[tuple[int, int]] = []
    spans = as_spans(read)
    i = 0
    while i < len(text):
        i = text.find("§", i)
        if i < 0:
            break
        j = i
        while j < len(text) and text[j] == "§":
            j += 1
        if spans.covers(i) or _COMMENTARY_AFTER.match(text, i) or "BGHR" in text[max(0, i - 24):i]:
            i = j
            continue
        m = _NEXT_WORD.match(text, j)
        end = m.end() if m else j
        out.append((i, min(end, i + 2 * MAX_WORD_CHARS)))
        i = max(j, end)
    return out
