"""List labels (the ``<DT>`` text) and Paragraph designations (``<enbez>``) -> levels and id labels.

Pure functions. The ``Type`` attribute of ``<DL>`` is unreliable in gii (StGB § 5 Nr. 3 has
``Type="arabic"`` with ``a)``/``b)``), so the label text alone decides the shape.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..model import Level

_ARABIC = re.compile(r"^\(?(\d+(?:\.\d+)*[a-z]{0,3})[.)]?$")
_LETTER = re.compile(r"^\(?([a-z])[.)]?$")
_DOUBLE = re.compile(r"^\(?([a-z])\1[.)]?$")
_TRIPLE = re.compile(r"^\(?([a-z])\1\1+[.)]?$")
_ROMAN = re.compile(r"^\(?([ivxlc]+|[IVXLC]+)[.)]?$")

#: the level a list item gets below its enclosing unit when the label shape does not say
NEXT_LEVEL: dict[Level, Level | None] = {
    Level.PARAGRAPH: Level.NUMMER,
    Level.ABSATZ: Level.NUMMER,
    Level.SATZ: Level.NUMMER,
    Level.NUMMER: Level.BUCHSTABE,
    Level.BUCHSTABE: Level.DOPPELBUCHSTABE,
    Level.DOPPELBUCHSTABE: None,
}
_DEPTH = {Level.SATZ: 0, Level.NUMMER: 1, Level.BUCHSTABE: 2, Level.DOPPELBUCHSTABE: 3}


class Shape(NamedTuple):
    level: Level | None  # None: dash, bullet, roman, anything else -> decided by nesting
    label: str | None  # the id label ('1', '5a', 'a', 'aa'); None -> position in the list


def roman_to_int(s: str) -> int | None:
    values = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}
    total, prev = 0, 0
    for ch in reversed(s.lower()):
        v = values.get(ch)
        if v is None:
            return None
        total = total - v if v < prev else total + v
        prev = max(prev, v)
    return total or None


def label_shape(dt: str, roman_list: bool = False) -> Shape:
    """Shape of one list label: ``1.`` -> Nummer '1', ``a)`` -> Buchstabe 'a', ``aa)`` -> DBst 'aa'."""
    t = "".join(dt.split())
    if roman_list:
        m = _ROMAN.match(t)
        if m and roman_to_int(m.group(1)):
            return Shape(None, str(roman_to_int(m.group(1))))
    if m := _ARABIC.match(t):
        return Shape(Level.NUMMER, m.group(1))
    if m := _DOUBLE.match(t):
        return Shape(Level.DOPPELBUCHSTABE, m.group(1) * 2)
    if m := _LETTER.match(t):
        return Shape(Level.BUCHSTABE, m.group(1))
    if _TRIPLE.match(t):
        return Shape(None, None)
    m = _ROMAN.match(t)
    if m and m.group(1).isupper() and roman_to_int(m.group(1)):
        return Shape(None, str(roman_to_int(m.group(1))))
    return Shape(None, None)


def is_roman_list(labels: list[str]) -> bool:
    """``i) ii) iii)``: lower-case roman numerals in sequence (else ``i)`` is Buchstabe i)."""
    vals = []
    for dt in labels:
        m = _ROMAN.match("".join(dt.split()))
        if not m or not m.group(1).islower():
            return False
        vals.append(roman_to_int(m.group(1)))
    return len(vals) >= 2 and vals[:2] == [1, 2]


def item_level(shape_level: Level | None, enclosing: Level) -> Level | None:
    """The level of a list item below ``enclosing``; None = too deep, the item stays text.

    The label shape wins when it is deeper than the enclosing unit; otherwise (dashes, a Nummer
    list nested inside a Buchstabe, ...) the item takes the next level below the enclosing unit.
    """
    if shape_level is not None and _DEPTH.get(shape_level, 0) > _DEPTH.get(enclosing, 0):
        return shape_level
    return NEXT_LEVEL.get(enclosing)


# --- enbez -> Paragraph ---------------------------------------------------------------------

SKIPPED_NORMS = re.compile(
    r"^(Eingangsformel|Präambel|Schlu(ss|ß)formel|Inhalts(übersicht|verzeichnis)|Inhalt|Formel)\b",
    re.I)


class ParaDesignation(NamedTuple):
    kind: str  # '§' | 'Art' | 'Anlage' | other word
    labels: list[str]  # one label per node (a repealed range gives several)
    segment_prefix: str  # '§' | 'Art' | 'Anl'
    ranged: bool = False


def compact(s: str) -> str:
    """An id-safe label: no blanks, no '/', no brackets."""
    s = re.sub(r"\(.*?\)", "", s)
    s = "".join(s.split()).replace("/", "_")
    return re.sub(r"[^\w.\-]", "", s).rstrip(".")


def _expand(spec: str, word: str) -> list[str]:
    """'3 bis 6' -> 3,4,5,6; '240 und 241' -> both; '16a bis 16c' -> 16a,16b,16c."""
    spec = re.sub(rf"\b{word}\b\.?", " ", spec)
    m = re.fullmatch(r"\s*(\d+)([a-z]*)\s*bis\s*(\d+)([a-z]*)\s*", spec)
    if m:
        a, sa, b, sb = int(m.group(1)), m.group(2), int(m.group(3)), m.group(4)
        if a == b and sa and sb and len(sa) == len(sb) == 1:
            return [f"{a}{chr(c)}" for c in range(ord(sa), ord(sb) + 1)]
        if b < a or b - a > 300:
            return [compact(spec)]
        out = [f"{a}{sa}"] + [str(n) for n in range(a + 1, b + 1)]
        if sb:
            out.append(f"{b}{sb}")
        return out
    parts = [p for p in re.split(r"\s*(?:,|\bund\b|\bu\.|\bsowie\b)\s*", spec) if p.strip()]
    if len(parts) > 1:
        return [compact(p) for p in parts]
    return [compact(spec)]


def paragraph_designation(enbez: str) -> ParaDesignation | None:
    """Parse an ``<enbez>``; None for norms that are not provisions (Eingangsformel, ...)."""
    e = " ".join(enbez.split())
    ranged = False
    if e.startswith("(XXXX)"):
        ranged = True
        e = e[len("(XXXX)"):].strip()
    if not e or e == "XXXX":
        return ParaDesignation("unnumbered", [""], "§", ranged)
    if SKIPPED_NORMS.match(e):
        return None
    if m := re.match(r"^§§?\s*(.*)$", e):
        return ParaDesignation("§", _expand(m.group(1), "§§?") if ranged else [compact(m.group(1))],
                               "§", ranged)
    if m := re.match(r"^Art(?:ikel|\.)?\s+(.*)$", e):
        return ParaDesignation("Art", _expand(m.group(1), "Art") if ranged else [compact(m.group(1))],
                               "Art", ranged)
    if m := re.match(r"^Anlagen?\b\s*(.*)$", e):
        rest = re.sub(r"\b(zu|zum|zur)\b.*$", "", m.group(1))
        labels = _expand(rest, "Anlage") if ranged else [compact(rest.split(" ")[0] if rest else "")]
        return ParaDesignation("Anlage", labels, "Anl", ranged)
    if m := re.match(r"^Anhang\b\s*(.*)$", e):
        rest = re.sub(r"\b(zu|zum|zur)\b.*$", "", m.group(1)).strip()
        return ParaDesignation("Anlage", ["Anh" + compact(rest.split(" ")[0] if rest else "")], "Anl",
                               ranged)
    if m := re.match(r"^(Muster|Formblatt|Anl\.)\s*(.*)$", e):
        return ParaDesignation("Anlage", [compact(m.group(1) + m.group(2))], "Anl", ranged)
    return ParaDesignation(e.split(" ")[0].rstrip("."), [compact(e)], "§", ranged)
