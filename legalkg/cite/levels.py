"""One reference's own parts: its § number ('§ 74 a', '§ 5 ff.') and its levels ('Abs. 2 Satz 1
Nr. 3 Buchst. a', court-style 'III 2').

Why apart from the chain walk: both walkers (``chain`` for §-chains, ``relative`` for 'Absatz 2
Satz 1') read a reference's levels the same way; they differ only in what joins references.
"""

from __future__ import annotations

from dataclasses import replace

from .reader import Reader
from .refs import RANK, RawRef, is_double_letter
from .tokens import is_roman, roman_to_int


def parse_levels(p: Reader, ref: RawRef, j: int, allow_roman: bool) -> int:
    """Read keyword+value pairs (and court-style roman Absatz) into ref; return next index."""
    if allow_roman:
        j = roman_levels(p, ref, j)
    while True:
        kw = p.keyword(j) or p.ordinal(j) or p.bare_letter(ref, j)
        if kw is None:
            return j
        level, vj = kw
        if (level == "buchstabe" and "buchstabe" in ref.levels and "doppelbuchstabe" not in ref.levels
                and is_double_letter(p.t[vj].text)):
            level = "doppelbuchstabe"  # "Buchst. b Buchst. aa", "lit. b lit. aa"
        if level in ref.levels and RANK[level] <= RANK.get(ref.deepest or "absatz", 0):
            return j  # a repeated level starts a sibling; the caller decides
        if RANK[level] < RANK.get(ref.deepest or "absatz", 0) and level in p.lex.words("ordinal_level") \
                and p.t[j].kind != "word":
            return j  # "Satz 1, 2. Satz": an ordinal above the deepest level is no part of it
        val = p.value(level, vj)
        assert val is not None
        value = val[0]
        if "-" in value:  # "lit. a-c"
            value, _, ref.letter_to = value.partition("-")
        ref.levels[level] = value
        ref.end = p.t[val[1] - 1].end
        j = val[1]


def roman_levels(p: Reader, ref: RawRef, j: int) -> int:
    """Court style 'III 2' right after the §: Absatz III, Satz 2; returns the index after them."""
    if j < p.n and is_roman(p.t[j]) and p.reg.match(p.t, j) is None:
        r = roman_to_int(p.t[j].text)
        if r is not None:
            ref.levels["absatz"] = str(r)
            ref.end = p.t[j].end
            j += 1
            if j < p.n and p.t[j].kind == "num" and p.keyword(j - 1) is None:
                ref.levels["satz"] = p.t[j].text
                ref.end = p.t[j].end
                j += 1
    return j


def parse_para(p: Reader, unit: str, j: int, start: int) -> tuple[RawRef, int]:
    """The § (or article) number at j with its suffix ('§ 74 a', 'Art. 3 § 2') and 'f.'/'ff.'."""
    num = p.t[j]
    para = num.text
    end = num.end
    j += 1
    if unit == "Art" and j + 1 < p.n and p.t[j].kind == "sect" and p.t[j + 1].kind == "num" \
            and p.t[j].text == "§":
        para = f"{para}§{p.t[j + 1].text}"
        end = p.t[j + 1].end
        j += 2
    spaced = False
    if (j < p.n and p.t[j].kind == "word" and len(p.t[j].text) == 1 and p.t[j].text.islower()
            and p.t[j].start == end + 1 and num.text.isdigit() and not p.is_dot(j + 1)
            and p.low(j + 1) != ")"):
        para, end, spaced = para + p.t[j].text, p.t[j].end, True  # "§ 74 a HGB"
        j += 1
    ref = RawRef(unit=unit, para=para, start=start, end=end, spaced=spaced)
    low = p.low(j)
    if low in ("ff", "f") and (p.is_dot(j + 1) or low == "ff"):
        ref.ff = low
        j = p.skip_dot(j + 1)
        ref.end = p.t[j - 1].end
    return ref, j


def expand_letters(p: Reader, refs: list[RawRef]) -> list[RawRef]:
    """'lit. a-c' -> Buchstaben a, b and c (within the scan's range budget)."""
    if not any(r.letter_to for r in refs):
        return refs
    out: list[RawRef] = []
    for r in refs:
        out.append(r)
        if r.letter_to is None:
            continue
        level = "doppelbuchstabe" if "doppelbuchstabe" in r.levels else "buchstabe"
        for v in p.expand(r.levels[level], r.letter_to):
            levels = dict(r.levels)
            levels[level] = v
            out.append(replace(r, levels=levels, letter_to=None, alts=[]))
        r.letter_to = None
    return out
