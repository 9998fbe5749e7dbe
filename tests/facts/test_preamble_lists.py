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
