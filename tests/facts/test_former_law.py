"""A preamble naming a law by a date before the law of that name in the graph names the former law
(issue 45): no AUTHORIZED_BY edge into the later law, an ``unknown_law`` record instead. Pure; the
preambles are the Eingangsformeln of the gii files quoted, hand-checked (eval/facts/judged/)."""

from __future__ import annotations

from legalkg.cite import LawRegistry
from legalkg.cite.preamble import enabling_facts, enacted_before, former_law
from legalkg.model import Law

#: BauMaschMeistPrV: the BBiG of 1969 (replaced by the BBiG 2005, whose § 46 is the Zulassung)
BAUMASCH = ("Auf Grund des § 46 Abs. 2 Satz 1 des Berufsbildungsgesetzes vom 14. August 1969 (BGBl. I S. 1112), "
            "der zuletzt durch § 24 Nr. 2 des Gesetzes vom 24. August 1976 (BGBl. I S. 2525) geändert worden ist, "
            "und auf Grund des § 42 Abs. 2 Satz 1 der Handwerksordnung in der Fassung der Bekanntmachung vom "
            "28. Dezember 1965 (BGBl. 1966 I S. 1), der zuletzt durch § 25 Nr. 2 des Gesetzes vom 24. August 1976 "
            "(BGBl. I S. 2525) geändert worden ist, wird ... verordnet:")
#: KerIndAusbV: the BBiG 2005 itself
KERIND = ("Auf Grund des § 4 Abs. 1 in Verbindung mit § 5 des Berufsbildungsgesetzes vom 23. März 2005 "
          "(BGBl. I S. 931) verordnet das Bundesministerium für Wirtschaft und Arbeit im Einvernehmen mit dem "
          "Bundesministerium für Bildung und Forschung:")
KNOWN = {"BBiG 2005/§46/Abs2/S1", "HwO/§42/Abs2/S1", "BBiG 2005/§4/Abs1", "BBiG 2005/§5"}


def _facts(key: str, preamble: str):
    law = Law.model_construct(key=key, jurabk=key, preamble=preamble, units=[])
    return enabling_facts(law, LawRegistry.default(), KNOWN, set())


def test_a_law_named_by_an_older_date_is_the_former_law():
    facts = _facts("BauMaschMeistPrV", BAUMASCH)
    assert [e["target"] for e in facts.edges] == ["HwO/§42/Abs2/S1"]  # the HwO has no year: same law
    [record] = facts.unresolved
    assert record["status"] == "unknown_law" and record["citation"].endswith("(former law)")
    assert record["text"] == "§ 46 Abs. 2 Satz 1 des Berufsbildungsgesetzes"


def test_the_law_of_that_year_keeps_its_edges():
    facts = _facts("KerIndAusbV", KERIND)
    assert sorted(e["target"] for e in facts.edges) == ["BBiG 2005/§4/Abs1", "BBiG 2005/§5"]
    assert facts.unresolved == []


def test_former_law_reads_the_date_after_the_name():
    text = "§ 10a des Soldatenversorgungsgesetzes in der Fassung der Bekanntmachung vom 16. September 2009"
    end = text.index(" in der Fassung")
    assert former_law("SVG 2025", text, end)  # the SVG of 2025 is a law enacted anew
    assert not former_law("BBG 2009", "§ 80 des Bundesbeamtengesetzes vom 5. Februar 2009", 30)
    assert not former_law("HwO", text, end) and not former_law(None, text, end)


#: NatPJasmundV (natpjasmundv.xml, doknr DDNR514670990: of 1990) names the Bundesnaturschutzgesetz without a
#: date; in 1990 that was the BNatSchG of 1976, not the BNatSchG 2009 (a law enacted anew, BJNR254210009)
JASMUND = ("Auf Grund des Art. 6 § 6 Nr. 1 des Umweltrahmengesetzes vom 29. Juni 1990 (GBl. I Nr. 42 S. 649) in "
           "Verbindung mit §§ 12 und 14 des Bundesnaturschutzgesetzes wird verordnet:")


def test_an_ordinance_older_than_the_law_of_that_name_rests_on_the_former_law():
    known = KNOWN | {"BNatSchG 2009/§12", "BNatSchG 2009/§14"}
    law = Law.model_construct(key="NatPJasmundV", jurabk="NatPJasmundV", preamble=JASMUND, doknr="DDNR514670990",
                              units=[])
    facts = enabling_facts(law, LawRegistry.default(), known, set())
    assert facts.edges == []
    cited = sorted(u["citation"] for u in facts.unresolved if u["status"] == "unknown_law")
    assert cited == [f"§ {n} des Bundesnaturschutzgesetzes (former law)" for n in (12, 14)]
    # the same words in an ordinance of 2016 (BJNR...0016) name the BNatSchG 2009
    later = law.model_copy(update={"doknr": "BJNR130700016"})
    assert sorted(e["target"] for e in enabling_facts(later, LawRegistry.default(), known, set()).edges) == [
        "BNatSchG 2009/§12", "BNatSchG 2009/§14"]
    assert not enacted_before(later, "BNatSchG 2009") and not enacted_before(law, "BNatSchG")


#: KartKrebs_KartZystV (doknr BJNR138300010: of 2010): the Pflanzenschutzgesetz of 1998, named once after the
#: list; the PflSchG 2012 in the graph is a law enacted anew
KARTKREBS = ("Auf Grund des § 3 Absatz 1 Nummer 1 bis 3 und 5 bis 15 und des § 4 Absatz 1 Satz 1 und 2 Nummer 1 "
             "Buchstabe a und b des Pflanzenschutzgesetzes in der Fassung der Bekanntmachung vom 14. Mai 1998 "
             "(BGBl. I S. 971, 1527, 3512) verordnet das Bundesministerium für Ernährung, Landwirtschaft und "
             "Verbraucherschutz:")


def test_a_former_laws_record_names_the_law_in_the_preambles_words():
    law = Law.model_construct(key="KartKrebs_KartZystV", jurabk="KartKrebs_KartZystV", preamble=KARTKREBS,
                              doknr="BJNR138300010", units=[])
    facts = enabling_facts(law, LawRegistry.default(), {"PflSchG 2012/§3/Abs1", "PflSchG 2012/§4/Abs1"}, set())
    assert facts.edges == [] and len(facts.unresolved) == 14 + 3
    assert {u["citation"].split(" des ", 1)[1] for u in facts.unresolved} == {"Pflanzenschutzgesetzes (former law)"}
