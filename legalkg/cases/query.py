"""Query construction from a court decision: pick the facts, mask every statute citation, cap words.

Why: the query must describe the case the way a user would before knowing the law. The facts
(Tatbestand) are the paper's query field; any citation left in the text would leak the answer to
lexical retrievers ("§ 349 Abs. 2 StPO" in the query trivially finds § 349 StPO).

Section rule (:func:`facts_section`), applied to the text split into lines (HTML already
converted to one block per line):

1. A heading line "Tatbestand" (optionally "Tatbestand:" or with a leading "I." / "A."): the
   section runs from the next line up to the next heading line "Entscheidungsgründe", "Gründe" or
   "Rechtliche Würdigung" (or the end).
2. Else a heading line "Gründe" (Beschlüsse) followed by a line starting "I." : the facts are the
   lines from that "I." line up to the first later line starting "II." (or the end).
3. Else no facts section is found and the caller falls back to the first N words of the text.

The LER BGH documents carry no headings (the CoNLL source dropped them), so they always take the
fallback; decisions from Open Legal Data (HTML with <h2>Tatbestand</h2>) take rule 1.

Masking (:func:`mask_spans`) replaces exact character spans (the gold annotations) *before* the
section is cut, because the offsets refer to the full text; the citation parser's ``mask`` then
catches citations the annotation missed, and finally every leftover "§ <number>" (commentary
references like "Fischer, StGB, § 177 Rn. 129") is replaced too, so no query contains a "§"
followed by a number.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import NamedTuple

import lxml.html

DEFAULT_MAX_WORDS = 512
#: Replaces a masked citation: neutral for BM25 (no word characters) and for embedders.
DEFAULT_PLACEHOLDER = "…"

_HEAD_TATBESTAND = re.compile(r"^\s*(?:(?:[IVX]+|[A-Z])\s*\.\s*)?Tatbestand\s*[:.]?\s*$")
_HEAD_END = re.compile(r"^\s*(?:(?:[IVX]+|[A-Z])\s*\.\s*)?(?:Entscheidungsgründe|Gründe|"
                       r"Rechtliche\s+Würdigung)\s*[:.]?\s*$")
_HEAD_GRUENDE = re.compile(r"^\s*Gründe\s*[:.]?\s*$")
_ROMAN_I = re.compile(r"^\s*I\s*\.(?!\w)")
_ROMAN_II = re.compile(r"^\s*II\s*\.(?!\w)")
#: Safety net after the grammar: any "§ 177" / "§§ 29" left (commentary and BGHR references such
#: as "Fischer, StGB, § 177 Rn. 129" that are not citations to the grammar but still name the §).
_LEFTOVER_PARA = re.compile(r"§§?\s*\d+(?:\s?[a-z](?![\w]))?")


class Query(NamedTuple):
    text: str
    source: str  # "tatbestand" | "gruende_I" | "head"
    n_words: int


def mask_spans(text: str, spans: Iterable[tuple[int, int]], placeholder: str = DEFAULT_PLACEHOLDER) -> str:
    """Replace each [start, end) span by ``placeholder``; overlapping spans are merged first."""
    merged: list[list[int]] = []
    for start, end in sorted((s, e) for s, e in spans if e > s):
        if not 0 <= start <= end <= len(text):
            raise ValueError(f"span ({start}, {end}) outside text of length {len(text)}")
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    out: list[str] = []
    pos = 0
    for start, end in merged:
        out.append(text[pos:start])
        out.append(placeholder)
        pos = end
    out.append(text[pos:])
    return "".join(out)


def facts_section(text: str) -> tuple[str, str] | None:
    """(section text, rule name) following the module's section rule, or None."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if _HEAD_TATBESTAND.match(line):
            end = next((j for j in range(i + 1, len(lines)) if _HEAD_END.match(lines[j])), len(lines))
            body = "\n".join(lines[i + 1:end]).strip()
            if body:
                return body, "tatbestand"
    for i, line in enumerate(lines):
        if _HEAD_GRUENDE.match(line):
            start = next((j for j in range(i + 1, len(lines)) if _ROMAN_I.match(lines[j])), None)
            if start is None:
                continue
            end = next((j for j in range(start + 1, len(lines)) if _ROMAN_II.match(lines[j])), len(lines))
            body = "\n".join(lines[start:end]).strip()
            if body:
                return body, "gruende_I"
    return None


def first_words(text: str, max_words: int | None) -> str:
    """The first ``max_words`` whitespace-separated words joined by single spaces (None = all)."""
    words = text.split()
    return " ".join(words if max_words is None else words[:max_words])


def build_query(text: str, gold_spans: Iterable[tuple[int, int]] = (), *,
                max_words: int | None = DEFAULT_MAX_WORDS, placeholder: str = DEFAULT_PLACEHOLDER,
                mask: Callable[[str, str], str] | None = None, use_sections: bool = True,
                scrub_paras: bool = True) -> Query:
    """Mask, pick the facts section (or the head of the text), cap at ``max_words`` words.

    ``mask``: ``legalkg.cite.mask``-like function (text, placeholder) -> text for citations not
    covered by ``gold_spans``; None skips it (the caller decides, so this stays pure).
    ``scrub_paras`` replaces any remaining "§ <number>".
    """
    masked = mask_spans(text, gold_spans, placeholder)
    if mask is not None:
        masked = mask(masked, placeholder)
    if scrub_paras:
        masked = _LEFTOVER_PARA.sub(placeholder, masked)
    section = facts_section(masked) if use_sections else None
    body, source = section if section else (masked, "head")
    q = first_words(body, max_words)
    return Query(q, source, len(q.split()))


def html_to_text(html: str) -> str:
    """Legal HTML (Open Legal Data ``content``) -> plain text, one block element per line."""
    if not html.strip():
        return ""
    root = lxml.html.fromstring(html)
    for br in root.iter("br"):
        br.tail = "\n" + (br.tail or "")
    blocks = {"p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "li", "dt", "dd", "tr", "blockquote",
              "table", "ul", "ol", "dl", "section", "article", "header", "footer"}
    for el in root.iter():
        if isinstance(el.tag, str) and el.tag.lower() in blocks:
            el.tail = "\n" + (el.tail or "")
            if el.text:
                el.text = "\n" + el.text
            else:
                el.text = "\n"
    raw = root.text_content()
    lines = (" ".join(line.split()) for line in raw.split("\n"))
    return "\n".join(line for line in lines if line)
