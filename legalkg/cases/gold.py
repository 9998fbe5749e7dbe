"""Gold citations from strings and annotated spans, and restriction to the laws in the graph.

Why one place: every dataset states its gold differently ("BGB § 573", "§ 574 Abs. 2 Nr. 2 ZPO",
node ids "BGB/§433/Abs1", annotated spans holding several §§). All of them go through the same
citation grammar (``legalkg.cite.extract``) or ``model.decode_id`` so gold and retrieved tuples
share one vocabulary. A citation without a § (a bare law name) is not a statute unit and is
dropped: it would be an implicit hit for every unit of its law.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from ..cite import extract
from ..model import Citation, decode_id

_NODE_ID = re.compile(r"^[^/\s§][^/]*/(?:§|Art|Anl)\S*$")


def is_node_id(s: str) -> bool:
    """'BGB/§433/Abs1' or 'SGB V/§5' (a law key, then '/§...', no blanks after the law)."""
    return bool(_NODE_ID.match(s.strip()))


def citations_in(text: str, registry: Any = None, default_law: str | None = None) -> list[Citation]:
    """Distinct citations (with a § and a law) that the citation grammar finds in ``text``.

    A law the registry does not know keeps its name as written ("WoEigG"), so it counts as gold
    outside the graph in the coverage figure; a citation naming no law at all is dropped.
    """
    out: dict[Citation, None] = {}
    for m in extract(text, default_law=default_law, registry=registry):
        c = m.citation
        if c.para and c.law:
            out.setdefault(c, None)
    return list(out)


class ParsedGold(NamedTuple):
    citations: list[Citation]
    unparsed: list[str]


def parse_gold_strings(items: Iterable[str], registry: Any = None) -> ParsedGold:
    """Gold strings -> distinct citations; strings the grammar cannot read are returned apart."""
    out: dict[Citation, None] = {}
    bad: list[str] = []
    for s in items:
        s = str(s).strip()
        if not s:
            continue
        if is_node_id(s):
            cits = [decode_id(s)]
        else:
            cits = citations_in(s, registry)
        cits = [c for c in cits if c.para]
        if not cits:
            bad.append(s)
        for c in cits:
            out.setdefault(c, None)
    return ParsedGold(list(out), bad)


def parse_gold_spans(text: str, spans: Sequence[tuple[int, int]], registry: Any = None) -> ParsedGold:
    """Annotated citation spans of ``text`` (one span may hold several §§) -> distinct citations."""
    out: dict[Citation, None] = {}
    bad: list[str] = []
    for start, end in spans:
        cits = citations_in(text[start:end], registry)
        if not cits:
            bad.append(text[start:end])
        for c in cits:
            out.setdefault(c, None)
    return ParsedGold(list(out), bad)


def restrict(gold: Iterable[Citation], law_keys: Iterable[str]) -> list[Citation]:
    """Only the citations whose law is in ``law_keys`` (the laws of the graph)."""
    keys = set(law_keys)
    return [c for c in gold if c.law in keys]
