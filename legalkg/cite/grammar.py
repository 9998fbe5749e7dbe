"""The citation grammar: where in a text citation chains start, and the chains found there.

One walk serves both jobs of the room:
- court texts ("§ 574 Abs. 2 Nr. 2 ZPO", "§ 5 III BGB", "§§ 3, 5 Abs. 1 UWG", "SGB V § 13"),
- statute texts, which add relative references ("nach Absatz 2", "Satz 1 Nr. 2",
  "des vorstehenden Absatzes") and reversed forms ("Absatz 4 des § 59a").

The words it reads are data (``lexicon``: legalkg/data/cite_lexicon.tsv); what a token means is
``reader``, a reference's parts ``levels``, the walk over a chain ``chain`` and over a relative
reference ``relative``. It only decodes *what is written*; deciding which node a reference means
(implicit Satz, ranges over suffixed §§, "f.") needs the graph and happens in ``resolve``/``statute``.
Every loop advances the token index, so the run time is linear in the input.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from . import lexicon as lexicon_mod
from .chain import parse_chain
from .lexicon import LEVELS, Lexicon
from .reader import Reader
from .refs import RANK, Chain, RawRef, expand_value_range
from .registry import LawRegistry
from .relative import parse_relative
from .tokens import Token, tokenize

__all__ = ["LEVELS", "RANK", "TRIGGER", "Chain", "RawRef", "candidates", "expand_value_range",
           "prefix_tree", "scan", "scan_tokens", "trigger_re"]


def trigger_re(lexicon: Lexicon, flat: bool = False) -> re.Pattern[str]:
    """Text without any of these words cannot hold a chain: every chain starts at a § token, an
    Art./Paragraph head or a level keyword / direction word (see ``scan``). The pattern is a
    superset of those tokens (a word token is a maximal run of letters, digits, _ and - that
    starts with a letter, so it is never preceded by a letter or digit).

    The words are written as a prefix tree: ``re`` tries the alternatives of a flat list one by one
    at every position of a text, the tree rejects most positions at their first letter. ``flat``
    gives the flat list, longest word first (the same matches; tests and benchmarks compare them).
    """
    words = lexicon.starters()
    alts = ("|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)) if flat
            else prefix_tree(set(words)))
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


@lru_cache(maxsize=8)
def tables(lexicon: Lexicon) -> tuple[re.Pattern[str], frozenset[str]]:
    """The trigger pattern and the starter words of ``lexicon``, built once per lexicon."""
    return trigger_re(lexicon), lexicon.starters()


#: A § sign or a word at which a chain can start (``trigger_re``): a text it does not match cites
#: nothing, so ``scan`` and ``unitscan`` skip tokenizing it (most statute sentences cite nothing).
TRIGGER = tables(lexicon_mod.default())[0]


def scan(text: str, registry: LawRegistry, relative: bool = False,
         lexicon: Lexicon | None = None) -> list[Chain]:
    """All citation chains in ``text`` in order; ``relative`` also yields §-less references.
    ``lexicon`` replaces the shipped word lists (a test of a new row)."""
    lex = lexicon or lexicon_mod.default()
    if tables(lex)[0].search(text) is None:
        return []  # most statute sentences cite nothing: skip tokenizing them
    tokens = tokenize(text)
    return scan_tokens(tokens, candidates(tokens, lex), registry, relative, lex)


def candidates(tokens: Sequence[Token], lexicon: Lexicon | None = None) -> list[int]:
    """Indices of the tokens at which a chain can start (a § or a starter word), ascending.

    Every other token is stepped over by :func:`scan_tokens` without a look, so computing these once
    for a § lets each of its Absätze and Sätze be scanned over its share of them (``unitscan``).
    """
    starters = tables(lexicon or lexicon_mod.default())[1]
    return [i for i, tok in enumerate(tokens)
            if tok.kind == "sect" or (tok.kind == "word" and tok.low in starters)]


def scan_tokens(tokens: Sequence[Token], starts: Sequence[int], registry: LawRegistry,
                relative: bool = False, lexicon: Lexicon | None = None) -> list[Chain]:
    """The chains of ``tokens``, trying a parse only at ``starts`` (:func:`candidates` of ``tokens``).

    The same walk as trying every token: a parse at i yields a chain ending at j, and the walk goes on at
    max(j, i + 1); any other token only moves the walk one step on.
    """
    p = Reader(tokens, registry, relative, lexicon or lexicon_mod.default())
    out: list[Chain] = []
    resume = 0
    for i in starts:
        if i < resume:
            continue  # inside the chain found before
        parsed = parse_at(p, i)
        if parsed is None:
            continue
        chain, j = parsed
        if chain is not None and not is_secondary(p, i, j, chain):
            out.append(chain)
        resume = max(j, i + 1)
    return out


def parse_at(p: Reader, i: int) -> tuple[Chain | None, int] | None:
    """The chain that starts at token i (None: none starts there; (None, j): one was read up to j
    but dropped, a purely relative reference in court mode)."""
    tok = p.t[i]
    if p.head(i) is not None:
        return parse_chain(p, i)
    if tok.kind == "word" and (tok.low in p.keywords or tok.low in p.lex.directions):
        parsed = parse_relative(p, i)
        if parsed is not None and not p.relative and all(r.unit is None for r in parsed[0].refs):
            return None, parsed[1]  # court mode: drop purely relative references
        return parsed
    return None


def is_secondary(p: Reader, i: int, j: int, chain: Chain) -> bool:
    """A § inside a commentary or reporter citation, not a statute citation.

    "Fischer, StGB, 64. Aufl., § 177 Rn. 129" cites a commentary's margin number and
    "BGHR StGB § 63 Gefährlichkeit 35" a reporter's keyword entry; neither is a statute citation.
    """
    tokens = p.t
    k = j
    while k < len(tokens) and tokens[k].text in (",", "."):
        k += 1
    if k < len(tokens) and tokens[k].low in p.lex.words("commentary"):
        return True
    first = chain.start
    b = i - 1
    while b >= 0 and tokens[b].end > first:
        b -= 1  # skip a prefix law name already inside the chain
    for back in range(b, max(b - 3, -1), -1):
        if tokens[back].text == "BGHR":
            return True
    return False
