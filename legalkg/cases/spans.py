"""The citation grammar's reading of a decision, remembered per citation span.

Why: decisions cite the same norms in the same words over and over ("§ 573 Abs. 2 Nr. 2 BGB",
"§ 91 Abs. 1 ZPO"), and the grammar (``cite.extract``) reads every character of a line to find them.
A line whose citations all stand in plain running text is read here span by span: a *span* runs
from a unit head ('§', 'Art.', 'Paragraph') to the first lower-case word that no law name and no
word of the grammar's lexicon holds ("ist", "liegt", "verlangt"), and what the grammar reads in a
span (the units it resolves to, the citations without a unit) is remembered under the span's text.

When the span gives what the whole line gives: the grammar starts a chain at a head or at a word of
its lexicon, reads law names from the registry (and abbreviation-like or '-gesetz' words), looks
at most a few tokens past a chain's end and stops at a lower-case word it cannot read (running
text), and looks back from a head for a law name that ends right before it ('SGB V § 13') and for a
reporter ('BGHR'). So a span is read alone only where the word before its head is such a plain
lower-case word (or the line starts there) and no 'BGHR' stands shortly before it; where no case-law
citation lies within 60 characters before and 20 after it (``caselaw.holds`` would ask); where it
holds no range ('§§ 1 bis 5': the grammar's budget for expanding ranges is shared by a line); and
where no character that ``cite.normalize`` drops or rewrites lies near it. Any head not in such a
span sends the whole line to the grammar, as before. tests/cases/test_spans.py compares both on
every shared LER decision.

The words no law name holds are computed from the same name sources as ``LawRegistry.default()``
(the packaged names of every gii law and the shared MANIFEST.tsv, ``law_aliases.tsv``, the default
codes, the other-law table, the SGB book names), as lower-case tokens with the genitive endings the
registry adds.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Container, Iterator
from functools import lru_cache
from importlib import resources
from typing import NamedTuple

from .. import codes, lawnames, paths
from ..cite import cases
from ..cite.court import extract, resolve
from ..cite.lawstatus import table as other_law_table
from ..cite.lexicon import default as default_lexicon
from ..cite.registry import name_key, sgb_names
from ..cite.tokens import token_texts

#: A unit head: '§'/'§§' or a head word of the lexicon ('Art.', 'Artikel', 'Paragraph').
HEAD = re.compile(r"§|(?<![^\W_])(?:" + "|".join(sorted((re.escape(w) for w in default_lexicon().heads),
                                                       key=len, reverse=True)) + r")(?![\w\-])", re.IGNORECASE)
#: A plain lower-case word (a whitespace-delimited chunk of letters only).
#: A plain word's chunk: lower-case letters, maybe punctuation after them ('wirksam;').
_LOWER_WORD = re.compile(r"([a-zäöüß]{2,})[.,;:!?)]*")
_CHUNK = re.compile(r"\S+")
_WORDISH = re.compile(r"\w")
#: Words at which the grammar starts a chain (heads, level keywords, direction words).
_STARTERS = default_lexicon().starters()
#: A range the grammar may expand ('1 bis 5', '1-5', '§§ 3 – § 7').
RANGE = re.compile(r"\d\s*(?:bis|[-–—])\s*(?:§+\s*)?\d")
#: Characters ``cite.normalize`` drops or rewrites (entities, soft hyphens, zero-width and bidi marks).
SHIFTS = re.compile("[&\u00ad\u200b\u200c\u200d\u200e\u200f\u2060\ufeff\u202a-\u202e\u2066-\u2069\u061c]")
#: What ``caselaw.holds`` reads around a chain, and how far back a reporter ('BGHR StGB § 63') stands.
CASE_BEFORE, CASE_AFTER = 60, 20
REPORTER_BACK = 40
#: Lower-case words the grammar's code reads besides its lexicon ('§§ 154 ff VwGO'; the commentary
#: words after a law name); tests/cases/test_spans.py checks the grammar's modules for others.
GRAMMAR_WORDS = frozenset({"ff", "aufl", "neubearb", "bd", "ed", "rn", "rdn", "rdnr", "kommentar", "komm", "hrsg",
                           "lfg", "stand", "jeweils"})
#: How far before a head the line is read for a chain reaching into it.
LOOK_BACK = 200
NEAR_BACK = 40
#: A span longer than this is not remembered (it is read with its line).
MAX_SPAN = 300
#: Spans remembered at once (the memory is emptied when full).
CACHE_SIZE = 200_000

#: What a span reads as: per statute citation with a law and a § (in text order), the deepest unit
#: in the graph (None: none) and the citation's chain as written.
Reading = tuple[tuple[str | None, str], ...]


def _genitives(token: str) -> tuple[str, ...]:
    return token, token + "s", token + "es", token[:-2] + "en" if token.endswith("es") else token


def _names() -> list[str]:
    """Every law name the registry may hold, as written (before its genitive forms)."""
    names: list[str] = []
    for law in lawnames.table():
        names += [*law.jurabks, law.amtabk or "", law.kurzue or "", law.title]
    manifest = paths.gii_manifest()
    if manifest is not None and manifest.exists():
        with open(manifest, encoding="utf-8", newline="") as fh:
            for r in csv.DictReader(fh, delimiter="\t"):
                names += [*(r.get("jurabk") or "").split("|"), r.get("amtabk") or "", r.get("title") or ""]
    aliases = resources.files("legalkg.data").joinpath("law_aliases.tsv").read_text("utf-8")
    names += [r["alias"] for r in csv.DictReader(aliases.splitlines(), delimiter="\t")]
    names += [n for c in codes.default_codes() for n in (c.cited, c.jurabk, c.amtabk or "")]
    names += [n for book in range(1, 15) for n in sgb_names(book)]
    names += [" ".join(key) for key in other_law_table()]
    return names


@lru_cache(maxsize=1)
def lexicon_words() -> frozenset[str]:
    """Every word of the grammar's lexicon, lower case."""
    lex = default_lexicon()
    words = {w for r in lex.rows for w in name_key(r.word)}
    words |= {*lex.keywords, *lex.numbers, *lex.ordinals, *lex.directions, *lex.heads}
    words |= {w for kind in lex.phrases.values() for ps in kind.values() for p in ps for w in p.words}
    words |= {w for s in lex.sets.values() for w in s}
    return frozenset(words)


class Vocabulary(NamedTuple):
    #: words a chain may read after a head: every lower-cased token of every law name (with the
    #: genitive endings the registry adds), every lexicon word and every word the grammar's code reads
    after: frozenset[str]
    #: law names of at most 4 tokens, as stems (``_stem``): a name the grammar may read before a head
    short_names: frozenset[tuple[str, ...]]


@lru_cache(maxsize=1)
def vocabularies() -> Vocabulary:
    keys = [name_key(n) for n in _names()]
    after = {g for key in keys for t in key for g in _genitives(t)} | lexicon_words() | GRAMMAR_WORDS
    short = {tuple(_stem(t) for t in key) for key in keys if 0 < len(key) <= 4}
    return Vocabulary(frozenset(after), frozenset(short))


def plain(word: str, words: Container[str]) -> bool:
    """A lower-case word no law name and no lexicon row holds: the grammar reads it as running text."""
    m = _LOWER_WORD.fullmatch(word)
    return m is not None and m.group(1) not in words


def _stem(token: str) -> str:
    """A name token without a genitive ending: names are compared on stems (so 'Gesetzbuchs' and
    'Gesetzbuch' meet; a few more names meet than the registry's, which only sends more lines whole)."""
    for end in ("es", "en", "s"):
        if token.endswith(end) and len(token) > len(end) + 1:
            return token[:-len(end)]
    return token


def spans(line: str, vocab: Vocabulary) -> list[tuple[int, int]] | None:
    """(start, end) of the spans of ``line`` that can be read alone, covering every unit head; None
    when some head stands where only the whole line gives its reading.

    A span runs from a head to the last word before the first plain word (a word no law name and no
    lexicon row holds). Before its head, back to the previous plain word, the line holds no word a
    chain starts at (a head, a level keyword, a direction word) and no law name ends right before
    the head ('BGB § 433'), so no chain reaches into it."""
    out: list[tuple[int, int]] = []
    done = 0  # where the previous span ended
    for m in HEAD.finditer(line):
        h = m.start()
        if h < done:
            continue
        if not _open_before(line, h, done, vocab):
            return None
        end = h
        for c in _CHUNK.finditer(line, h):
            if c.start() > h and plain(c.group(), vocab.after):
                break
            end = c.end()
            if end - h > MAX_SPAN:
                return None
        out.append((h, end))
        done = end
    return out


def _open_before(line: str, h: int, done: int, vocab: Vocabulary) -> bool:
    """Whether no chain reaches into the head at ``h`` from before it (back to ``done``)."""
    if h > 0 and not line[h - 1].isspace() and _WORDISH.search(line[max(0, h - 40):h].split()[-1]):
        return False  # a head inside a word
    for reach in (NEAR_BACK, LOOK_BACK):
        lo = max(done, h - reach)
        tokens: list[str] = []
        words = line[lo:h].split()
        if lo > 0 and not line[lo - 1].isspace():
            words = words[1:]  # a word cut by the reach is no word
        for w in reversed(words):
            if plain(w, vocab.after):
                break
            tokens[:0] = [t.lower() for t in token_texts(w)]
        else:
            if lo > done and lo > 0:
                if reach == LOOK_BACK:
                    return False  # no plain word within reach
                continue
        break
    if any(t in _STARTERS or t.startswith("§") for t in tokens):
        return False
    stems = [_stem(t) for t in tokens if t != "."][-4:]
    if any(tuple(stems[i:]) in vocab.short_names for i in range(len(stems))):
        return False
    return "BGHR" not in line[max(0, h - REPORTER_BACK):h]


def context_ok(line: str, s: int, e: int) -> bool:
    text = line[s:e]
    if RANGE.search(text):
        return False
    around = line[max(0, s - CASE_BEFORE):e + CASE_AFTER]
    return not SHIFTS.search(around) and not cases(around)


class SpanReader:
    """Statute citations of decision lines, each plain span read once by the grammar and then
    remembered (per worker process: ``known`` and ``registry`` are fixed for a run)."""

    def __init__(self, known: Container[str], registry=None) -> None:
        self.known, self.registry = known, registry
        self.vocab = vocabularies()
        self.memory: dict[str, Reading] = {}
        self.hits = self.misses = self.whole_lines = 0

    def read_text(self, text: str) -> Reading:
        """What the grammar reads in ``text`` as a whole: (unit or None, chain as written) per statute
        citation with a law and a §."""
        out = []
        for m in extract(text, registry=self.registry, known=self.known):
            if m.law_key and m.para:
                out.append((resolve(m, self.known), text[m.chain_start:m.chain_end]))
        return tuple(out)

    def span(self, text: str) -> Reading:
        got = self.memory.get(text)
        if got is not None:
            self.hits += 1
            return got
        self.misses += 1
        if len(self.memory) >= CACHE_SIZE:
            self.memory.clear()
        got = self.memory[text] = self.read_text(text)
        return got

    def read(self, piece: str) -> Iterator[tuple[str | None, str]]:
        """(unit or None, chain as written) of every statute citation of ``piece``, in text order, as
        the grammar reads each of its lines (a citation never crosses a line end:
        ``decisions.marked_runs``)."""
        for line in piece.split("\n"):
            found = spans(line, self.vocab)
            if found is None or not all(context_ok(line, s, e) for s, e in found):
                self.whole_lines += 1
                yield from self.read_text(line)
                continue
            for s, e in found:
                yield from self.span(line[s:e])
