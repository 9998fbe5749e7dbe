"""What the citation grammar yields: references as written (``RawRef``) in chains (``Chain``).

Why apart from the walker: ``resolve``, ``statute``, ``court`` and ``decide`` read these records and
the level order; they need none of the walk that builds them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .lexicon import LEVELS

RANK = {name: i for i, name in enumerate(LEVELS)}
RANGE_CAP = 60  # never expand "1 bis 99999" into a flood
#: The levels whose bare values may be read as another level's (``add_alts``).
NUMERIC_LEVELS = ("absatz", "satz", "nummer")


@dataclass
class RawRef:
    """One cited unit as written. ``levels`` holds absatz..alternative values ('2', 'a', '<prev>')."""

    unit: str | None  # "§" | "Art" | None (relative reference without a §)
    para: str | None
    start: int
    end: int
    levels: dict[str, str] = field(default_factory=dict)
    para_to: str | None = None  # "§§ 10 bis 12": unexpanded range end
    ff: str | None = None  # "f" | "ff"
    law_cited: str | None = None
    law_key: str | None = None
    law_kind: str | None = None  # "named" | "own" ("dieses Gesetzes") | "unknown"
    version: str | None = None  # "aF" | "nF"
    letter_to: str | None = None  # "lit. a-c": the range's last letter, expanded at the chain's end
    spaced: bool = False  # "§ 312 f BGB": the letter suffix was written apart (decided by the units)
    #: other readings of a bare value ("Art. 3 I, II Nr. 1, 4": Nr. 4, Abs. 4 or Art. 4): (para, levels)
    alts: list[tuple[str | None, dict[str, str]]] = field(default_factory=list)
    note: str | None = None  # "law_after_break": the law was read past a token the grammar skipped

    @property
    def deepest(self) -> str | None:
        present = [lv for lv in LEVELS if lv in self.levels]
        return present[-1] if present else None

    def truncated_above(self, level: str) -> dict[str, str]:
        return {k: v for k, v in self.levels.items() if RANK[k] < RANK[level]}


@dataclass
class Chain:
    """A run of references joined by ',', 'und', 'i. V. m.', ... and sharing trailing law names."""

    start: int
    end: int
    refs: list[RawRef]


def expand_value_range(a: str, b: str) -> list[str]:
    """'1','3' -> ['2','3'] (the values after a); 'a','c' -> ['b','c']; others -> [b]."""
    if a.isdigit() and b.isdigit() and 0 < int(b) - int(a) <= RANGE_CAP:
        return [str(v) for v in range(int(a) + 1, int(b) + 1)]
    if len(a) == 1 and len(b) == 1 and a.isalpha() and b.isalpha() and 0 < ord(b) - ord(a) <= 26:
        return [chr(c) for c in range(ord(a) + 1, ord(b) + 1)]
    return [b]


def add_alts(ref: RawRef, level: str) -> None:
    """Other readings of a bare value read as a sibling of ``level`` ('Abs. 1 Satz 1, 2 Nr. 2': Satz 2
    Nr. 2, or Abs. 2 Nr. 2; 'Art. 3 II Nr. 1, 4': Nr. 4, Abs. 4 or Art. 4). The units decide later."""
    value = ref.levels.get(level, "")
    if level not in NUMERIC_LEVELS or not value[:1].isdigit():
        return
    deeper = {k: v for k, v in ref.levels.items() if RANK[k] > RANK[level]}
    above = sorted((lv for lv in ref.levels if RANK[lv] < RANK[level]), key=RANK.__getitem__, reverse=True)
    for p in above:
        levels = {k: v for k, v in ref.levels.items() if RANK[k] < RANK[p]}
        levels[p] = value
        levels.update(deeper)
        ref.alts.append((ref.para, levels))
    ref.alts.append((value, deeper))


def is_double_letter(text: str) -> bool:
    return len(text) == 2 and text[0] == text[1] and text.isalpha() and text.islower()


def leading_int(value: str) -> int | None:
    digits = ""
    for ch in value:
        if not ch.isdigit():
            break
        digits += ch
    return int(digits) if digits and len(digits) < 7 else None
