"""A count of one takes the singular, on the pages (German and English) and in the CLI (issue 44):
the check page said "1 Zitate", the unit page "1 Fundstellen", `legalkg verify` "1 citations".

The pages' strings that count have a ``KEY_one`` form (``serve.web.i18n``); the CLI's English uses
``legalkg.plural``. The live part checks the pages over the test graph (KSchG, TzBfG) with texts
whose citations are counted by hand; the rest renders the templates and the CLI's lines directly.
"""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from legalkg.cli.verify import render
from legalkg.context.markdown import render_markdown
from legalkg.context.pack import ContextPack, PackUnit
from legalkg.plural import counted
from legalkg.serve import Tools, build_app
from legalkg.serve.web import i18n, pages
from legalkg.verify import Status
from legalkg.verify.records import CitationRecord
from legalkg.verify.verifier import VerifyReport

#: § 4 Satz 1 KSchG (Anrufung des Arbeitsgerichts), as in the shared kschg.xml
KSCHG_4 = ("Will ein Arbeitnehmer geltend machen, dass eine Kündigung sozial ungerechtfertigt oder aus anderen "
           "Gründen rechtsunwirksam ist, so muss er innerhalb von drei Wochen nach Zugang der schriftlichen "
           "Kündigung Klage beim Arbeitsgericht auf Feststellung erheben, dass das Arbeitsverhältnis durch die "
           "Kündigung nicht aufgelöst ist.")


def test_every_counting_string_has_its_singular_for_one_in_both_languages():
    de, en = i18n.translator("de"), i18n.translator("en")
    assert (de("citations_n", n=1), en("citations_n", n=1)) == ("1 Zitat", "1 citation")
    assert (de("citations_n", n=2), de("citations_n", n=0)) == ("2 Zitate", "0 Zitate")
    assert (de("pack_n", n=1), en("pack_n", n=1)) == ("1 Fundstelle als Markdown", "1 unit as Markdown")
    assert (de("broken_total", n=1), en("broken_total", n=1)) == ("1 defekter Verweis", "1 broken reference")
    assert de("broken_total", n=3) == "3 defekte Verweise"
    assert (de("paras", n=1, r=0), en("paras", n=1, r=0)) == ("1 §, davon 0 weggefallen", "1 §, 0 repealed")
    assert de("paras", n=2, r=1) == "2 §§, davon 1 weggefallen"
    assert (de("rested_on_by", n=1), de("rested_on_by", n=4)) == ("Rechtsgrundlage für 1 Verordnung",
                                                                   "Rechtsgrundlage für 4 Verordnungen")
    assert en("rested_on_by", n=1) == "Enabling provision of 1 ordinance"
    assert (de("units_found", n=1), de("units_found", n=5)) == ("Fundstelle", "Fundstellen")
    assert (de("decisions_word", n=1), en("decisions_word", n=1)) == ("Entscheidung", "decision")
    assert de("first_n", shown=1, total=9) == "Die erste von 9 ist aufgeführt."
    assert (de("broken_rows", first=7, last=7, total=7), en("broken_rows", first=1, last=100, total=250)) == (
        "Zeile 7 von 7", "Rows 1 to 100 of 250")
    singular = [k for k in i18n.STRINGS if k.endswith("_one")]
    assert all(k[:-4] in i18n.STRINGS for k in singular), singular  # each the singular of a string


def test_the_unit_page_says_one_decision_one_ordinance_and_the_most_recent_of_two():
    unit = {"id": "KSchG/§4", "citation": "§ 4 KSchG", "title": "Anrufung des Arbeitsgerichts", "text": KSCHG_4,
            "repealed": False, "level": "Paragraph", "words": 44}
    decision = {"id": "oldp:1", "court": "BAG", "date": "2021-03-04", "file_number": "2 AZR 1/20", "type": "Urteil",
                "lead": "", "times": 1, "units": [{"id": "KSchG/§4", "citation": "§ 4 KSchG"}]}
    related = {"path": [], "parent": None, "children": [], "children_count": 0, "cites": [], "cites_count": 0,
               "cited_by": [], "cited_by_count": 1, "cited_by_laws": [],
               "cited_by_decisions": {"count": 2, "courts": [{"court": "BAG", "count": 2}], "decisions": [decision]},
               "facts": {"rested_on_by_count": 1, "rested_on_by": [
                   {"ordinance": "X", "title": "", "target": "KSchG/§4", "citation": "§ 4 KSchG"}]}}
    env = pages.environment()
    html = env.get_template("unit.html").render(form={}, unit=unit, related=related, graph=[])
    assert re.search(r'<span id="cited-by-count">1</span> Fundstelle\b(?!n)', html)
    assert "Die neueste von 2 ist aufgeführt." in html and "Rechtsgrundlage für 1 Verordnung<" in html
    assert "(1-mal)" not in html and "(einmal)" not in html  # a decision citing once says no count
    related["cited_by_decisions"]["count"] = 1
    html = env.get_template("unit.html").render(form={}, unit=unit, related=related, graph=[])
    assert re.search(r'<span id="decisions-count">1</span> Entscheidung\b(?!en)', html)
    english = env.get_template("unit.html").render(form={}, unit=unit, related=related, graph=[],
                                                   t=i18n.translator("en"), lang="en")
    assert re.search(r'<span id="decisions-count">1</span> decision\b(?!s)', english)
    assert re.search(r'<span id="cited-by-count">1</span> unit\b(?!s)', english)


def test_the_cli_says_one_citation_and_one_unit():
    record = CitationRecord(span="§ 4 KSchG", chain_start=9, chain_end=18, written="§ 4 KSchG", start=9, end=18,
                            cited="§ 4 KSchG", law="KSchG", status=Status.OK, id="KSchG/§4", citation="§ 4 KSchG",
                            text=KSCHG_4)
    last = render(VerifyReport(records=[record])).splitlines()[-1]
    assert last.startswith("1 citation: 1 ok;"), last
    assert render(VerifyReport(records=[record, record])).splitlines()[-1].startswith("2 citations: 2 ok;")
    unit = PackUnit(id="KSchG/§4", citation="§ 4 KSchG", text=KSCHG_4, words=44, why="ranked 1st for your question",
                    reason="ranked", rank=1)
    pack = ContextPack(query="Frist für die Kündigungsschutzklage", budget=60, units=[unit])
    assert render_markdown(pack).splitlines()[-1] == "_1 unit, 44 of 60 words_"
    assert (counted(1, "law"), counted(0, "law"), counted(2, "broken reference")) == (
        "1 law", "0 laws", "2 broken references")


@pytest.fixture(scope="module")
def client(load_graph, driver, neo4j_cfg):
    load_graph("KSchG,TzBfG", model=None)
    return TestClient(build_app(Tools(driver, neo4j_cfg.database, vectors=False)), raise_server_exceptions=False)


def heading(html: str) -> str:
    found = re.search(r'<h2 id="result-h">(.*?)</h2>', html, re.S)
    assert found, html[:500]
    return found[1]


def test_the_check_page_counts_one_citation_in_the_singular(client):
    one = "Die Klage ist nach § 4 KSchG binnen drei Wochen nach Zugang der Kündigung zu erheben."
    assert heading(client.get("/check", params={"text": one}).text).startswith("1 Zitat,")
    assert heading(client.get("/check", params={"text": one, "lang": "en"}).text).startswith("1 citation,")
    two = one + " Verspätete Klagen lässt § 5 KSchG nachträglich zu."
    assert heading(client.get("/check", params={"text": two, "lang": "de"}).text).startswith("2 Zitate,")
