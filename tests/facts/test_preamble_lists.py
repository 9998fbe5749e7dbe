"""A law named before a dash list of provisions ("auf Grund folgender Bestimmungen des
Wertpapierhandelsgesetzes …: - § 9 Abs. 4 …, - § 34 …") is the law of every item of that list, up to
the next "auf Grund" (issue 45). Pure; the preamble is the Eingangsformel of bafinbefugv.xml in the
all-laws archive, hand-checked (eval/facts/judged/enabling.jsonl: 62 provisions of five laws)."""

from __future__ import annotations

from collections import Counter

from legalkg.cite import LawRegistry
from legalkg.cite.preamble import read_preamble
from legalkg.parse import parse_bytes
from tests.archive import archive_members


def test_the_law_of_a_list_head_reaches_its_dash_items():
    data = archive_members("bafinbefugv")["bafinbefugv"]
    law = parse_bytes(data, "bafinbefugv.xml", slug="bafinbefugv")
    refs = read_preamble(law.preamble, LawRegistry.default()).refs
    by_law = Counter(r.ref.law_key for r in refs)
    # "auf Grund folgender Bestimmungen des Wertpapierhandelsgesetzes ...: - § 9 Abs. 4 in Verbindung mit
    # Abs. 3, ... - § 34 Abs. 2 Satz 2 in Verbindung mit Satz 1, ..."
    first = [(r.ref.law_key, r.ref.para, r.ref.levels.get("absatz"), r.role) for r in refs[:2]]
    assert first == [("WpHG", "9", "4", "basis"), ("WpHG", "9", "3", "in_connection")]
    # "auf Grund folgender Bestimmungen des Wertpapiererwerbs- und Übernahmegesetzes ...: - § 5 Abs. 2 Satz 2"
    assert ("WpÜG", "5") in {(r.ref.law_key, r.ref.para) for r in refs}
    # "... des Kreditwesengesetzes ...: - § 1 Abs. 12 Satz 3 Halbsatz 2 ..."
    assert ("KredWG", "1") in {(r.ref.law_key, r.ref.para) for r in refs}
    # the Gesetz über Kapitalanlagegesellschaften is not among the 6,821 laws: its items keep no law
    assert by_law["WpHG"] >= 14 and by_law["KredWG"] >= 20 and None in by_law


#: WiSiV (wisiv.xml): a list continued by ", der §§ 2, 3 ..." after the § 1 items; "von denen ... geändert
#: worden sind" is the relative clause that documents versions
WISIV = ("Auf Grund des § 1 Abs. 1 Satz 1 Nr. 1 bis 3, 5, 7 und 8, der §§ 2, 3 und 5 Abs. 1, des § 6, des § 8 Abs. 1 "
         "und 6 und der §§ 9 und 21 Nr. 2 des Wirtschaftssicherstellungsgesetzes in der Fassung der Bekanntmachung "
         "vom 3. Oktober 1968 (BGBl. I S. 1069), von denen § 5 Abs. 1, die §§ 6, 9 und 21 Nr. 2 durch Artikel 100 der "
         "Verordnung vom 25. November 2003 (BGBl. I S. 2304) geändert worden sind, verordnet die Bundesregierung:")
#: BierV (bierv.xml): the Lebensmittel- und Bedarfsgegenständegesetz of 1974 is not among the 6,821 laws
BIERV = ("Der Bundesminister für Jugend, Familie, Frauen und Gesundheit verordnet auf Grund des § 12 Abs. 1 Nr. 1 und "
         "Abs. 3, des § 16 Abs. 1 Satz 2 und des § 19 Nr. 1 und 4 Buchstabe a und b des Lebensmittel- und "
         "Bedarfsgegenständegesetzes vom 15. August 1974 (BGBl. I S. 1945, 1946) im Einvernehmen mit den "
         "Bundesministern für Ernährung, Landwirtschaft und Forsten und für Wirtschaft:")
#: EuLabMolBioVorRV (eulabmolbiovorrv.xml): the Beitrittsgesetz of 1954, named by its date and title, is the
#: UNSOrgVorRAbkG ("Gesetz über den Beitritt der Bundesrepublik Deutschland zum Abkommen über die Vorrechte
#: und Befreiungen der Sonderorganisationen der Vereinten Nationen vom 21. November 1947 und ...")
EULAB = ("Auf Grund des Artikels 3 des Gesetzes vom 22. Juni 1954 über den Beitritt der Bundesrepublik Deutschland "
         "zum Abkommen über die Vorrechte und Befreiungen der Sonderorganisationen der Vereinten Nationen vom "
         "21. November 1947 und über die Gewährung von Vorrechten und Befreiungen an andere zwischenstaatliche "
         "Organisationen (Bundesgesetzbl. 1954 II S. 639), zuletzt geändert durch das Gesetz vom 28. Februar 1964 "
         "(Bundesgesetzbl. II S. 187), verordnet die Bundesregierung mit Zustimmung des Bundesrates:")


def _read(text):
    return [(r.ref.para, r.ref.law_key, r.ref.law_cited) for r in read_preamble(text, LawRegistry.default()).refs]


def test_a_list_continued_by_der_paragraphs_is_no_relative_clause():
    got = _read(WISIV)
    assert [p for p, _, _ in got] == ["1"] * 6 + ["2", "3", "5", "6", "8", "8", "9", "21"]
    assert {k for _, k, _ in got} == {LawRegistry.default().key_for("Wirtschaftssicherstellungsgesetz")}


def test_a_law_the_registry_does_not_know_keeps_its_words():
    got = _read(BIERV)
    assert len(got) == 6 and {(k, c) for _, k, c in got} == {(None, "des Lebensmittel- und Bedarfsgegenständegesetzes")}


def test_a_title_with_its_dates_cut_out_is_still_the_law():
    assert _read(EULAB) == [("3", "UNSOrgVorRAbkG", "des Gesetzes über den Beitritt der Bundesrepublik Deutschland "
                                                    "zum Abkommen über die Vorrechte und Befreiungen der "
                                                    "Sonderorganisationen der Vereinten Nationen")]
