"""Text from the web -> text the grammar reads, with a map back to the original offsets.

Why before the grammar: a citation copied from a web page holds HTML entities (``&#167;&#167;``,
``&sect;``, ``&nbsp;``), non-breaking and thin spaces, soft hyphens, zero-width and bidi marks and
line breaks (``Ab-\\nsatz``). The tokenizer splits on none of them the way it splits on a blank, so one
such character ends a chain. ``normalize`` rewrites them in one linear pass; every output character
knows the original span it came from, so matches keep offsets into the text the caller passed.
"""

from __future__ import annotations

import html
import re

#: Characters that are removed: soft hyphen, zero-width and bidi controls, BOM, word joiner.
_DROP = frozenset("\u00ad\u200b\u200c\u200d\u200e\u200f\u2060\ufeff\u202a\u202b\u202c\u202d\u202e"
                  "\u2066\u2067\u2068\u2069\u061c")
#: Space-like characters read as a blank (nbsp, en/em/thin/hair/narrow spaces, ideographic space).
_SPACE = frozenset("\u00a0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
                   "\u202f\u205f\u3000\t\r\f\v")
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z]{2,8});")
#: a line break hyphenation: letter, '-', line break (and indentation), a lower-case letter
_HYPHEN_BREAK = re.compile(r"-[ \t]*\n[ \t]*(?=[a-zäöüß])")
_WHITE_RUN = re.compile(r"[ \t\r\f\v\n\u00a0\u2000-\u200a\u202f\u205f\u3000]*")
_NEEDS = re.compile("[&\n" + "".join(sorted(_DROP | _SPACE)) + "]")


class Offsets:
    """Per output character: the original span [start, end) it came from."""

    __slots__ = ("starts", "ends")

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original (start, end) of the normalised span [start, end)."""
        if end <= start:
            s = self.starts[start] if start < len(self.starts) else (self.ends[-1] if self.ends else 0)
            return s, s
        return self.starts[start], self.ends[end - 1]


def normalize(text: str) -> tuple[str, Offsets | None]:
    """(normalised text, offsets back to ``text``); offsets is None when the text needed no change.

    One pass, each original character read a bounded number of times (linear in the text).
    """
    if _NEEDS.search(text) is None:
        return text, None
    out: list[str] = []
    off = Offsets()
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "&":
            m = _ENTITY.match(text, i)
            value = html.unescape(m.group()) if m is not None else ch
            if m is not None and value != m.group():
                for c in value:
                    _put(out, off, c, i, m.end())
                i = m.end()
                continue
        elif ch == "-" and out and out[-1].isalpha():
            m = _HYPHEN_BREAK.match(text, i)
            if m is not None:  # "Ab-\nsatz" -> "Absatz"
                i = m.end()
                continue
        elif ch == "\n" or ch in _SPACE:
            m = _WHITE_RUN.match(text, i)
            if text.count("\n", i, m.end()) < 2:  # a blank line keeps its breaks: a new paragraph
                if out and out[-1] == " ":
                    off.ends[-1] = m.end()
                else:
                    _put(out, off, " ", i, m.end())
                i = m.end()
                continue
        _put(out, off, ch, i, i + 1)
        i += 1
    return "".join(out), off


def _put(out: list[str], off: Offsets, ch: str, start: int, end: int) -> None:
    if ch in _DROP:
        return
    out.append(" " if ch in _SPACE else ch)
    off.starts.append(start)
    off.ends.append(end)
