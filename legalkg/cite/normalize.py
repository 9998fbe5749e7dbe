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
_LOWER_START = frozenset("abcdefghijklmnopqrstuvwxyzäöüß")
_WHITE_RUN = re.compile(r"[ \t\r\f\v\n\u00a0\u2000-\u200a\u202f\u205f\u3000]*")
_NEEDS = re.compile("[&\n" + "".join(sorted(_DROP | _SPACE)) + "]")
#: what changes offsets: an entity, a dropped character; and a hyphenated line break ("Ab-\nsatz")
_SHIFTS = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z]{2,8});|[" + "".join(sorted(_DROP)) + "]")
_HYPHEN_LINE = re.compile(r"[^\W\d_]-[ \t]*\n[ \t]*[a-zäöüß]")
_ONE_FOR_ONE = {ord(c): " " for c in _SPACE | {"\n"}}


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
    """(normalised text, offsets back to ``text``); offsets is None when every character kept its
    offset (space-like characters and line breaks become blanks one for one: ``str.translate``).

    Only entities, dropped characters and hyphenated line breaks change lengths: then one pass over
    those (``_NEEDS``) maps every output character to its origin; the runs between are copied whole.
    Each original character is read a bounded number of times: linear in the text.
    """
    if _SHIFTS.search(text) is None and _HYPHEN_LINE.search(text) is None:
        return text.translate(_ONE_FOR_ONE), None
    out: list[str] = []
    off = Offsets()
    pos, n = 0, len(text)
    for m in _NEEDS.finditer(text):
        i = m.start()
        if i < pos:
            continue  # inside an entity or a whitespace run already read
        _copy(out, off, text, pos, i)
        pos = _special(out, off, text, i)
    _copy(out, off, text, pos, n)
    return "".join(out), off


def _copy(out: list[str], off: Offsets, text: str, a: int, b: int) -> None:
    if a < b:
        out.extend(text[a:b])
        off.starts.extend(range(a, b))
        off.ends.extend(range(a + 1, b + 1))


def _special(out: list[str], off: Offsets, text: str, i: int) -> int:
    """Write the normalised form of the special character at ``i``; the index after what it read."""
    ch = text[i]
    if ch == "&":
        m = _ENTITY.match(text, i)
        value = html.unescape(m.group()) if m is not None else ch
        if m is None or value == m.group():
            _put(out, off, ch, i, i + 1)
            return i + 1
        for c in value:
            _put(out, off, c, i, m.end())
        return m.end()
    if ch in _DROP:
        return i + 1
    m = _WHITE_RUN.match(text, i)
    if ch == "\n" and len(out) > 1 and out[-1] == "-" and out[-2].isalpha():
        after = m.end()
        if after < len(text) and text[after] in _LOWER_START and text.count("\n", i, after) == 1:
            out.pop()  # "Ab-\nsatz" -> "Absatz"
            off.starts.pop()
            off.ends.pop()
            return after
    if text.count("\n", i, m.end()) >= 2:  # a blank line keeps its breaks: a new paragraph
        _copy(out, off, text, i, m.end())
        return m.end()
    if out and out[-1] == " ":
        off.ends[-1] = m.end()
    else:
        _put(out, off, " ", i, m.end())
    return m.end()


def _put(out: list[str], off: Offsets, ch: str, start: int, end: int) -> None:
    if ch in _DROP:
        return
    out.append(" " if ch in _SPACE else ch)
    off.starts.append(start)
    off.ends.append(end)
