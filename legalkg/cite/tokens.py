"""A linear tokenizer for citation parsing.

Why a tokenizer: the grammar is a small state machine over tokens instead of one giant regex, so
the run time is linear in the input (no backtracking blow-ups on hostile input) and the same
machine serves court texts ("§ 5 III BGB") and statute texts ("nach Absatz 2 Satz 1").
"""

from __future__ import annotations

import re
from typing import NamedTuple

# Each alternative is a single simple class loop; no nested quantifiers, so matching is linear.
_TOKEN_RE = re.compile(r"(§+)|(\d+[^\W\d_]*)|([^\W\d_][\w\-]*)|([^\w\s])")
#: the same alternatives without groups: ``findall`` then gives the token texts, no Token built
_TEXT_RE = re.compile(r"§+|\d+[^\W\d_]*|[^\W\d_][\w\-]*|[^\w\s]")
_NUM_RE = re.compile(r"\d{1,6}[a-z]{0,3}")
_ROMAN_RE = re.compile(r"[IVX]{1,6}")


class Token(NamedTuple):
    text: str
    start: int
    end: int
    kind: str  # "sect" (§/§§), "num" (433, 69a), "word", "punct", "other"
    low: str  # text.lower(), stored once: the grammar asks for it several times per token


def tokenize(text: str) -> list[Token]:
    """Split ``text`` into tokens with character offsets (end exclusive).

    The hottest loop of citation extraction (millions of tokens per ingest): tokens are built with
    ``tuple.__new__`` (the NamedTuple constructor is a Python-level function) and the branches
    test the most frequent alternative, words, first.
    """
    out: list[Token] = []
    append = out.append
    new = tuple.__new__
    num = _NUM_RE.fullmatch
    for m in _TOKEN_RE.finditer(text):
        s = m.group()
        group = m.lastindex  # which alternative matched: no per-token character tests
        if group == 3:
            c = s[0]
            # a letter-class character that is no letter, e.g. "²" (isdigit, not \d)
            kind = "word" if c.isalpha() else ("other" if c.isdigit() else "punct")
        elif group == 4:
            kind = "punct"
        elif group == 2:
            kind = "num" if num(s) else "other"
        else:
            kind = "sect"
        start, end = m.span()
        append(new(Token, (s, start, end, kind, s.lower())))
    return out


def token_texts(text: str) -> list[str]:
    """The ``text`` of each token of ``tokenize(text)``, 6x faster: the law registry keys ~19,000
    law names this way on every start of ``legalkg cite``."""
    return _TEXT_RE.findall(text)


def is_roman(tok: Token) -> bool:
    return tok.kind == "word" and bool(_ROMAN_RE.fullmatch(tok.text))


_ROMAN_VALUES = {"I": 1, "V": 5, "X": 10}


def roman_to_int(s: str) -> int | None:
    """'III' -> 3, 'IV' -> 4, 'XII' -> 12; None for anything else."""
    if not _ROMAN_RE.fullmatch(s):
        return None
    total = 0
    prev = 0
    for ch in reversed(s):
        v = _ROMAN_VALUES[ch]
        if v < prev:
            total -= v
        else:
            total += v
            prev = v
    return total if 0 < total < 40 else None
