"""Citation chains of every text unit of a law, tokenizing each text only once.

Why: a § holds the text of its Absätze, an Absatz that of its Sätze, and so on, so scanning every
unit's text on its own tokenized most statute text three or four times (tokenizing is the largest
part of the citation scan). The parser writes a parent's text as its own pieces and its children's
texts joined by blanks (``parse.structure.finish``), and no token spans a blank. So the tokens of a
child's text are exactly the parent's tokens between the child's first and last character, moved by
the child's offset. Each top unit (a § or another unit without a text parent) is tokenized once;
every unit below is scanned over its slice of those tokens, as if on its own (the parser sees the
slice's ends as the ends of the text). A child whose text is not found verbatim between blanks in
its parent's text is tokenized on its own, as a top unit.

The result equals ``scan(unit.text, registry, relative=True)`` for every unit
(``tests/cite/test_unitscan.py`` checks that on whole laws).
"""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from collections.abc import Sequence

from ..model import Unit
from .grammar import TRIGGER, Chain, candidates, scan, scan_tokens
from .registry import LawRegistry
from .tokens import Token, tokenize


class _Top:
    """The tokens of one top unit's text, their start offsets and the chain-start candidates."""

    __slots__ = ("tokens", "offsets", "starts")

    def __init__(self, text: str) -> None:
        self.tokens: list[Token] = tokenize(text)
        self.offsets = [tok.start for tok in self.tokens]
        self.starts = candidates(self.tokens)

    def chains(self, first: int, end: int, registry: LawRegistry) -> list[Chain]:
        """The chains of the text top[first:end] (a child's text between blanks), in its offsets."""
        a = bisect_left(self.offsets, first)
        b = bisect_left(self.offsets, end, a)
        lo = bisect_left(self.starts, a)
        hi = bisect_left(self.starts, b, lo)
        if lo == hi:
            return []
        found = scan_tokens(self.tokens[a:b], [i - a for i in self.starts[lo:hi]], registry, relative=True)
        if first:
            _move(found, -first)
        return found


def _move(chains: list[Chain], delta: int) -> None:
    """Shift fresh chains (and their references, each once) by ``delta`` characters."""
    seen: set[int] = set()
    for chain in chains:
        chain.start += delta
        chain.end += delta
        for ref in chain.refs:
            if id(ref) not in seen:
                seen.add(id(ref))
                ref.start += delta
                ref.end += delta


def _located(parent: str, child: str, pos: int) -> int:
    """Where ``child`` starts in ``parent`` at or after ``pos``, between blanks or text ends; -1 if not."""
    k = parent.find(child, pos)
    if k < 0:
        return -1
    e = k + len(child)
    if (k and not parent[k - 1].isspace()) or (e < len(parent) and not parent[e].isspace()):
        return -1
    return k


def unit_chains(units: Sequence[Unit], registry: LawRegistry) -> dict[str, list[Chain]]:
    """Unit id -> the citation chains of its text (statute mode: relative references included).

    ``units`` are a law's text units in document order (parents before their children). Units with
    the same text share one result list.
    """
    children: dict[str, list[Unit]] = defaultdict(list)
    ids = set()
    for u in units:
        children[u.parent_id].append(u)
        ids.add(u.id)
    out: dict[str, list[Chain]] = {}
    by_text: dict[str, list[Chain]] = {}

    def visit(unit: Unit, top: _Top | None, first: int, may_cite: bool) -> None:
        # top: the tokens of the top unit whose text holds this unit's text at ``first``; None:
        # this unit is a top unit, tokenized here when its text has a trigger word. ``may_cite`` is
        # False for a text found between blanks in a text without trigger words: the trigger's
        # look-arounds see a blank or a text end on both sides, so it has none either.
        text = unit.text
        if top is None and text and may_cite and TRIGGER.search(text) is not None:
            top, first = _Top(text), 0
        if not text or top is None:
            chains = []
        elif text in by_text:
            chains = by_text[text]
        else:
            chains = by_text[text] = top.chains(first, first + len(text), registry)
        out[unit.id] = chains
        pos = 0
        for child in children.get(unit.id, ()):
            k = _located(text, child.text, pos) if child.text else -1
            if k < 0:
                visit(child, None, 0, True)  # not part of this text as the parser writes it: on its own
                continue
            visit(child, top, first + k, top is not None)
            pos = k + len(child.text)

    for u in units:
        if u.parent_id not in ids:
            visit(u, None, 0, True)
    return out


def scan_each(units: Sequence[Unit], registry: LawRegistry) -> dict[str, list[Chain]]:
    """The plain way to the same result: every distinct text tokenized and scanned on its own.

    Kept as the peer of :func:`unit_chains` (benchmarks/cite_scan.py, bulk_parts.py and the tests).
    """
    by_text: dict[str, list[Chain]] = {}
    out: dict[str, list[Chain]] = {}
    for u in units:
        if u.text not in by_text:
            by_text[u.text] = scan(u.text, registry, relative=True) if u.text else []
        out[u.id] = by_text[u.text]
    return out
