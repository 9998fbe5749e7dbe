"""Broken references: statute citations that point to a § that is not in the law, or to a repealed
unit (``legalkg references --broken``). Pure: parsed laws in, rows out, no Neo4j.

Why from the parse and not the graph: the graph keeps only the citations that reach a unit; the
rest are what drafters and editors need, with the citing unit and the words as written. A reference
is judged against the laws parsed together (the ``--codes`` of the run): a law outside them is
``law_not_in_graph``, not broken, and is left out of these rows.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator

from pydantic import BaseModel

from ..cite import KnownUnits, LawRegistry, statute_edges
from ..cite.statute import BrokenRef
from ..cite.tokens import tokenize
from ..model import TEXT_LEVELS, Law, decode_id

#: the statuses this report lists: the reference names a unit of a law at hand that is not there
BROKEN = ("missing_unit", "repealed")
_REASONS = {
    "repealed": "the cited unit is repealed (weggefallen or aufgehoben)",
    "missing_unit": "the cited § or Artikel is not in the law",
    "missing_relative": "the cited Absatz, Satz or Nummer is not in the citing §",
}
#: another law named in words or as a book of a code ("des Vierten Buches", "der Verordnung (EU) Nr. ...")
_OTHER_BOOK = re.compile(r"\b(?:des|der|dem|den)\s+[A-ZÄÖÜ]\w+en\s+Buch(?:es|s)?\b|\b[A-ZÄÖÜ]\w+es\s+Buch\b"
                         r"|\((?:EU|EG|EWG|Euratom)\)")
_OLD_VERSION = re.compile(r"geltenden\s+Fassung|\ba\.\s?F\.|\bin\s+der\s+Fassung\b|\bfrüheren\s+Fassung")
_ARTICLE_BEFORE = re.compile(r"Artikels?\s+\d+\w*\s*$")
_OTHER_PARA = re.compile(r"§§?\s*\d|Artikels?\s+\d|Art\.\s*\d")
_TABLE_NUMBER = re.compile(r"Nr\.\s*\d{3,}")
COLUMNS = ("source", "source_citation", "reference", "target", "status", "reason", "satz")


class BrokenRow(BaseModel):
    source: str
    source_citation: str
    reference: str
    target: str
    status: str
    reason: str
    satz: str


def _row(b: BrokenRef, texts: dict[str, str]) -> BrokenRow:
    relative = b.status == "missing_unit" and not any(m in b.target for m in ("§ ", "Art. "))
    target = decode_id(b.target).human() if b.status == "repealed" else b.target
    return BrokenRow(source=b.source, source_citation=decode_id(b.source).human(), reference=b.text, target=target,
                     status=b.status, reason=_REASONS["missing_relative" if relative else b.status],
                     satz=texts.get(b.source, "")[:500])


def gap_of(b: BrokenRef, law: Law, text: str, registry: LawRegistry) -> str | None:
    """Why an unresolved reference is more likely the parser's gap than a dangling reference, or None.

    - ``annex_numbering``: the citing unit is an Anlage (fee and penalty tables number their own items,
      "Nr. 2303 VV", which are no units of the tree);
    - ``old_version``: the text cites a former version ("in der am ... geltenden Fassung");
    - ``law_named_elsewhere``: the reference took the citing law because the grammar read no law for it,
      but the sentence names another law ("die §§ 920, 921, ..., 945 der Zivilprozessordnung").
    """
    para = b.source.split("/")[1] if "/" in b.source else ""
    relative = b.status == "missing_unit" and not any(m in b.target for m in ("§ ", "Art. "))
    at = text.find(b.text)
    if para.startswith("Anl") or relative and _TABLE_NUMBER.search(b.target):
        return "annex_numbering"
    if _OLD_VERSION.search(text):
        return "old_version"
    if at > 0 and _ARTICLE_BEFORE.search(text[:at]):
        return "article_section_list"  # "Artikel 248 §§ 7, 10": sections of the Artikel, not of the law
    if relative and at > 0 and _OTHER_PARA.search(text[:at]):
        return "relative_to_other_para"  # "§ 332 Abs. 1, auch in Verbindung mit Abs. 3": Abs. 3 of § 332
    if not b.law_named and (_OTHER_BOOK.search(text) or _names_other_law(text, law.key, registry)):
        return "law_named_elsewhere"
    return None


def _context(uid: str, texts: dict[str, str], parents: dict[str, str]) -> str:
    """The citing unit's text, after the lead-ins of the list items it sits in ("1. aus dem
    Strafgesetzbuch: a) ... nach § 86a"): the text a reader takes the law from."""
    text = texts.get(uid, "")
    parent = parents.get(uid)
    while parent in texts and "/" in parent and uid.count("/") > 2:
        lead = texts[parent].split(texts[uid][:40])[0] if texts[uid] else ""
        text = lead[:300] + " " + text if lead else text
        uid, parent = parent, parents.get(parent)
    return text


def _names_other_law(text: str, own: str, registry: LawRegistry) -> bool:
    toks = tokenize(text)
    for i in range(1, len(toks)):
        if toks[i - 1].low in ("des", "der", "dem", "den", "im", "zum", "nach") and toks[i].text[:1].isupper():
            hit = registry.match(toks, i)
            if hit is not None and hit[1] != own:
                return True
    return False


def broken_references(laws: Iterable[Law], registry: LawRegistry | None = None,
                      gaps: Counter | None = None) -> Iterator[BrokenRow]:
    """One row per reference of ``laws`` that names a missing § or a repealed unit, in law order;
    the likely parser gaps (:func:`gap_of`) are counted in ``gaps`` instead."""
    laws = list(laws)
    registry = registry or LawRegistry.default()
    ids = {u.id for law in laws for u in law.units if u.level in TEXT_LEVELS}
    repealed = {u.id for law in laws for u in law.units if u.level in TEXT_LEVELS and u.repealed}
    known = KnownUnits(ids)
    for law in laws:
        found: list[BrokenRef] = []
        statute_edges(law, registry, known, repealed, broken=found)
        texts = {u.id: u.text for u in law.units}
        parents = {u.id: u.parent_id for u in law.units}
        for b in found:
            if b.status not in BROKEN:
                continue
            gap = gap_of(b, law, _context(b.source, texts, parents), registry)
            if gap is not None:
                if gaps is not None:
                    gaps[gap] += 1
                continue
            yield _row(b, texts)
