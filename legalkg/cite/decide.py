"""Readings the text leaves open, decided by the units that exist (pure).

Why after the grammar: the grammar reads the law's name only at the chain's end, so while it reads
"§ 312 f" or "Art. 3 II Nr. 1, 4" it cannot know whether the law has a § 312f or an Art. 3 Abs. 2
Nr. 4. It keeps the other readings (``RawRef.spaced``, ``RawRef.alts``); here, with the law known and
the unit ids at hand, the reading whose unit exists wins. Without a reading that exists, the text's
first reading stays (a check then reports the missing unit; nothing is invented).
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import replace

from ..model import Citation
from .grammar import RawRef
from .resolve import para_variants, resolve_citation

_SEGMENTS = (("absatz", "Abs"), ("satz", "S"), ("nummer", "Nr"), ("buchstabe", "Bst"),
             ("doppelbuchstabe", "DBst"))


def _citation(key: str, unit: str | None, para: str, levels: dict[str, str]) -> Citation:
    prefix = "§" if unit == "§" else "Art"
    return Citation(law=key, para=f"{prefix}{para}", **{k: levels.get(k) for k, _ in _SEGMENTS})


def exists(c: Citation, known: Container[str]) -> bool:
    """A unit exists at the depth ``c`` names (implicit Satz and flat/nested Art.-§ ids allowed)."""
    found = resolve_citation(c, known)
    if found is None:
        return False
    segs = set(found.split("/"))
    head_ok = any(found == h or found.startswith(h + "/") for h in para_variants(c.law, c.para or ""))
    return head_ok and all(f"{p}{v}" in segs for k, p in _SEGMENTS if (v := getattr(c, k)))


def decide(ref: RawRef, key: str, known: Container[str]) -> tuple[RawRef, bool]:
    """(the reference in the reading whose unit exists, whether the units changed the reading)."""
    para = ref.para or ""
    if ref.spaced and not exists(_citation(key, ref.unit, para, ref.levels), known):
        base, letter = para[:-1], para[-1]
        if letter == "f" and exists(_citation(key, ref.unit, base, {}), known):
            return replace(ref, para=base, ff="f", spaced=False), True  # "§ 312 f" = § 312 and the next
    if not ref.alts or exists(_citation(key, ref.unit, para, ref.levels), known):
        return ref, False
    for alt_para, levels in ref.alts:
        if alt_para and exists(_citation(key, ref.unit, alt_para, levels), known):
            return replace(ref, para=alt_para, levels=levels, alts=[]), True
    return ref, False
