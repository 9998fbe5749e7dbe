"""The citation lexicon: the words the grammar reads, loaded from ``legalkg/data/cite_lexicon.tsv``.

Why data: the grammar's walk (``chain``, ``relative``) is the same for every word of a kind. A new
keyword, connector or head is then a row of the file and a test, not a code change; the walker asks
the ``Lexicon`` what a token is. The file's format is in docs/citations.md ("The lexicon"); every row
is checked on load, and a broken row is one ``LexiconError`` naming the file, the line and the fix.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

from ..errors import UserError

#: Sub-levels in citation order; the rank decides "deeper" (extend) vs "sibling" (new reference).
LEVELS: tuple[str, ...] = ("absatz", "satz", "halbsatz", "nummer", "buchstabe",
                           "doppelbuchstabe", "alternative")

#: kind -> (what its value must be, the flags it may carry)
KINDS: dict[str, tuple[str, frozenset[str]]] = {
    "keyword": ("level", frozenset({"dot", "upper", "norel", "nostart", "noordinal"})),
    "ordinal_level": ("", frozenset()),
    "number": ("digits", frozenset()),
    "ordinal": ("digits", frozenset()),
    "ordinal_ending": ("", frozenset()),
    "para_head": ("", frozenset({"multi"})),
    "art_head": ("", frozenset({"multi"})),
    "connector": ("connector", frozenset({"dot", "comma", "slash", "dotted"})),
    "connector_lead": ("", frozenset()),
    "direction": ("direction", frozenset()),
    "version": ("version", frozenset({"dot"})),
    "own_law": ("", frozenset()),
    "article": ("", frozenset()),
    "name_adjective": ("", frozenset()),
    "law_part": ("", frozenset()),
    "not_abbrev": ("", frozenset()),
    "commentary": ("", frozenset()),
}
VALUES: dict[str, frozenset[str]] = {
    "level": frozenset(LEVELS),
    "connector": frozenset({"and", "range", "ivm"}),
    "direction": frozenset({"<prev>", "<next>"}),
    "version": frozenset({"aF", "nF"}),
}
DEFAULT_FILE = "cite_lexicon.tsv"


class LexiconError(UserError):
    """A row of a lexicon file the grammar cannot use."""


@dataclass(frozen=True)
class Row:
    kind: str
    word: str
    value: str
    flags: frozenset[str]


@dataclass(frozen=True)
class Phrase:
    """A connector, version or own-law form of one or more tokens (lower-case token texts)."""

    words: tuple[str, ...]
    value: str
    flags: frozenset[str]


@dataclass(frozen=True, eq=False)
class Lexicon:
    """The rows of one lexicon file as look-up tables (identity-hashed: one per file read)."""

    rows: tuple[Row, ...]
    keywords: dict[str, str] = field(default_factory=dict)
    numbers: dict[str, str] = field(default_factory=dict)
    ordinals: dict[str, str] = field(default_factory=dict)
    directions: dict[str, str] = field(default_factory=dict)
    heads: dict[str, tuple[str, bool]] = field(default_factory=dict)  # word -> (unit, multi)
    phrases: dict[str, dict[str, tuple[Phrase, ...]]] = field(default_factory=dict)  # kind -> first word ->
    sets: dict[str, frozenset[str]] = field(default_factory=dict)  # kind or keyword flag -> words

    def words(self, kind: str) -> frozenset[str]:
        return self.sets.get(kind, frozenset())

    def starters(self) -> frozenset[str]:
        """Lower-case words at which a chain can start: heads, keywords and direction words."""
        return frozenset({*self.keywords, *self.directions, *self.heads} - self.words("nostart"))


def parse_row(line: str, where: str) -> Row | None:
    """One line of the file as a ``Row`` (None for a blank or '#' line); a broken row raises."""
    if not line.strip() or line.startswith("#"):
        return None
    cells = line.rstrip("\n").split("\t")
    fix = "write 'kind<TAB>word<TAB>value<TAB>flags' as docs/citations.md describes"
    if len(cells) < 2 or len(cells) > 4 or not cells[1].strip():
        raise LexiconError(f"{where}: a row needs 2 to 4 tab-separated cells (kind, word, value, flags); {fix}")
    kind, word = cells[0], " ".join(cells[1].split())
    value = cells[2] if len(cells) > 2 else ""
    flags = frozenset(f for f in (cells[3] if len(cells) > 3 else "").split(",") if f)
    if kind not in KINDS:
        raise LexiconError(f"{where}: unknown kind {kind!r}; use one of {', '.join(KINDS)}")
    want, allowed = KINDS[kind]
    if want == "digits" and not value.isdigit() or want in VALUES and value not in VALUES[want]:
        choices = "a number" if want == "digits" else ", ".join(sorted(VALUES[want]))
        raise LexiconError(f"{where}: {kind} {word!r} has value {value!r}; use {choices}")
    if not want and value:
        raise LexiconError(f"{where}: {kind} {word!r} takes no value; leave the third cell empty")
    if flags - allowed:
        raise LexiconError(f"{where}: {kind} {word!r} has unknown flags {sorted(flags - allowed)}; "
                           f"use {', '.join(sorted(allowed)) or 'none'}")
    if kind != "not_abbrev" and word != word.lower():
        raise LexiconError(f"{where}: {kind} {word!r} must be lower-case (tokens are compared lower-case)")
    if kind == "ordinal_level" and word not in LEVELS:
        raise LexiconError(f"{where}: ordinal_level {word!r} is no level; use one of {', '.join(LEVELS)}")
    return Row(kind, word, value, flags)


def read_rows(lines: Iterable[str], name: str) -> tuple[Row, ...]:
    """The rows of a lexicon file; a row given twice is an error (which of them counts?)."""
    rows, seen = [], {}
    for n, line in enumerate(lines, start=1):
        row = parse_row(line, f"{name}:{n}")
        if row is None:
            continue
        key = (row.kind, row.word)
        if key in seen:
            raise LexiconError(f"{name}:{n}: {row.kind} {row.word!r} is already on line {seen[key]}; "
                               "keep one of the two rows")
        seen[key] = n
        rows.append(row)
    return tuple(rows)


def build(rows: tuple[Row, ...]) -> Lexicon:
    """The look-up tables of ``rows``."""
    lex = Lexicon(rows=rows)
    sets: dict[str, set[str]] = {}
    phrases: dict[str, dict[str, list[Phrase]]] = {}
    endings = [r.word for r in rows if r.kind == "ordinal_ending"]
    for r in rows:
        sets.setdefault(r.kind, set()).add(r.word)
        if r.kind == "keyword":
            lex.keywords[r.word] = r.value
            for f in r.flags:
                sets.setdefault(f, set()).add(r.word)
        elif r.kind in ("number", "direction"):
            (lex.numbers if r.kind == "number" else lex.directions)[r.word] = r.value
        elif r.kind == "ordinal":
            lex.ordinals.update({r.word + e: r.value for e in endings})
        elif r.kind in ("para_head", "art_head"):
            lex.heads[r.word] = ("§" if r.kind == "para_head" else "Art", "multi" in r.flags)
        elif r.kind in ("connector", "version", "own_law"):
            phrase = Phrase(tuple(r.word.split()), r.value, r.flags)
            phrases.setdefault(r.kind, {}).setdefault(phrase.words[0], []).append(phrase)
    lex.sets.update({k: frozenset(v) for k, v in sets.items()})
    lex.phrases.update({k: {w: tuple(ps) for w, ps in d.items()} for k, d in phrases.items()})
    return lex


def load(path: str | Path) -> Lexicon:
    """The lexicon in ``path`` (a copy of the shipped file with rows added, in tests)."""
    p = Path(path)
    try:
        text = p.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise LexiconError(f"cannot read the citation lexicon {p}: {err}; "
                           "restore it from git (git checkout -- legalkg/data)") from None
    return build(read_rows(text.splitlines(), p.name))


@lru_cache(maxsize=1)
def default() -> Lexicon:
    """The shipped lexicon, read once per process."""
    return load(Path(str(resources.files("legalkg.data").joinpath(DEFAULT_FILE))))
