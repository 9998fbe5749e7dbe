"""The citation grammar: a small state machine over tokens that yields raw references.

One machine serves both jobs of the room:
- court texts ("§ 574 Abs. 2 Nr. 2 ZPO", "§ 5 III BGB", "§§ 3, 5 Abs. 1 UWG", "SGB V § 13"),
- statute texts, which add relative references ("nach Absatz 2", "Satz 1 Nr. 2",
  "des vorstehenden Absatzes") and reversed forms ("Absatz 4 des § 59a").

It only decodes *what is written*; deciding which node a reference means (implicit Satz,
ranges over suffixed §§, "f.") needs the graph and happens in ``resolve``/``statute``.
Every loop advances the token index, so the run time is linear in the input.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from . import lawstatus
from .registry import LawRegistry
from .tokens import Token, is_roman, roman_to_int, tokenize

#: Sub-levels in citation order; the rank decides "deeper" (extend) vs "sibling" (new reference).
LEVELS: tuple[str, ...] = ("absatz", "satz", "halbsatz", "nummer", "buchstabe",
                           "doppelbuchstabe", "alternative")
RANK = {name: i for i, name in enumerate(LEVELS)}

KEYWORDS: dict[str, str] = {}
for _level, _words in {
    "absatz": "abs absatz absatzes absätze absätzen ab",
    "satz": "satz satzes sätze sätzen s",
    "halbsatz": "halbs halbsatz halbsatzes halbsätze hs halbs",
    "nummer": "nr nrn nummer nummern ziff ziffer ziffern",
    "buchstabe": "buchst buchstabe buchstaben lit bst buchstb",
    "doppelbuchstabe": "doppelbuchst doppelbuchstabe doppelbuchstaben dbuchst",
    "alternative": "alt alternative alternativen var variante varianten fall",
}.items():
    for _w in _words.split():
        KEYWORDS[_w] = _level
#: Keywords that must be followed by a dot to count ("Ab." is Absatz, "ab" a preposition); a bare
#: upper-case "S" counts before a number inside a chain ("§ 6 Abs 2 S 3 SGB V").
_NEED_DOT = frozenset({"s", "ab"})
#: Keywords that may not open a relative reference (too common as plain words).
_NOT_RELATIVE_START = frozenset({"fall", "s", "alt", "var", "hs", "lit", "ab"})
#: Keywords that never start a chain: left out of the trigger and the start candidates, so a
#: statute's "ab dem 1. Januar" costs no parse.
_NOT_STARTERS = frozenset({"ab"})
#: Number words as values ("Satz eins") and ordinals before a level word ("zweiter Halbsatz").
_NUMBER_WORDS = {w: str(i) for i, w in enumerate(
    "eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf".split(), start=1)}
_ORDINALS = {f"{stem}{end}": str(i) for i, stem in enumerate(
    "erst zweit dritt viert fünft sechst siebt acht neunt zehnt elft zwölft".split(), start=1)
    for end in ("er", "e", "es", "en", "em")}
#: Levels an ordinal may name ("1. Halbsatz", "2. Alt.", "erster Satz").
_ORDINAL_LEVELS = frozenset({"halbsatz", "alternative", "satz"})

_PARA_HEADS = frozenset({"paragraph", "paragraphen", "paragraf", "paragrafen"})
_ART_HEADS = frozenset({"art", "artikel", "artikels", "artt", "artikeln"})
_ARTICLES = frozenset({"des", "der", "dem", "den"})
_OWN_LAW = {("dieses", "gesetzes"), ("dieser", "verordnung"), ("dieses", "buches"),
            ("dieses", "gesetzbuchs"), ("dieses", "gesetzbuches"), ("dieses", "gesetzbuch"),
            ("dieses", "gesetz"), ("diese", "verordnung"), ("dieser", "ordnung")}
_LAW_WORD_PARTS = ("gesetz", "ordnung", "richtlinie", "abkommen", "übereinkommen", "vertrag",
                   "statut", "satzung", "konvention", "protokoll", "verfassung")
_DIRECTION = {"vorstehenden": "<prev>", "vorstehender": "<prev>", "vorangehenden": "<prev>",
              "vorhergehenden": "<prev>", "vorigen": "<prev>", "folgenden": "<next>",
              "nachfolgenden": "<next>", "nachstehenden": "<next>"}
_NOT_ABBREV = frozenset({"BGBl", "BT", "BR", "NJW", "BGHSt", "BGHZ", "BVerfGE", "BGHR", "EU", "EG",
                         "EWG", "StR", "ZR", "ZB", "AR", "RN", "OLG", "LG", "AG", "BGH", "BVerfG",
                         "BAG", "BFH", "BSG", "BVerwG", "EuGH", "EGMR", "GS", "II", "III", "IV",
                         "VI", "VII", "VIII", "IX", "XI", "XII", "DM", "EUR", "USA", "NStZ", "JZ",
                         "MDR", "StV", "wistra", "WM", "ZIP", "NZA", "DB", "BB", "GRUR", "MMR"})
#: adjectives between the article and a law's name ("des deutschen Außensteuergesetzes")
_NAME_ADJECTIVES = frozenset({"deutschen", "geltenden", "aktuellen", "jeweils", "derzeit", "bundesdeutschen"})
_RANGE_CAP = 60  # never expand "1 bis 99999" into a flood
# All ranges of one scan together expand to at most one value per token plus this many: a text of
# ranges ("Nr. 1 bis 60 , " x 10,000) would otherwise give 60 units per 5 tokens, and every caller
# (cite's output, a service's memory) would grow 40-fold faster than its input.
_EXPANSION_SLACK = 4 * _RANGE_CAP


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


def _next_value(value: str) -> str | None:
    if value.isdigit():
        return str(int(value) + 1)
    return None


def expand_value_range(a: str, b: str) -> list[str]:
    """'1','3' -> ['2','3'] (the values after a); 'a','c' -> ['b','c']; others -> [b]."""
    if a.isdigit() and b.isdigit() and 0 < int(b) - int(a) <= _RANGE_CAP:
        return [str(v) for v in range(int(a) + 1, int(b) + 1)]
    if len(a) == 1 and len(b) == 1 and a.isalpha() and b.isalpha() and 0 < ord(b) - ord(a) <= 26:
        return [chr(c) for c in range(ord(a) + 1, ord(b) + 1)]
    return [b]


@dataclass
class _Walk:
    """Where the reading of one chain stands: its references, the current one, the unit type of the
    last head and the boundaries that a law name read later does not reach back over."""

    unit: str
    multi: bool
    cur: RawRef
    refs: list[RawRef]
    j: int = 0
    chain_end: int = 0
    group_start: int = 0  # refs[group_start:] still wait for a law name
    law_found: bool = False
    ivm_boundary: int = 0
    unit_boundary: int = 0


class _Parser:
    def __init__(self, tokens: Sequence[Token], registry: LawRegistry, relative: bool) -> None:
        self.t = tokens
        self.n = len(tokens)
        self.reg = registry
        self.relative = relative
        self.expansion_left = self.n + _EXPANSION_SLACK
        #: (ordinal index, level) -> index after its level word
        self._ordinal_end: dict[tuple[int, str], int] = {}

    def expand(self, a: str, b: str) -> list[str]:
        """``expand_value_range`` within this scan's budget; past it a range keeps its end only."""
        values = expand_value_range(a, b)
        if len(values) > self.expansion_left:
            return [b]
        self.expansion_left -= len(values)
        return values

    # ---------------------------------------------------------------- token helpers
    def low(self, i: int) -> str:
        return self.t[i].low if i < self.n else ""

    def is_dot(self, i: int) -> bool:
        return i < self.n and self.t[i].text == "."

    def skip_dot(self, i: int) -> int:
        return i + 1 if self.is_dot(i) else i

    def keyword(self, i: int) -> tuple[str, int] | None:
        """Level keyword at i: (level, index of its value)."""
        if i >= self.n or self.t[i].kind != "word":
            return None
        level = KEYWORDS.get(self.t[i].low)
        if level is None:
            return None
        if self.t[i].low in _NEED_DOT and not self.is_dot(i + 1) and not (
                self.t[i].text == "S" and i + 1 < self.n and self.t[i + 1].kind == "num"
                and self.t[i + 1].start == self.t[i].end + 1):
            return None
        if self.t[i].low == "s" and self.t[i].text != "S":
            return None
        j = self.skip_dot(i + 1)
        if self.value(level, j) is None:
            return None
        return level, j

    def value(self, level: str, i: int) -> tuple[str, int] | None:
        """A value for ``level`` at i: (normalised value, index after it)."""
        if i >= self.n:
            return None
        tok = self.t[i]
        end = self._ordinal_end.get((i, level))
        if end is not None:
            return (tok.text if tok.kind == "num" else _ORDINALS[tok.low]), end
        if level in ("buchstabe", "doppelbuchstabe"):
            if tok.kind == "word" and _LETTER_RANGE.fullmatch(tok.text):
                return tok.text, i + 1
            if tok.kind == "word" and tok.text.islower() and len(tok.text) <= 3 and tok.text.isalpha():
                j = i + 1
                if j < self.n and self.t[j].text == ")":
                    j += 1
                return tok.text, j
            return None
        if tok.kind == "num":
            j = i + 1
            if j < self.n and self.t[j].text == "." and level in ("halbsatz",):
                j += 1
            return tok.text, j
        if tok.kind == "word" and tok.low in _NUMBER_WORDS and level in ("absatz", "satz", "halbsatz",
                                                                          "nummer", "alternative"):
            return _NUMBER_WORDS[tok.low], i + 1
        if level == "absatz" and is_roman(tok):
            r = roman_to_int(tok.text)
            if r is not None:
                return str(r), i + 1
        return None

    def head(self, i: int) -> tuple[str, bool, int] | None:
        """A unit head at i: (unit, multi, index of the number)."""
        if i >= self.n:
            return None
        tok = self.t[i]
        if tok.kind == "sect":
            j = i + 1
            if j < self.n and self.t[j].kind == "num":
                return "§", len(tok.text) > 1, j
            return None
        if tok.kind != "word":
            return None
        low = tok.low
        if low in _ART_HEADS and (tok.text[0].isupper()):
            j = self.skip_dot(i + 1)
            if j < self.n and self.t[j].kind == "num":
                return "Art", low in ("artt", "artikeln"), j
        if low in _PARA_HEADS and j_num(self, i + 1):
            return "§", low.endswith("en"), i + 1
        return None

    def connector(self, i: int) -> tuple[str, int] | None:
        """Connector at i: (kind, index after); kind in ',', 'and', 'range', 'ivm'."""
        if i >= self.n:
            return None
        low = self.low(i)
        text = self.t[i].text
        if text == ";":
            return ";", i + 1
        if text == ",":
            j = i + 1
            # ", und", ", sowie" keep one connector
            if self.low(j) in ("und", "sowie", "oder", "bzw"):
                return "and", self.skip_dot(j + 1)
            return ",", j
        if low in ("und", "oder", "sowie"):
            j = i + 1
            if self.t[j].text == "/" if j < self.n else False:
                j += 2  # und/oder
            return "and", j
        if low == "bzw":
            return "and", self.skip_dot(i + 1)
        if low == "u" and self.is_dot(i + 1):
            return "and", i + 2
        if low == "bis" or text in ("-", "–"):
            return "range", i + 1
        if low == "ivm":
            return "ivm", self.skip_dot(i + 1)
        if low == "i":
            # i. V. m. / i.V.m.
            seq = [x for x in (self.low(k) for k in range(i, min(i + 6, self.n))) if x != "."]
            if seq[:3] == ["i", "v", "m"]:
                j = i
                count = 0
                while j < self.n and count < 3:
                    if self.t[j].text != ".":
                        count += 1
                    j += 1
                return "ivm", self.skip_dot(j)
        if low == "in" and self.low(i + 1) == "verbindung" and self.low(i + 2) == "mit":
            return "ivm", i + 3
        if low == "jeweils" and self.connector(i + 1):
            return self.connector(i + 1)
        return None

    # ---------------------------------------------------------------- law names
    def law_at(self, i: int) -> tuple[int, str, str | None, str] | None:
        """A law name at i: (index after, cited text, law key, kind)."""
        if i >= self.n:
            return None
        if (self.low(i), self.low(i + 1)) in _OWN_LAW:
            return i + 2, self._text(i, i + 2), None, "own"
        start = i
        if self.low(i) in _ARTICLES:
            i += 1
            if self.low(i) in _NAME_ADJECTIVES:
                i += 1  # "des deutschen Außensteuergesetzes"
        hit = self.reg.match(self.t, i, lower=start == i)
        if hit is not None:
            end, key = hit
            return self._short_form(end), self._text(start, end), key, "named"
        other = _others().match(self.t, i)
        if other is not None:
            return other[0], self._text(i, other[0]), None, "unknown"
        tok = self.t[i] if i < self.n else None
        if tok is None or tok.kind != "word":
            return None
        if tok.text[0].isupper() and any(p in tok.low for p in _LAW_WORD_PARTS):
            short = self._bracketed(i + 1)  # "Bundesausbildungsförderungsgesetz (BAföG)"
            if short is not None:
                return short[0], self._text(start, i + 1), short[1], "named"
        if start != i:
            if tok.text[0].isupper() and any(p in tok.low for p in _LAW_WORD_PARTS):
                return i + 1, self._text(start, i + 1), None, "unknown"
            return None
        upper = sum(1 for ch in tok.text if ch.isupper())
        if (upper >= 2 and 2 <= len(tok.text) <= 15 and tok.text[0].isupper()
                and tok.text not in _NOT_ABBREV and not is_roman(tok)
                and KEYWORDS.get(tok.low) is None):
            return i + 1, tok.text, None, "unknown"
        return None

    def _bracketed(self, i: int) -> tuple[int, str] | None:
        """'( BAföG )' at i: (index after ')', key of the short form) when the registry knows it."""
        if self.low(i) != "(" or i + 2 >= self.n:
            return None
        hit = self.reg.match(self.t, i + 1)
        if hit is None or hit[0] >= self.n or self.t[hit[0]].text != ")":
            return None
        return hit[0] + 1, hit[1]

    def _short_form(self, end: int) -> int:
        """A full name's bracketed short form belongs to the name: 'Sozialgesetzbuch (SGB)'."""
        short = self._bracketed(end)
        return short[0] if short is not None else end

    def version_at(self, i: int) -> tuple[int, str] | None:
        low = self.low(i)
        if low in ("af", "nf"):
            return self.skip_dot(i + 1), "aF" if low == "af" else "nF"
        if low in ("a", "n") and self.is_dot(i + 1) and self.low(i + 2) == "f":
            return self.skip_dot(i + 3), "aF" if low == "a" else "nF"
        if low in ("alter", "neuer") and self.low(i + 1) == "fassung":
            return i + 2, "aF" if low == "alter" else "nF"
        return None

    def _text(self, i: int, j: int) -> str:
        # the cited law text as written, trailing dots excluded
        while j > i and self.t[j - 1].text == ".":
            j -= 1
        return " ".join(tok.text for tok in self.t[i:j]).replace(" .", ".")

    # ---------------------------------------------------------------- the chain machine
    def parse_levels(self, ref: RawRef, j: int, allow_roman: bool) -> int:
        """Read keyword+value pairs (and court-style roman Absatz) into ref; return next index."""
        if allow_roman and j < self.n and is_roman(self.t[j]) and self.reg.match(self.t, j) is None:
            r = roman_to_int(self.t[j].text)
            if r is not None:
                ref.levels["absatz"] = str(r)
                ref.end = self.t[j].end
                j += 1
                if j < self.n and self.t[j].kind == "num" and self.keyword(j - 1) is None:
                    ref.levels["satz"] = self.t[j].text
                    ref.end = self.t[j].end
                    j += 1
        while True:
            kw = self.keyword(j) or self.ordinal(j) or self.bare_letter(ref, j)
            if kw is None:
                return j
            level, vj = kw
            if (level == "buchstabe" and "buchstabe" in ref.levels and "doppelbuchstabe" not in ref.levels
                    and _is_double_letter(self.t[vj].text)):
                level = "doppelbuchstabe"  # "Buchst. b Buchst. aa", "lit. b lit. aa"
            if level in ref.levels and RANK[level] <= RANK.get(ref.deepest or "absatz", 0):
                return j  # a repeated level starts a sibling; the caller decides
            if RANK[level] < RANK.get(ref.deepest or "absatz", 0) and level in _ORDINAL_LEVELS \
                    and self.t[j].kind != "word":
                return j  # "Satz 1, 2. Satz": an ordinal above the deepest level is no part of it
            val = self.value(level, vj)
            assert val is not None
            value = val[0]
            if "-" in value:  # "lit. a-c"
                value, _, ref.letter_to = value.partition("-")
            ref.levels[level] = value
            ref.end = self.t[val[1] - 1].end
            j = val[1]

    def ordinal(self, i: int) -> tuple[str, int] | None:
        """'1. Halbsatz', '2. Alt.', 'zweiter Halbsatz', 'erster Satz': (level, index of the value).

        The value index points at the ordinal itself; ``value`` reads it there."""
        if i + 1 >= self.n:
            return None
        tok = self.t[i]
        if tok.kind == "num" and tok.text.isdigit() and self.is_dot(i + 1):
            k = i + 2
        elif tok.kind == "word" and tok.low in _ORDINALS:
            k = i + 1
        else:
            return None
        if k >= self.n or self.t[k].kind != "word":
            return None
        level = KEYWORDS.get(self.t[k].low)
        if level not in _ORDINAL_LEVELS or self.t[k].low in ("s", "fall"):
            return None
        after = self.skip_dot(k + 1)
        if self.value(level, after) is not None and self.t[after].kind == "num":
            return None  # "1. Satz 2" is no ordinal reading
        self._ordinal_end[(i, level)] = after
        return level, i

    def bare_letter(self, ref: RawRef, i: int) -> tuple[str, int] | None:
        """'Nr. 3 a)', 'Nr. 8 b) aa)': a letter with a closing parenthesis right after a Nummer
        (a Buchstabe) or after a Buchstabe (a doubled letter: a Doppelbuchstabe)."""
        if self.relative or i + 1 >= self.n or self.t[i + 1].text != ")" or self.t[i].kind != "word":
            return None  # a statute's "Nummer 1a a) das ..." opens its own list item
        text = self.t[i].text
        deepest = ref.deepest
        if deepest == "nummer" and len(text) == 1 and text.islower():
            return "buchstabe", i
        if deepest == "buchstabe" and _is_double_letter(text):
            return "doppelbuchstabe", i
        return None

    def parse_para(self, unit: str, j: int, start: int) -> tuple[RawRef, int]:
        num = self.t[j]
        para = num.text
        end = num.end
        j += 1
        if unit == "Art" and j + 1 < self.n and self.t[j].kind == "sect" and self.t[j + 1].kind == "num" \
                and self.t[j].text == "§":
            para = f"{para}§{self.t[j + 1].text}"
            end = self.t[j + 1].end
            j += 2
        spaced = False
        if (j < self.n and self.t[j].kind == "word" and len(self.t[j].text) == 1 and self.t[j].text.islower()
                and self.t[j].start == end + 1 and num.text.isdigit() and not self.is_dot(j + 1)
                and self.low(j + 1) != ")"):
            para, end, spaced = para + self.t[j].text, self.t[j].end, True  # "§ 74 a HGB"
            j += 1
        ref = RawRef(unit=unit, para=para, start=start, end=end, spaced=spaced)
        low = self.low(j)
        if low in ("ff", "f") and (self.is_dot(j + 1) or low == "ff"):
            ref.ff = low
            j = self.skip_dot(j + 1)
            ref.end = self.t[j - 1].end
        return ref, j

    def parse_chain(self, i: int) -> tuple[Chain, int] | None:
        head = self.head(i)
        if head is None:
            return None
        unit, multi, j = head
        chain_start = self.t[i].start
        cur, j = self.parse_para(unit, j, chain_start)
        w = _Walk(unit=unit, multi=multi, cur=cur, refs=[cur])
        w.j = self.parse_levels(cur, j, allow_roman=True)
        w.chain_end = cur.end
        while w.j < self.n and self._chain_step(w):
            pass
        chain_start = self._law_outside_chain(w, i, chain_start)
        return Chain(chain_start, w.chain_end, self._expand_letters(w.refs)), w.j

    def _chain_step(self, w: _Walk) -> bool:
        """Read the next piece of a chain at ``w.j``: a law name, a keyword or a connector and what
        follows it. False ends the chain."""
        law = self.law_at(w.j)
        if law is not None:
            went = self._chain_law(w, law)
            if went is not None:
                return went
        # a bare keyword right after a value continues the current reference's sibling logic
        kw = self.keyword(w.j)
        if kw is not None:
            self._next_level(w, kw[0], w.j)
            return True
        con = self.connector(w.j)
        if con is None:
            return False
        return self._chain_connector(w, *con)

    def _chain_law(self, w: _Walk, law: tuple[int, str, str | None, str]) -> bool | None:
        """A law name in the chain names the references that wait for it; the chain goes on after it
        only through a connector to a new head (None: read that head on) or, in a '§§' list, a number."""
        end, cited, key, kind = law
        # a genitive name ("des Bürgerlichen Gesetzbuchs") reaches back to the last
        # "in Verbindung mit"; any name stops where the unit type changed (§ ... Art ...)
        genitive = self.low(w.j) in _ARTICLES or kind == "own"
        first = max(w.group_start, w.unit_boundary, w.ivm_boundary if genitive else 0)
        for r in w.refs[first:]:
            r.law_cited, r.law_key, r.law_kind = cited, key, kind
        w.group_start = len(w.refs)
        w.law_found = True
        w.chain_end = self.t[end - 1].end
        w.j = end
        ver = self.version_at(w.j)
        if ver is not None:
            for r in w.refs:
                if r.law_cited == cited and r.version is None:
                    r.version = ver[1]
            w.j = ver[0]
            w.chain_end = self.t[w.j - 1].end
        con = self.connector(w.j)
        if con is None:
            return False
        k = con[1]
        nxt_head = self.head(k)
        if nxt_head is None and not (w.multi and k < self.n and self.t[k].kind == "num"):
            return False
        w.j = k
        if nxt_head is None:
            self._next_para(w, w.unit, k, self.t[k].start)
            return True
        return None

    def _chain_connector(self, w: _Walk, kind: str, k: int) -> bool:
        """What follows a connector: a new head, a level keyword, a sibling value or a new §."""
        if k < self.n and self.low(k) in _ARTICLES and self.keyword(k + 1):
            k += 1  # "und des Absatzes 2"
        nxt_head = self.head(k)
        if nxt_head is not None:
            return self._chain_new_head(w, kind, k, nxt_head)
        step = self._after_connector(w.cur, kind, k, w.multi)
        if step is not None:
            if step[0] is not w.cur:
                w.refs.append(step[0])
            w.cur, w.j = step
            w.chain_end = w.cur.end
            return True
        if kind == ";":
            return False
        kw = self.keyword(k)
        if kw is not None:
            cur = w.cur
            if kind == "," and cur.deepest is not None and RANK[kw[0]] > RANK[cur.deepest]:
                w.j = self.parse_levels(cur, k, allow_roman=False)  # "Nr. 1 , Buchst. a"
                w.chain_end = cur.end
            else:
                self._next_level(w, kw[0], k)
            return True
        return self._chain_sibling(w, kind, k) or self._chain_number(w, kind, k)

    def _chain_new_head(self, w: _Walk, kind: str, k: int, nxt_head: tuple[str, bool, int]) -> bool:
        """A connector before a new '§'/'Art.': a range of heads ends the chain; 'i. V. m.', ';' and a
        change of unit type set the boundaries a later law name does not reach back over."""
        if kind == "range":
            return False
        if kind == "ivm":
            w.ivm_boundary = len(w.refs)
        if kind == ";":
            w.group_start = len(w.refs)  # "(§ 361; § 69 der FGO)": the law after ';' does not reach back
        if nxt_head[0] != w.unit:
            w.unit_boundary = len(w.refs)
        w.unit, w.multi, nj = nxt_head
        self._next_para(w, w.unit, nj, self.t[k].start)
        return True

    def _chain_sibling(self, w: _Walk, kind: str, k: int) -> bool:
        """A bare value after a connector as a sibling of the deepest level ('Abs. 1 und 2',
        'Nr. 2 bis 4', 'Nr. 2a und b'); False when it is not one."""
        cur = w.cur
        deepest = cur.deepest
        if deepest is None:
            return False
        val = self.value(deepest, k)
        prev_v = cur.levels[deepest]
        if (val is None and deepest in ("nummer", "satz") and k < self.n
                and self.t[k].kind == "word" and len(self.t[k].text) == 1
                and self.t[k].text.islower() and prev_v[-1:].isalpha()):
            val = (self.t[k].text, k + 1)  # "Nr. 2a und b"
        if val is None or not self._sibling_ok(cur, deepest, val[0], w.multi, kind, val[1]):
            return False
        prev = cur.levels[deepest]
        values = self.expand(prev, val[0]) if kind == "range" else [val[0]]
        if (deepest in ("nummer", "satz") and len(val[0]) == 1 and val[0].isalpha()
                and prev[:-1].isdigit()):
            values = [prev.rstrip("abcdefghijklmnopqrstuvwxyz") + val[0]]  # "Nr. 2a und b"
        for v in values:
            levels = cur.truncated_above(deepest)
            levels[deepest] = v
            new = RawRef(unit=cur.unit, para=cur.para, start=self.t[k].start,
                         end=self.t[val[1] - 1].end, levels=levels)
            w.refs.append(new)
        w.cur = w.refs[-1]
        w.j = self.parse_levels(w.cur, val[1], allow_roman=False)
        if len(values) == 1 and kind != "range":
            _add_alts(w.cur, deepest)
        w.chain_end = w.cur.end
        return True

    def _chain_number(self, w: _Walk, kind: str, k: int) -> bool:
        """A number after a connector: the end of a '§§ 10 bis 12' range or a new § of the chain."""
        if not (k < self.n and self.t[k].kind == "num"):
            return False
        cur = w.cur
        if kind == "range":
            if cur.deepest is None and cur.para_to is None and cur.ff is None:
                cur.para_to = self.t[k].text
                cur.end = self.t[k].end
                w.chain_end = cur.end
                w.j = k + 1
                return True
            return False
        self._next_para(w, cur.unit or w.unit, k, self.t[k].start)
        return True

    def _next_para(self, w: _Walk, unit: str, k: int, start: int) -> None:
        """A new § (or article) at token k joins the chain, read with its levels."""
        cur, j = self.parse_para(unit, k, start)
        w.refs.append(cur)
        w.cur = cur
        w.j = self.parse_levels(cur, j, allow_roman=True)
        w.chain_end = cur.end

    def _next_level(self, w: _Walk, level: str, k: int) -> None:
        """A level keyword at token k opens a sibling of the current reference at that level."""
        cur = w.cur
        new = RawRef(unit=cur.unit, para=cur.para, start=self.t[k].start, end=cur.end,
                     levels=cur.truncated_above(level))
        w.refs.append(new)
        w.cur = new
        w.j = self.parse_levels(new, k, allow_roman=False)
        w.chain_end = new.end

    def _law_outside_chain(self, w: _Walk, i: int, chain_start: int) -> int:
        """A chain without a law name of its own takes one written before its head ('BGB § 433') or,
        in court texts, just after the token it ended on; returns where the chain starts."""
        if w.law_found:
            return chain_start
        pre = self._prefix_law(i)
        if pre is not None:
            start_idx, cited, key = pre
            for r in w.refs:
                r.law_cited, r.law_key, r.law_kind = cited, key, "named"
            chain_start = self.t[start_idx].start
            w.refs[0].start = chain_start
        elif not self.relative:
            after = self._law_after_break(w.j, w.refs[w.group_start:])
            if after is not None:
                w.j, w.chain_end = after
        return chain_start

    def _after_connector(self, cur: RawRef, kind: str, k: int, multi: bool) -> tuple[RawRef, int] | None:
        """The readings after a connector that decide by what follows the value, before the plain
        sibling logic: '§§ 52 Abs. 1; 53' (a new § after ';'), '1. Halbsatz' (an ordinal part of the
        current unit), 'Art. 20 I, 21a I' (a value before a Roman Absatz is a new article) and
        'Abs. 1 S. 2, 3 S. 4' (a value before the deepest level's keyword is the level above it)."""
        if k >= self.n:
            return None
        deepest = cur.deepest
        ordv = self.ordinal(k)
        if ordv is not None and deepest is not None and RANK[ordv[0]] > RANK[deepest] and kind != ";":
            return cur, self.parse_levels(cur, k, allow_roman=False)
        if self.t[k].kind != "num" or kind == "range" or (kind == ";" and (not multi or self.is_dot(k + 1))):
            return None  # "§§ 90 und 90a Abs. 2; 4. Landesverrat": after ';' a "4." is a list item
        nxt = self.t[k + 1] if k + 1 < self.n else None
        roman_next = nxt is not None and is_roman(nxt) and self.reg.match(self.t, k + 1) is None
        kw = self.keyword(k + 1)
        parent = None
        if kw is not None and deepest is not None and not multi and kw[0] == deepest:
            above = [lv for lv in cur.levels if RANK[lv] < RANK[kw[0]]]
            parent = max(above, key=RANK.__getitem__) if above else None
            if parent is not None:
                levels = cur.truncated_above(parent)
                levels[parent] = self.t[k].text
                new = RawRef(unit=cur.unit, para=cur.para, start=self.t[k].start, end=self.t[k].end,
                             levels=levels)
                return new, self.parse_levels(new, k + 1, allow_roman=False)
        if kind == ";" or roman_next or (kw is not None and parent is None and not multi and kw[0] == deepest):
            new, j = self.parse_para(cur.unit or "§", k, self.t[k].start)
            return new, self.parse_levels(new, j, allow_roman=True)
        return None

    def _law_after_break(self, j: int, refs: list[RawRef]) -> tuple[int, int] | None:
        """A chain that ended on a token the grammar does not read keeps the law that closes it:
        a law name within the next few tokens, with only numbers, punctuation and short tokens
        between ('§ 5 Abs. 2 (neu) BGB'). Those references say so (``note``)."""
        k = j
        while k < self.n and k < j + _BREAK_LOOKAHEAD:
            tok = self.t[k]
            if tok.kind == "sect" or self.head(k) is not None:
                return None
            law = self.law_at(k) if k > j or tok.kind == "word" else None
            if law is not None and law[3] != "own":
                end, cited, key, kind = law
                for r in refs:
                    r.law_cited, r.law_key, r.law_kind, r.note = cited, key, kind, "law_after_break"
                return end, self.t[end - 1].end
            if tok.kind == "word" and len(tok.text) > 1 and tok.text[0].islower():
                return None  # running text ("§ 5 ist die ZPO"): the chain really ended
            if tok.text in (".", ";", ":") and k + 1 < self.n and self.t[k + 1].text[:1].isupper():
                return None  # a sentence ends
            k += 1
        return None

    def _expand_letters(self, refs: list[RawRef]) -> list[RawRef]:
        """'lit. a-c' -> Buchstaben a, b and c (within the scan's range budget)."""
        if not any(r.letter_to for r in refs):
            return refs
        out: list[RawRef] = []
        for r in refs:
            out.append(r)
            if r.letter_to is None:
                continue
            level = "doppelbuchstabe" if "doppelbuchstabe" in r.levels else "buchstabe"
            for v in self.expand(r.levels[level], r.letter_to):
                levels = dict(r.levels)
                levels[level] = v
                out.append(replace(r, levels=levels, letter_to=None, alts=[]))
            r.letter_to = None
        return out

    def _sibling_ok(self, cur: RawRef, deepest: str, value: str, multi: bool, kind: str,
                    after: int) -> bool:
        """After a connector, is a bare value a sibling of the deepest level (not a new §)?"""
        if kind == "ivm":
            return True
        if not multi:
            return True
        if deepest in ("buchstabe", "doppelbuchstabe"):
            return True
        prev = _leading_int(cur.levels[deepest])
        val = _leading_int(value)
        if prev is None or val is None:
            return False
        nxt = self.keyword(after)
        if nxt is not None and RANK[nxt[0]] <= RANK[deepest]:
            return False  # "§§ 3 Abs. 1, 4 Abs. 2": the value opens a new §
        return 0 < val - prev <= 3 or (val == prev and value != cur.levels[deepest])

    def _prefix_law(self, i: int) -> tuple[int, str, str] | None:
        """'SGB V § 13', 'BGB § 433': a known law name ending right before the head at i."""
        for back in (4, 3, 2, 1):
            s = i - back
            if s < 0:
                continue
            hit = self.reg.match(self.t, s)
            if hit is not None and hit[0] == i:
                return s, self._text(s, i), hit[1]
        return None

    # ---------------------------------------------------------------- relative references
    def parse_relative(self, i: int) -> tuple[Chain, int] | None:
        """'Absatz 2 Satz 1', 'der Absätze 1 bis 3', 'des vorstehenden Absatzes', 'Absatz 4 des § 5'."""
        tok = self.t[i]
        direction = _DIRECTION.get(tok.low)
        if direction is not None:
            lv = KEYWORDS.get(self.low(i + 1))
            if lv in ("absatz", "satz", "nummer") and self.low(i + 1) not in _NOT_RELATIVE_START:
                ref = RawRef(unit=None, para=None, start=tok.start, end=self.t[i + 1].end,
                             levels={lv: direction})
                return Chain(ref.start, ref.end, [ref]), i + 2
            return None
        if tok.low in _NOT_RELATIVE_START:
            return None
        kw = self.keyword(i)
        if kw is None:
            return None
        cur = RawRef(unit=None, para=None, start=tok.start, end=tok.end)
        refs = [cur]
        j = self.parse_levels(cur, i, allow_roman=False)
        while j < self.n:
            con = self.connector(j)
            if con is None or con[0] == ";":
                break
            kind, k = con
            if k < self.n and self.low(k) in _ARTICLES and self.keyword(k + 1):
                k += 1
            kw = self.keyword(k)
            if kw is not None:
                new = RawRef(unit=None, para=None, start=self.t[k].start, end=self.t[k].end,
                             levels=cur.truncated_above(kw[0]))
                refs.append(new)
                cur = new
                j = self.parse_levels(cur, k, allow_roman=False)
                continue
            deepest = cur.deepest
            val = self.value(deepest, k) if deepest else None
            if val is None:
                break
            prev = cur.levels[deepest]
            values = self.expand(prev, val[0]) if kind == "range" else [val[0]]
            for v in values:
                levels = cur.truncated_above(deepest)
                levels[deepest] = v
                refs.append(RawRef(unit=None, para=None, start=self.t[k].start,
                                   end=self.t[val[1] - 1].end, levels=levels))
            cur = refs[-1]
            j = self.parse_levels(cur, val[1], allow_roman=False)
        if not any(k in ("absatz", "satz", "nummer", "buchstabe", "doppelbuchstabe")
                   for r in refs for k in r.levels):
            return None  # "Halbsatz 1" alone names a part of the citing Satz itself
        return self._reversed_form(Chain(refs[0].start, refs[-1].end, refs), j)

    def _reversed_form(self, chain: Chain, j: int) -> tuple[Chain, int]:
        """A relative chain followed by its § takes that § ('Absatz 4 des § 59a BRAO'); without one
        ('Satz 2 der Nummer 3') it stays relative."""
        k = j
        if self.low(k) in ("des", "der", "in", "im", "von", "nach"):
            k += 1
        if k != j and self.head(k) is not None:
            parsed = self.parse_chain(k)
            if parsed is not None:
                inner, j2 = parsed
                first = inner.refs[0]
                merged: list[RawRef] = []
                for r in chain.refs:
                    levels = dict(first.levels)
                    levels.update(r.levels)
                    merged.append(replace(first, levels=levels, start=r.start, end=r.end))
                rest = inner.refs[1:]
                return Chain(chain.start, inner.end, merged + rest), j2
        return chain, j


_LETTER_RANGE = re.compile(r"[a-z]{1,2}-[a-z]{1,2}")
_BREAK_LOOKAHEAD = 4
_NUMERIC_LEVELS = ("absatz", "satz", "nummer")


def _add_alts(ref: RawRef, level: str) -> None:
    """Other readings of a bare value read as a sibling of ``level`` ('Abs. 1 Satz 1, 2 Nr. 2': Satz 2
    Nr. 2, or Abs. 2 Nr. 2; 'Art. 3 II Nr. 1, 4': Nr. 4, Abs. 4 or Art. 4). The units decide later."""
    value = ref.levels.get(level, "")
    if level not in _NUMERIC_LEVELS or not value[:1].isdigit():
        return
    deeper = {k: v for k, v in ref.levels.items() if RANK[k] > RANK[level]}
    above = sorted((lv for lv in ref.levels if RANK[lv] < RANK[level]), key=RANK.__getitem__, reverse=True)
    for p in above:
        levels = {k: v for k, v in ref.levels.items() if RANK[k] < RANK[p]}
        levels[p] = value
        levels.update(deeper)
        ref.alts.append((ref.para, levels))
    ref.alts.append((value, deeper))


def _is_double_letter(text: str) -> bool:
    return len(text) == 2 and text[0] == text[1] and text.isalpha() and text.islower()


def _others() -> LawRegistry:
    """Former, EU and state law names (``lawstatus``): read as laws the registry does not know."""
    return lawstatus.registry()


def _leading_int(value: str) -> int | None:
    digits = ""
    for ch in value:
        if not ch.isdigit():
            break
        digits += ch
    return int(digits) if digits and len(digits) < 7 else None


def j_num(p: _Parser, i: int) -> bool:
    return i < p.n and p.t[i].kind == "num"


def _trigger_re(flat: bool = False) -> re.Pattern[str]:
    """Text without any of these words cannot hold a chain: every chain starts at a § token, an
    Art./Paragraph head or a level keyword / direction word (see ``scan``). The pattern is a
    superset of those tokens (a word token is a maximal run of letters, digits, _ and - that
    starts with a letter, so it is never preceded by a letter or digit).

    The words are written as a prefix tree: ``re`` tries the alternatives of a flat list one by one
    at every position of a text, the tree rejects most positions at their first letter. ``flat``
    gives the flat list, longest word first (the same matches; tests and benchmarks compare them).
    """
    words = {*KEYWORDS, *_DIRECTION, *_ART_HEADS, *_PARA_HEADS} - _NOT_STARTERS
    alts = ("|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)) if flat
            else prefix_tree(words))
    return re.compile(rf"§|(?<![^\W_])(?:{alts})(?![\w\-])", re.IGNORECASE)


def prefix_tree(words: set[str]) -> str:
    """A regex that matches exactly ``words``, as nested groups that share their prefixes."""
    tree: dict = {}
    for word in words:
        node = tree
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: dict) -> str:
        alts = [re.escape(ch) + emit(sub) for ch, sub in sorted(node.items()) if ch]
        if not alts:
            return ""
        body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
        return f"(?:{body})?" if "" in node else body

    return emit(tree)


#: A § sign or a word at which a chain can start (``_trigger_re``): a text it does not match cites
#: nothing, so ``scan`` and ``unitscan`` skip tokenizing it (most statute sentences cite nothing).
TRIGGER = _trigger_re()
#: Lower-case words at which a chain can start (a head or a relative reference): any other word
#: token is skipped without asking ``head`` (millions of calls per ingest otherwise).
_STARTERS = frozenset({*KEYWORDS, *_DIRECTION, *_ART_HEADS, *_PARA_HEADS} - _NOT_STARTERS)


def scan(text: str, registry: LawRegistry, relative: bool = False) -> list[Chain]:
    """All citation chains in ``text`` in order; ``relative`` also yields §-less references."""
    if TRIGGER.search(text) is None:
        return []  # most statute sentences cite nothing: skip tokenizing them
    tokens = tokenize(text)
    return scan_tokens(tokens, candidates(tokens), registry, relative)


def candidates(tokens: Sequence[Token]) -> list[int]:
    """Indices of the tokens at which a chain can start (a § or a starter word), ascending.

    Every other token is stepped over by :func:`scan_tokens` without a look, so computing these once
    for a § lets each of its Absätze and Sätze be scanned over its share of them (``unitscan``).
    """
    starters = _STARTERS
    return [i for i, tok in enumerate(tokens)
            if tok.kind == "sect" or (tok.kind == "word" and tok.low in starters)]


def scan_tokens(tokens: Sequence[Token], starts: Sequence[int], registry: LawRegistry,
                relative: bool = False) -> list[Chain]:
    """The chains of ``tokens``, trying a parse only at ``starts`` (:func:`candidates` of ``tokens``).

    The same walk as trying every token: a parse at i yields a chain ending at j, and the walk goes on at
    max(j, i + 1); any other token only moves the walk one step on.
    """
    p = _Parser(tokens, registry, relative)
    out: list[Chain] = []
    resume = 0
    for i in starts:
        if i < resume:
            continue  # inside the chain found before
        tok = tokens[i]
        parsed = None
        if p.head(i) is not None:
            parsed = p.parse_chain(i)
        elif tok.kind == "word" and (tok.low in KEYWORDS or tok.low in _DIRECTION):
            parsed = p.parse_relative(i)
            if parsed is not None and not relative and all(r.unit is None for r in parsed[0].refs):
                parsed = (None, parsed[1])  # court mode: drop purely relative references
        if parsed is None:
            continue
        chain, j = parsed
        if chain is not None and not _is_secondary(tokens, i, j, chain):
            out.append(chain)
        resume = max(j, i + 1)
    return out


_COMMENTARY = frozenset({"rn", "rdn", "rdnr", "randnr", "randnummer", "randziffer", "rz", "anm"})


def _is_secondary(tokens: Sequence[Token], i: int, j: int, chain: Chain) -> bool:
    """A § inside a commentary or reporter citation, not a statute citation.

    "Fischer, StGB, 64. Aufl., § 177 Rn. 129" cites a commentary's margin number and
    "BGHR StGB § 63 Gefährlichkeit 35" a reporter's keyword entry; neither is a statute citation.
    """
    k = j
    while k < len(tokens) and tokens[k].text in (",", "."):
        k += 1
    if k < len(tokens) and tokens[k].low in _COMMENTARY:
        return True
    first = chain.start
    b = i - 1
    while b >= 0 and tokens[b].end > first:
        b -= 1  # skip a prefix law name already inside the chain
    for back in range(b, max(b - 3, -1), -1):
        if tokens[back].text == "BGHR":
            return True
    return False
