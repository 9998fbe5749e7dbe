"""Broken references: statute citations that point to a § that is not in the law, or to a repealed
unit (``legalkg references --broken``, and the ingest's ``BrokenReference`` nodes that the page
``/references/broken`` lists). Pure: parsed laws in, rows out, no Neo4j.

Why from the parse: the graph's citation edges reach units only; the rest are what drafters and
editors need, with the citing unit and the words as written, so the ingest computes these rows from
the references its extraction collects anyway (``graph.broken``). A reference
is judged against the laws parsed together (the ``--codes`` of the run): a law outside them is
``law_not_in_graph``, not broken, and is left out of these rows.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator

from pydantic import BaseModel

from ..model import TEXT_LEVELS, Law, decode_id
from .registry import LawRegistry
from .statute import BrokenRef, KnownUnits, statute_edges
from .tokens import tokenize

#: the statuses this report lists: the reference names a unit of a law at hand that is not there
BROKEN = ("missing_unit", "repealed")
REASONS = {
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
#: a reference written without § or Artikel: it names a part of a § the reader knows from the context
_RELATIVE = re.compile(r"^\s*(?:Abs|Absatz|Absätze|Absätzen|Absatzes|Satz|Sätze|Sätzen|Satzes|Nr|Nummer|Nummern|"
                       r"Buchst|Buchstabe|Buchstaben|Halbsatz)\b")
#: "X bis Y" in a reference: the numbers a range spans
_RANGE = re.compile(r"(\d+)[a-z]?\s+bis\s+(\d+)")
#: what follows a reference whose last number is the next list item ("gemäß § 2290, 6. zu einer ...")
_ITEM_AFTER = re.compile(r"^\.\s+(?:[a-zäöü§]|\d)")
#: what follows a number that is an amount of money ("Absatzes 1 sowie 15 000 Euro")
_AMOUNT_AFTER = re.compile(r"^\s(?:\d{3}\b|Prozent\b|vom\s+Hundert\b|Euro\b)")
#: what precedes a reference that is a gazette's issue and page ("GBl. Nr. 80 S. 823")
_GAZETTE_BEFORE = re.compile(r"(?:GBl|BGBl|Bl|Gesetzbl)\.\s*(?:I{1,2}\s*)?$")
_ANNEX_AFTER = re.compile(r"^\s*(?:der|des)\s+(?:Anlage|Anhangs?|Kostenverzeichnisses|Vergütungsverzeichnisses)\b")
_ABSATZ_OF = re.compile(r"Abs\.\s*(\d+[a-z]?)")
#: a law named right after the reference, in words the registry does not know (a typo in the statute:
#: "§§ 928 und 932 der Zivilprozessordung", "§ 93c der Abgabenordung")
_LAW_AFTER = re.compile(r"^\s*(?:des|der)\s+[A-ZÄÖÜ][\w-]*(?:gesetz(?:es|buch(?:es|s)?)?|ord[n]?ung|verordnung)\b")
#: "Buchstabe a bis e": the letters a range spans
_LETTER_RANGE = re.compile(r"\b([a-z])\s+bis\s+([a-z])\b")
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
    relative = b.status == "missing_unit" and bool(_RELATIVE.match(b.text))
    target = decode_id(b.target).human() if b.status == "repealed" else b.target
    return BrokenRow(source=b.source, source_citation=decode_id(b.source).human(), reference=b.text, target=target,
                     status=b.status, reason=REASONS["missing_relative" if relative else b.status],
                     satz=texts.get(b.source, "")[:500])


def gap_of(b: BrokenRef, law: Law, text: str, registry: LawRegistry) -> str | None:
    """Why an unresolved reference is more likely the parser's gap than a dangling reference, or None.

    - ``annex_numbering``: the citing unit is an Anlage (fee and penalty tables number their own items,
      "Nr. 2303 VV", which are no units of the tree);
    - ``old_version``: the text cites a former version ("in der am ... geltenden Fassung");
    - ``law_named_elsewhere``: the reference took the citing law because the grammar read no law for it,
      but the sentence names another law ("die §§ 920, 921, ..., 945 der Zivilprozessordnung");
    - ``article_section_list``, ``gazette``, ``list_item_number``, ``amount``: "Artikel 248 § 17 ... und
      § 18", "(GBl. Nr. 80 S. 823)", "gemäß § 2290, 6. zu einer ...", "Absatzes 1 sowie 15 000 Euro";
    - ``relative_to_other_para``: a reference without § after a § named before it in the sentence or in an
      earlier Satz ("§ 332 Abs. 1, auch in Verbindung mit Abs. 3"); ``relative_in_list_item``: one inside a
      Nummer or Buchstabe ("Sätze 1, 2 und 4" in § 52 Nr. 3 VwGO); ``absatz_not_in_tree``: its Absatz is
      written in the §'s text ("(2a)") but not split off by the parser;
    - ``range_member``: a repealed unit strictly inside a range ("Nr. 5 bis 16" over a repealed Nr. 12);
    - ``law_named_once_for_a_list``: a missing § that the citing law has, in a list that names a law once
      at its end ("§ 146b ..., § 147 ... und § 27b ... des Umsatzsteuergesetzes" in the AO).
    """
    relative = bool(_RELATIVE.match(b.text))
    at = text.find(b.text)
    before, after = (text[:at], text[at + len(b.text):]) if at >= 0 else ("", "")
    gap = _gap_in_words(b, text, before, after, relative) or _gap_in_structure(b, law, before, relative)
    if gap is None and not b.law_named and (_OTHER_BOOK.search(text) or _names_other_law(text, law.key, registry)):
        return "law_named_elsewhere"
    return gap


def _gap_in_words(b: BrokenRef, text: str, before: str, after: str, relative: bool) -> str | None:
    """The gaps the words around the reference show (see :func:`gap_of`)."""
    para = b.source.split("/")[1] if "/" in b.source else ""
    if para.startswith("Anl") or relative and (_TABLE_NUMBER.search(b.target) or _ANNEX_AFTER.match(after)):
        return "annex_numbering"
    if _OLD_VERSION.search(text):
        return "old_version"
    if _ARTICLE_BEFORE.search(before) or re.match(r"\s*Artikels?\s+\d+\w*\s+§", b.text):
        return "article_section_list"  # "Artikel 248 §§ 7, 10": sections of the Artikel, not of the law
    if _GAZETTE_BEFORE.search(before):
        return "gazette"  # "(GBl. Nr. 80 S. 823)": an issue and page of a gazette
    if _ITEM_AFTER.match(after) and re.search(r"(?:,|\bund|\boder)\s*\d+\w?$", b.text):
        return "list_item_number"  # "gemäß § 2290, 6. zu einer ...": the 6 is the next list item
    if _AMOUNT_AFTER.match(after):
        return "amount"  # "im Sinne des Absatzes 1 sowie 15 000 Euro", "nach Absatz 1 und 20 Prozent"
    if not b.law_named and _LAW_AFTER.match(after):
        return "law_named_after"  # "§§ 928 und 932 der Zivilprozessordung": a law the registry does not know
    return None


def _gap_in_structure(b: BrokenRef, law: Law, before: str, relative: bool) -> str | None:
    """The gaps the citing law's tree shows (see :func:`gap_of`)."""
    if relative and (_OTHER_PARA.search(before) or _other_para_in_earlier_satz(b.source, law)):
        return "relative_to_other_para"  # "§ 332 Abs. 1, auch in Verbindung mit Abs. 3": Abs. 3 of § 332
    if relative and re.search(r"/(?:Nr|Bst)", b.source):
        return "relative_in_list_item"  # "Sätze 1, 2 und 4" in § 52 Nr. 3 VwGO: the Sätze of that Nummer
    if relative and b.status == "missing_unit" and _absatz_in_text(b.target, b.source, law):
        return "absatz_not_in_tree"  # "(2a)" is in the §'s text, but the parser did not split it off
    if b.status == "repealed" and _inside_range(b):
        return "range_member"  # "Nr. 5 bis 16": a repealed Nr. 12 inside a range whose ends exist
    if b.status == "missing_unit" and b.law_named and b.text.count("§") > 1 and _para_in_own_law(b, law):
        return "law_named_once_for_a_list"  # "§ 146b ..., § 147 ... und § 27b ... des UStG" in the AO
    if b.status == "missing_unit" and not b.law_named and _beyond_last_para(b.target, law):
        return "beyond_last_para"  # "§§ 1693 und 1802" in the FamFG (493 §§): the BGB, left unnamed
    return None


def _other_para_in_earlier_satz(source: str, law: Law) -> bool:
    """An earlier Satz of the citing unit's parent names a § ("In den Fällen des § 775 Nr. 1, 3 ... In den
    Fällen der Nummern 4, 5 ..."): a relative reference in a later Satz is read against that §."""
    parent, _, last = source.rpartition("/")
    if not last.startswith("S") or not last[1:].isdigit():
        return False
    own = int(last[1:])
    return any(_OTHER_PARA.search(u.text) for u in law.units
               if u.parent_id == parent and u.id.rpartition("/")[2][:1] == "S"
               and u.id.rpartition("/")[2][1:].isdigit() and int(u.id.rpartition("/")[2][1:]) < own)


def _absatz_in_text(target: str, source: str, law: Law) -> bool:
    """The missing target's Absatz is written in the citing §'s text ("(2a)"): a unit the tree lacks."""
    m = _ABSATZ_OF.search(target)
    if not m:
        return False
    para = "/".join(source.split("/")[:2])
    return any(u.id == para and f"({m.group(1)})" in u.text for u in law.units) or any(
        u.id.startswith(para + "/") and u.text.lstrip().startswith(f"({m.group(1)})") for u in law.units)


def _inside_range(b: BrokenRef) -> bool:
    """The repealed target's own number lies strictly inside a range the reference names, or its letter
    inside a range of letters ("Buchstabe a bis e" over a repealed a: the range still holds b to e)."""
    last = b.target.rpartition("/")[2]
    letter = re.fullmatch(r"Bst([a-z])", last)
    if letter:
        return any(a <= letter.group(1) <= z and a < z for a, z in _LETTER_RANGE.findall(b.text))
    tail = re.match(r"\D*(\d+)", last)
    return bool(tail) and any(int(a) < int(tail.group(1)) < int(z) for a, z in _RANGE.findall(b.text))


def _beyond_last_para(target: str, law: Law) -> bool:
    """The missing target's § number lies beyond the citing law's last § by more than a tenth: a § of
    another law the sentence leaves unnamed."""
    m = re.match(r"§\s*(\d+)", target)
    nums = [int(u.id.split("/")[1][1:]) for u in law.units
            if u.id.count("/") == 1 and re.fullmatch(r"§\d+", u.id.split("/")[1])]
    return bool(m and nums) and int(m.group(1)) > max(nums) * 1.1


def _para_in_own_law(b: BrokenRef, law: Law) -> bool:
    """The missing target's § exists in the citing law: the law named at the list's end was taken for
    every § of the list."""
    m = re.match(r"§\s*(\d+\w*)", b.target)
    return bool(m) and f"{law.key}/§{m.group(1)}" in {u.id for u in law.units}


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
    """One row per reference of ``laws`` that names a missing § or a repealed unit, in law order (a
    chain whose members fall on one repealed §, "§ 621 Abs. 1 Nr. 4, 5 oder Nr. 11 der
    Zivilprozessordnung", is one row); the likely parser gaps (:func:`gap_of`) are counted in ``gaps``."""
    laws = list(laws)
    registry = registry or LawRegistry.default()
    ids = {u.id for law in laws for u in law.units if u.level in TEXT_LEVELS}
    repealed = {u.id for law in laws for u in law.units if u.level in TEXT_LEVELS and u.repealed}
    known = KnownUnits(ids)
    for law in laws:
        found: list[BrokenRef] = []
        statute_edges(law, registry, known, repealed, broken=found)
        yield from law_broken_rows(law, found, registry, gaps)


def law_broken_rows(law: Law, found: Iterable[BrokenRef], registry: LawRegistry,
                    gaps: Counter | None = None) -> list[BrokenRow]:
    """The rows of one law from the unresolved references that ``statute_edges(..., broken=found)``
    collected (what the ingest does, so the graph's ``BrokenReference`` nodes are these rows)."""
    texts = {u.id: u.text for u in law.units}
    parents = {u.id: u.parent_id for u in law.units}
    listed: set[tuple[str, str, str]] = set()  # several members of one chain may fall on one repealed §
    rows: list[BrokenRow] = []
    for b in found:
        if b.status not in BROKEN:
            continue
        gap = gap_of(b, law, _context(b.source, texts, parents), registry)
        if gap is not None:
            if gaps is not None:
                gaps[gap] += 1
            continue
        row = _row(b, texts)
        if (row.source, row.target, row.reference) not in listed:
            listed.add((row.source, row.target, row.reference))
            rows.append(row)
    return rows
