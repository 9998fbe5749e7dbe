"""Relative references of statute texts: 'Absatz 2 Satz 1', 'der Absätze 1 bis 3', 'des vorstehenden
Absatzes', and the reversed form 'Absatz 4 des § 59a' that takes the § written after it.

Why a walker of its own: a relative reference has no head, so it starts at a level keyword or a
direction word and joins only levels; a § after it ends it (or, reversed, completes it).
"""

from __future__ import annotations

from dataclasses import replace

from .chain import parse_chain
from .levels import parse_levels
from .reader import Reader
from .refs import Chain, RawRef

#: Levels a relative reference must name to point anywhere ("Halbsatz 1" alone is the citing Satz's).
POINTING_LEVELS = frozenset({"absatz", "satz", "nummer", "buchstabe", "doppelbuchstabe"})
#: Words between a relative chain and the § it belongs to ('Absatz 4 des § 59a').
REVERSED_LINKS = frozenset({"des", "der", "in", "im", "von", "nach"})
#: Levels a direction word may point along ('des vorstehenden Absatzes').
DIRECTED_LEVELS = frozenset({"absatz", "satz", "nummer"})


def parse_relative(p: Reader, i: int) -> tuple[Chain, int] | None:
    """'Absatz 2 Satz 1', 'der Absätze 1 bis 3', 'des vorstehenden Absatzes', 'Absatz 4 des § 5'."""
    tok = p.t[i]
    direction = p.lex.directions.get(tok.low)
    if direction is not None:
        return directed(p, i, direction)
    if tok.low in p.lex.words("norel") or p.keyword(i) is None:
        return None
    cur = RawRef(unit=None, para=None, start=tok.start, end=tok.end)
    refs = [cur]
    j = parse_levels(p, cur, i, allow_roman=False)
    while j < p.n:
        read = relative_step(p, refs, j)
        if read is None:
            break
        j = read
    if not any(k in POINTING_LEVELS for r in refs for k in r.levels):
        return None  # "Halbsatz 1" alone names a part of the citing Satz itself
    return reversed_form(p, Chain(refs[0].start, refs[-1].end, refs), j)


def directed(p: Reader, i: int, direction: str) -> tuple[Chain, int] | None:
    """'vorstehenden Absatzes', 'folgenden Satzes': the level before or after the citing one."""
    lv = p.keywords.get(p.low(i + 1))
    if lv in DIRECTED_LEVELS and p.low(i + 1) not in p.lex.words("norel"):
        ref = RawRef(unit=None, para=None, start=p.t[i].start, end=p.t[i + 1].end, levels={lv: direction})
        return Chain(ref.start, ref.end, [ref]), i + 2
    return None


def relative_step(p: Reader, refs: list[RawRef], j: int) -> int | None:
    """After a connector at j: a keyword opens a sibling at its level, a bare value is a sibling of
    the deepest level (a range gives each value); returns the index after it, None to end."""
    con = p.connector(j)
    if con is None or con[0] == ";":
        return None
    kind, k = con
    cur = refs[-1]
    if k < p.n and p.low(k) in p.lex.words("article") and p.keyword(k + 1):
        k += 1
    kw = p.keyword(k)
    if kw is not None:
        new = RawRef(unit=None, para=None, start=p.t[k].start, end=p.t[k].end,
                     levels=cur.truncated_above(kw[0]))
        refs.append(new)
        return parse_levels(p, new, k, allow_roman=False)
    deepest = cur.deepest
    val = p.value(deepest, k) if deepest else None
    if val is None:
        return None
    prev = cur.levels[deepest]
    for v in p.expand(prev, val[0]) if kind == "range" else [val[0]]:
        levels = cur.truncated_above(deepest)
        levels[deepest] = v
        refs.append(RawRef(unit=None, para=None, start=p.t[k].start, end=p.t[val[1] - 1].end, levels=levels))
    return parse_levels(p, refs[-1], val[1], allow_roman=False)


def reversed_form(p: Reader, chain: Chain, j: int) -> tuple[Chain, int]:
    """A relative chain followed by its § takes that § ('Absatz 4 des § 59a BRAO'); without one
    ('Satz 2 der Nummer 3') it stays relative."""
    k = j + 1 if p.low(j) in REVERSED_LINKS else j
    if k != j and p.head(k) is not None:
        parsed = parse_chain(p, k)
        if parsed is not None:
            inner, j2 = parsed
            first = inner.refs[0]
            merged: list[RawRef] = []
            for r in chain.refs:
                levels = dict(first.levels)
                levels.update(r.levels)
                merged.append(replace(first, levels=levels, start=r.start, end=r.end))
            return Chain(chain.start, inner.end, merged + inner.refs[1:]), j2
    return chain, j
