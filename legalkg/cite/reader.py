"""What one token (or a few) means to the citation grammar: a level keyword and its value, a unit
head, a connector, an ordinal, a version. The walk over whole chains is ``chain`` and ``relative``.

Why a reader over the lexicon: every word list is a row of ``legalkg/data/cite_lexicon.tsv``; this
class only says how a kind of word is read (a keyword needs a value after it, a connector may eat a
dot, ...), so a new word of a known kind needs no code.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .lexicon import Lexicon, Phrase
from .refs import RANGE_CAP, RawRef, expand_value_range, is_double_letter
from .registry import LawRegistry
from .tokens import Token, is_roman, roman_to_int

# All ranges of one scan together expand to at most one value per token plus this many: a text of
# ranges ("Nr. 1 bis 60 , " x 10,000) would otherwise give 60 units per 5 tokens, and every caller
# (cite's output, a service's memory) would grow 40-fold faster than its input.
EXPANSION_SLACK = 4 * RANGE_CAP
LETTER_RANGE = re.compile(r"[a-z]{1,2}-[a-z]{1,2}")
LETTER_LEVELS = ("buchstabe", "doppelbuchstabe")


class Reader:
    """The tokens of one scan, its registry and lexicon, and the scan's range budget."""

    def __init__(self, tokens: Sequence[Token], registry: LawRegistry, relative: bool, lexicon: Lexicon) -> None:
        self.t = tokens
        self.n = len(tokens)
        self.reg = registry
        self.relative = relative
        self.lex = lexicon
        self.keywords = lexicon.keywords
        self.need_dot = lexicon.words("dot")
        self.upper = lexicon.words("upper")
        self.expansion_left = self.n + EXPANSION_SLACK
        #: (ordinal index, level) -> index after its level word
        self.ordinal_end: dict[tuple[int, str], int] = {}

    def expand(self, a: str, b: str) -> list[str]:
        """``expand_value_range`` within this scan's budget; past it a range keeps its end only."""
        values = expand_value_range(a, b)
        if len(values) > self.expansion_left:
            return [b]
        self.expansion_left -= len(values)
        return values

    def low(self, i: int) -> str:
        return self.t[i].low if i < self.n else ""

    def is_dot(self, i: int) -> bool:
        return i < self.n and self.t[i].text == "."

    def skip_dot(self, i: int) -> int:
        return i + 1 if self.is_dot(i) else i

    def is_num(self, i: int) -> bool:
        return i < self.n and self.t[i].kind == "num"

    def text(self, i: int, j: int) -> str:
        """The cited law text of tokens i..j as written, trailing dots excluded."""
        while j > i and self.t[j - 1].text == ".":
            j -= 1
        return " ".join(tok.text for tok in self.t[i:j]).replace(" .", ".")

    def keyword(self, i: int) -> tuple[str, int] | None:
        """Level keyword at i: (level, index of its value)."""
        if i >= self.n or self.t[i].kind != "word":
            return None
        tok = self.t[i]
        level = self.keywords.get(tok.low)
        if level is None:
            return None
        upper = tok.low in self.upper
        if tok.low in self.need_dot and not self.is_dot(i + 1) and not (
                upper and tok.text[0].isupper() and self.is_num(i + 1) and self.t[i + 1].start == tok.end + 1):
            return None
        if upper and not tok.text[0].isupper():
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
        end = self.ordinal_end.get((i, level))
        if end is not None:
            return (tok.text if tok.kind == "num" else self.lex.ordinals[tok.low]), end
        if level in LETTER_LEVELS:
            return self.letter_value(i)
        if tok.kind == "num":
            j = i + 1
            if j < self.n and self.t[j].text == "." and level == "halbsatz":
                j += 1
            return tok.text, j
        if tok.kind == "word" and tok.low in self.lex.numbers:
            return self.lex.numbers[tok.low], i + 1
        if level == "absatz" and is_roman(tok):
            r = roman_to_int(tok.text)
            if r is not None:
                return str(r), i + 1
        return None

    def letter_value(self, i: int) -> tuple[str, int] | None:
        """A Buchstabe's value at i: 'a', 'aa', 'a)' or a range 'a-c'."""
        tok = self.t[i]
        if tok.kind == "word" and LETTER_RANGE.fullmatch(tok.text):
            return tok.text, i + 1
        if tok.kind == "word" and tok.text.islower() and len(tok.text) <= 3 and tok.text.isalpha():
            j = i + 1
            if j < self.n and self.t[j].text == ")":
                j += 1
            return tok.text, j
        return None

    def head(self, i: int) -> tuple[str, bool, int] | None:
        """A unit head at i: (unit, multi, index of the number)."""
        if i >= self.n:
            return None
        tok = self.t[i]
        if tok.kind == "sect":
            return ("§", len(tok.text) > 1, i + 1) if self.is_num(i + 1) else None
        head = self.lex.heads.get(tok.low) if tok.kind == "word" else None
        if head is None:
            return None
        unit, multi = head
        if unit == "Art" and tok.text[0].isupper():
            j = self.skip_dot(i + 1)
            if self.is_num(j):
                return unit, multi, j
        if unit == "§" and self.is_num(i + 1):
            return unit, multi, i + 1
        return None

    def phrase(self, kind: str, i: int) -> tuple[Phrase, int] | None:
        """The first ``kind`` phrase of the lexicon written at i: (phrase, index after it)."""
        for p in self.lex.phrases.get(kind, {}).get(self.low(i), ()):
            end = self.dotted_end(p.words, i) if "dotted" in p.flags else self.plain_end(p.words, i)
            if end is not None:
                return p, self.skip_dot(end) if "dot" in p.flags else end
        return None

    def plain_end(self, words: tuple[str, ...], i: int) -> int | None:
        if all(self.low(i + k) == w for k, w in enumerate(words)):
            return i + len(words)
        return None

    def dotted_end(self, words: tuple[str, ...], i: int) -> int | None:
        """'i. V. m.', 'i.V.m.': the words with dots between them, within two tokens per word."""
        j, limit = i, min(i + 2 * len(words), self.n)
        for w in words:
            while j < limit and self.t[j].text == ".":
                j += 1
            if j >= limit or self.t[j].low != w:
                return None
            j += 1
        return j

    def connector(self, i: int) -> tuple[str, int] | None:
        """Connector at i: (kind, index after); kind in ',', ';', 'and', 'range', 'ivm'."""
        if i >= self.n:
            return None
        text = self.t[i].text
        if text in (";", ","):
            after = self.phrase("connector", i + 1) if text == "," else None
            if after is not None and "comma" in after[0].flags:
                return after[0].value, self.skip_dot(i + 2)  # ", und", ", bzw." keep one connector
            return text, i + 1
        hit = self.phrase("connector", i)
        if hit is not None:
            p, j = hit
            if "slash" in p.flags and j < self.n and self.t[j].text == "/":
                j += 2  # und/oder
            return p.value, j
        if self.low(i) in self.lex.words("connector_lead"):
            return self.connector(i + 1)  # "jeweils bis"
        return None

    def version_at(self, i: int) -> tuple[int, str] | None:
        """'a. F.', 'nF', 'alter Fassung' at i: (index after, 'aF' | 'nF')."""
        hit = self.phrase("version", i)
        return (hit[1], hit[0].value) if hit is not None else None

    def ordinal(self, i: int) -> tuple[str, int] | None:
        """'1. Halbsatz', '2. Alt.', 'zweiter Halbsatz', 'erster Satz': (level, index of the value).

        The value index points at the ordinal itself; ``value`` reads it there."""
        if i + 1 >= self.n:
            return None
        tok = self.t[i]
        if tok.kind == "num" and tok.text.isdigit() and self.is_dot(i + 1):
            k = i + 2
        elif tok.kind == "word" and tok.low in self.lex.ordinals:
            k = i + 1
        else:
            return None
        if k >= self.n or self.t[k].kind != "word":
            return None
        level = self.keywords.get(self.t[k].low)
        if level not in self.lex.words("ordinal_level") or self.t[k].low in self.lex.words("noordinal"):
            return None
        after = self.skip_dot(k + 1)
        if self.value(level, after) is not None and self.t[after].kind == "num":
            return None  # "1. Satz 2" is no ordinal reading
        self.ordinal_end[(i, level)] = after
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
        if deepest == "buchstabe" and is_double_letter(text):
            return "doppelbuchstabe", i
        return None
