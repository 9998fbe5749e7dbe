"""What issue 45 asks of the preamble reader, each on a real Eingangsformel of the all-laws archive
(hand-checked against the gii XML): law names in words in the genitive ("des Fünften Buches
Sozialgesetzbuch", "des Lebensmittel- und Futtermittelgesetzbuches"), "in Verbindung mit", "jeweils",
and lists of several laws. Pure."""

from __future__ import annotations

from legalkg.cite import LawRegistry
from legalkg.cite.preamble import read_preamble
from legalkg.parse import parse_bytes
from tests.archive import archive_members


def _refs(slug: str) -> list[tuple[str, str | None, str, dict]]:
    law = parse_bytes(archive_members(slug)[slug], f"{slug}.xml", slug=slug)
    read = read_preamble(law.preamble, LawRegistry.default())
    return [(r.role, r.ref.law_key, r.ref.para, {k: v for k, v in r.ref.levels.items() if v}) for r in read.refs]


def test_jeweils_in_verbindung_mit_and_a_genitive_name_in_words():
    # eurhgausnahmv.xml: "Auf Grund des § 9 Absatz 2 Nummer 2 Buchstabe b und des § 21 Absatz 3 Satz 4
    # Nummer 2, jeweils in Verbindung mit § 70 Absatz 10 Satz 1, des Lebensmittel- und
    # Futtermittelgesetzbuches in der Fassung der Bekanntmachung vom 24. Juli 2009 ... verordnet ..."
    # -- three provisions of the LFGB; "Buchstabe b und des" holds no second Buchstabe
    assert _refs("eurhgausnahmv") == [
        ("basis", "LFGB", "9", {"absatz": "2", "nummer": "2", "buchstabe": "b"}),
        ("basis", "LFGB", "21", {"absatz": "3", "satz": "4", "nummer": "2"}),
        ("in_connection", "LFGB", "70", {"absatz": "10", "satz": "1"})]


def test_the_fifth_book_of_the_social_code_in_words_and_a_second_law():
    # fgnv.xml: "Auf Grund des § 35a Abs. 1 Satz 1 Nr. 2 des Fünften Buches Sozialgesetzbuch - Gesetzliche
    # Krankenversicherung - (Artikel 1 des Gesetzes vom 20. Dezember 1988, ...), der durch Artikel 1 Nr. 3
    # des Gesetzes vom 27. Juli 2001 ... eingefügt worden ist, jeweils in Verbindung mit § 1 des
    # Zuständigkeitsanpassungsgesetzes vom 16. August 2002 ... verordnet das Bundesministerium ..."
    # -- the amending Artikel are no basis
    assert _refs("fgnv") == [("basis", "SGB V", "35a", {"absatz": "1", "satz": "1", "nummer": "2"}),
                             ("in_connection", "ZustAnpG 2002", "1", {})]


def test_a_list_of_two_laws_each_with_its_own_provisions():
    # biomathintv.xml: "Auf Grund des § 34 Abs. 8 des Patentgesetzes ..., der zuletzt durch Artikel 7 Nr. 16
    # ... geändert worden ist, und des § 4 Abs. 7 des Gebrauchsmustergesetzes ..., der zuletzt durch ...
    # geändert worden ist, jeweils in Verbindung mit § 1 Abs. 2 der DPMA-Verordnung vom 1. April 2004 ..."
    got = _refs("biomathintv")
    assert ("basis", "PatG", "34", {"absatz": "8"}) in got
    assert ("basis", "GebrMG", "4", {"absatz": "7"}) in got
    assert [(role, law) for role, law, _, _ in got if role == "in_connection"] == [("in_connection", "DPMAV 2004")]
    assert not any(law is not None and law.startswith(("PatG", "GebrMG")) and para not in ("34", "4")
                   for _, law, para, _ in got)  # the amending Artikel 7 and 8 are no basis
