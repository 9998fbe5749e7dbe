"""Reading statutes in headless Chromium (issue 43), on the live test graph (KSchG, TzBfG, UWG):
a law's contents and its Gliederungen, breadcrumbs with their types, previous / next § past the
repealed ones, a list item inside the sentence that introduces it, citations in the text as links,
backlinks with their citing Satz, the check page's verdicts, 404 pages with "did you mean", the
German interface with English on request, and the small things (Enter, bare citations, favicon,
compressed and cached files, copy, the official text, a phone's screen).

Expectations are read from the statute texts (gesetze-im-internet.de, as in the shared gii data):
UWG Kapitel 2 "Rechtsfolgen" holds §§ 8, 8a, 8b, 8c, 9, 10, 11; §§ 17 and 18 UWG are "(weggefallen)";
§ 1 Abs. 2 Satz 2 KSchG lists Nr. 1 and 2, each with Buchstaben a and b, and cites § 95 BetrVG
(not in the test graph); § 17 Satz 2 TzBfG reads "Die §§ 5 bis 7 des Kündigungsschutzgesetzes
gelten entsprechend."
"""

from __future__ import annotations

import gzip
import urllib.error
import urllib.request

import pytest
from playwright.sync_api import expect

from legalkg.facts.related import driver_read, unit_facts
from legalkg.serve.web.pages import LINK_LIMIT
from legalkg.verify import Status

pytestmark = [pytest.mark.neo4j, pytest.mark.timeout(600)]

KSCHG_1_2_2_NR1 = "/unit/KSchG/%C2%A71/Abs2/S2/Nr1"


def paragraphs(driver, law: str) -> tuple[int, int]:
    """(§§, repealed §§) of a law, counted here from the schema (docs/architecture.md)."""
    row = driver.execute_query("MATCH (p:Paragraph {law: $law}) RETURN count(p) AS n, "
                               "count(CASE WHEN p.repealed THEN 1 END) AS r", {"law": law}).records[0]
    return row["n"], row["r"]


def test_a_law_has_a_table_of_contents_and_each_gliederung_its_paragraphs(page, shot, driver):
    response = page.goto("/unit/UWG")
    assert response.status == 200
    assert page.locator("h1").inner_text().startswith("UWG")
    toc = page.locator("ol.toc").first
    assert [a.inner_text() for a in toc.locator(":scope > li.gl > a").all()] == [
        "Kapitel 1", "Kapitel 2", "Kapitel 3", "Kapitel 4"]
    assert page.locator("li.para").count() == paragraphs(driver, "UWG")[0]
    repealed = [li.locator("a").inner_text() for li in page.locator("li.para.repealed").all()]
    assert repealed == ["§ 17", "§ 18"]
    assert page.locator("li.para.repealed .badge").first.inner_text() == "weggefallen"
    shot(page, "contents")
    page.get_by_role("link", name="Kapitel 2", exact=True).click()
    assert page.url.endswith("/unit/UWG/Gl020")
    assert [a.inner_text() for a in page.locator("li.para > a").all()] == [
        "§ 8", "§ 8a", "§ 8b", "§ 8c", "§ 9", "§ 10", "§ 11"]
    assert "Schadensersatz" in page.locator("li.para", has_text="§ 9").inner_text()
    assert [a.inner_text() for a in page.locator("nav.crumbs a").all()] == ["UWG"]
    page.get_by_role("link", name="§ 9", exact=True).click()
    assert page.url.endswith("/unit/UWG/%C2%A79")


def test_breadcrumbs_name_each_level_and_link_it(page):
    page.goto(KSCHG_1_2_2_NR1)
    crumbs = page.locator("nav.crumbs li")
    assert " › ".join(c.inner_text() for c in crumbs.all()) == "KSchG › Abschnitt 1 › § 1 › Abs. 2 › Satz 2 › Nr. 1"
    assert page.locator("nav.crumbs a").count() == 5
    page.locator("nav.crumbs").get_by_role("link", name="Abschnitt 1").click()
    assert page.url.endswith("/unit/KSchG/Gl010") and "§ 1a" in page.locator("ol.toc").inner_text()


def test_previous_and_next_skip_the_repealed_paragraphs(page, shot):
    page.goto("/unit/UWG/%C2%A716")
    nxt = page.locator("nav.walk a[rel=next]")
    assert nxt.inner_text() == "Nächster: § 19 UWG →"  # §§ 17 and 18 UWG are repealed
    nxt.click()
    assert page.url.endswith("/unit/UWG/%C2%A719")
    assert page.locator("nav.walk a[rel=prev]").inner_text() == "← Vorheriger: § 16 UWG"
    shot(page, "unit-walk")
    page.goto("/unit/UWG/%C2%A717")  # a repealed § has its page, and is marked
    assert page.locator("h1 .badge.repealed").inner_text() == "weggefallen"


def test_a_list_item_is_shown_inside_the_sentence_that_introduces_it(page, shot):
    page.goto(KSCHG_1_2_2_NR1)
    text = page.locator(".unit-text")
    assert text.inner_text().startswith("Die Kündigung ist auch sozial ungerechtfertigt, wenn")
    top = text.locator(".u-satz > ol.items > li")
    assert [li.locator(":scope > .no").inner_text() for li in top.all()] == ["1.", "2."]
    focus = text.locator(".focus")
    assert focus.count() == 1 and focus.get_attribute("data-id") == "KSchG/§1/Abs2/S2/Nr1"
    assert focus.inner_text().startswith("1.") and "in Betrieben des privaten Rechts" in focus.inner_text()
    letters = focus.locator("ol.items > li > .no")
    assert [x.inner_text() for x in letters.all()] == ["a)", "b)"]
    assert "2. in Betrieben und Verwaltungen des öffentlichen Rechts" in text.inner_text()
    shot(page, "unit-deep")


def test_citations_in_the_text_are_links_and_unresolved_ones_show_their_status(page):
    page.goto("/unit/TzBfG/%C2%A717")
    link = page.locator(".unit-text a.ref", has_text="§§ 5 bis 7 des Kündigungsschutzgesetzes")
    assert link.count() == 1
    assert [a.inner_text() for a in page.locator(".unit-text .more a").all()] == ["§ 6 KSchG", "§ 7 KSchG"]
    assert page.locator(".unit-text a.ref", has_text="Satz 1").get_attribute("href") == "/unit/TzBfG/%C2%A717/S1"
    link.click()
    assert page.url.endswith("/unit/KSchG/%C2%A75")
    page.goto(KSCHG_1_2_2_NR1)
    bad = page.locator(".unit-text .ref.unresolved").first
    assert bad.inner_text().startswith("§ 95 des Betriebsverfassungsgesetzes")
    assert bad.get_attribute("data-status") == "law_not_in_graph"
    assert "Gesetz nicht geladen" in bad.inner_text() and bad.locator("a").count() == 0


def test_a_link_stands_where_the_edge_places_it_not_on_the_same_words_elsewhere(page):
    """§ 15 Abs. 3b Satz 2 KSchG (kschg.xml): "… der Erklärung nach Satz 1 bis … nach § 17 Absatz 3, § 17a
    Nummer 3 Satz 2, § 115 Absatz 2 Nummer 8 Satz 1 des Betriebsverfassungsgesetzes, …". Its first "Satz 1"
    is § 15 Abs. 3b Satz 1 KSchG; the second belongs to the BetrVG chain, not in the test graph: text with
    its status, no link (a search for the words "Satz 1" linked both)."""
    page.goto("/unit/KSchG/%C2%A715/Abs3b/S2")
    text = page.locator(".unit-text")
    links = text.locator("a.ref")
    assert [a.inner_text() for a in links.all()] == ["Satz 1"]
    assert links.first.get_attribute("href") == "/unit/KSchG/%C2%A715/Abs3b/S1"
    assert "der Erklärung nach Satz 1 bis zum Zeitpunkt" in text.inner_text()
    bad = text.locator(".ref.unresolved")
    assert bad.count() == 1 and bad.get_attribute("data-status") == "law_not_in_graph"
    assert "§ 115 Absatz 2 Nummer 8 Satz 1 des Betriebsverfassungsgesetzes" in bad.inner_text()
    assert bad.locator("a").count() == 0 and "Gesetz nicht geladen" in bad.inner_text()
    page.goto("/unit/KSchG/%C2%A715/Abs3b/S1")  # the backlink marks the same chain
    cited = page.locator("ul.backlinks li", has_text="§ 15 Abs. 3b Satz 2 KSchG").locator("q.citing")
    assert cited.locator("mark").count() == 1 and "nach <mark>Satz 1</mark> bis" in cited.inner_html()


def test_backlinks_show_the_citing_units_title_and_sentence(page):
    page.goto("/unit/KSchG/%C2%A75")
    item = page.locator("ul.backlinks li", has_text="§ 17 Satz 2 TzBfG")
    assert item.count() == 1
    assert "Anrufung des Arbeitsgerichts" in item.locator(".title").inner_text()
    assert item.locator("q.citing").inner_text() == "Die §§ 5 bis 7 des Kündigungsschutzgesetzes gelten entsprechend."
    assert item.locator("mark").inner_text() == "§§ 5 bis 7 des Kündigungsschutzgesetzes"


def test_a_unit_shows_the_terms_it_defines_and_the_definitions_that_apply(page, driver, neo4j_cfg):
    # TzBfG § 13 Abs. 1 Satz 1: "... sich die Arbeitszeit an einem Arbeitsplatz teilen (Arbeitsplatzteilung)."
    # Abs. 2 uses the term: "Scheidet ein Arbeitnehmer aus der Arbeitsplatzteilung aus, ..."
    page.goto("/unit/TzBfG/%C2%A713")
    defined = page.locator("section[aria-labelledby=facts-h] ul.defined li", has_text="Arbeitsplatzteilung")
    assert defined.count() == 1 and "§ 13 Abs. 1 Satz 1 TzBfG" in defined.inner_text()
    page.goto("/unit/TzBfG/%C2%A713/Abs2")
    applying = page.locator("section[aria-labelledby=facts-h] ul.applying li", has_text="Arbeitsplatzteilung")
    assert applying.count() == 1 and applying.locator("a").get_attribute("href").endswith("/Abs1/S1")
    shown = page.locator("section[aria-labelledby=facts-h] ul.applying li").count()
    facts = unit_facts(driver_read(driver, neo4j_cfg.database), "TzBfG/§13/Abs2", LINK_LIMIT)
    assert shown == len(facts["applying"])  # every definition the facts query finds


CHECK_ALL = ("Nach § 1 Abs. 2 Satz 1 KSchG: „Die Kündigung ist immer ohne Grund wirksam.“ Die Klagefrist steht in "
             "§ 4 Satz 1 KSchG: „innerhalb von drei Wochen nach Zugang der schriftlichen Kündigung Klage“. Der Mond "
             "ist aus Käse, § 23 Abs. 1 Satz 1 KSchG. Vgl. § 17 UWG, § 99 KSchG, Art. 6 DSGVO, § 1 HSOG, § 1 BayBO, "
             "§ 1 AGBG und § 1 RVO.")
EXPECTED = {  # as written -> (verify's status, the page's verdict)
    "§ 1 Abs. 2 Satz 1 KSchG": ("ok", "quote_not_found"), "§ 4 Satz 1 KSchG": ("ok", "ok"),
    "§ 23 Abs. 1 Satz 1 KSchG": ("ok", "low_support"), "§ 17 UWG": ("repealed", "repealed"),
    "§ 99 KSchG": ("no_such_unit", "no_such_unit"), "Art. 6 DSGVO": ("eu_law", "eu_law"),
    "§ 1 HSOG": ("unknown_law", "unknown_law"), "§ 1 BayBO": ("state_law", "state_law"),
    "§ 1 AGBG": ("law_repealed", "law_repealed"), "§ 1 RVO": ("law_not_in_graph", "law_not_in_graph")}


def test_check_shows_a_failed_quote_red_and_every_status_with_its_words(page, shot):
    page.goto("/check")
    page.get_by_label("Zu prüfender Text (z. B. eine Antwort eines Sprachmodells)").fill(CHECK_ALL)
    page.get_by_role("button", name="Prüfen").click()
    rows = page.locator("table.records tbody tr")
    got = {r.locator("td.written").inner_text(): (r.get_attribute("data-status"), r.get_attribute("data-verdict"))
           for r in rows.all()}
    assert got == EXPECTED
    failed = page.locator(".checked .cite", has_text="§ 1 Abs. 2 Satz 1 KSchG")
    assert failed.get_attribute("data-verdict") == "quote_not_found"
    assert failed.evaluate("e => getComputedStyle(e).borderBottomColor") == "rgb(176, 0, 32)"  # red
    assert failed.locator(".sign").inner_text() == "✗"
    assert "Wortlaut nicht gefunden" in rows.first.inner_text()
    colours = {page.locator(f".legend [data-legend={v}]").evaluate("e => getComputedStyle(e).backgroundColor")
               for _, v in EXPECTED.values()}
    assert len(colours) == len({v for _, v in EXPECTED.values()})  # each verdict its own colour
    legend = {d.get_attribute("data-legend") for d in page.locator("dl.legend dt .cite").all()}
    assert legend == {s.value for s in Status} | {"low_support", "quote_differs", "quote_not_found"}
    shot(page, "check-statuses")


def test_unknown_units_and_paths_are_html_404_pages_with_links(page, live):
    response = page.goto("/unit/KSchG/%C2%A75/Abs9")
    assert response.status == 404 and page.locator("html").get_attribute("lang") == "de"
    assert "KSchG/§5/Abs9 ist nicht im Graphen." in page.get_by_role("alert").inner_text()
    page.locator("ul.suggest a", has_text="KSchG/§5").first.click()
    assert page.url.endswith("/unit/KSchG/%C2%A75")
    page.goto("/unit/KSCHG/%C2%A75")
    assert "KSchG" in [a.inner_text() for a in page.locator("ul.suggest a").all()]
    response = page.goto("/keine/seite")
    assert response.status == 404 and "Diese Seite gibt es nicht: /keine/seite" in page.content()
    with pytest.raises(urllib.error.HTTPError) as err:  # a program still gets the JSON error
        urllib.request.urlopen(live + "/keine/seite", timeout=30)
    assert err.value.code == 404 and err.value.headers["content-type"] == "application/json"


def test_the_interface_is_german_and_english_on_request(page, browser, live):
    page.goto("/")
    assert page.locator("html").get_attribute("lang") == "de"
    assert page.locator("h1").inner_text() == "Die Gesetze fragen"
    page.get_by_role("link", name="English").click()
    assert page.locator("html").get_attribute("lang") == "en" and page.locator("h1").inner_text() == "Ask the statutes"
    page.goto("/unit/KSchG/%C2%A75")  # the cookie keeps the choice
    assert page.locator("#citedby-h").inner_text().startswith("Cited by")
    context = browser.new_context(base_url=live, locale="en-US", extra_http_headers={"Accept-Language": "en-US,en"})
    other = context.new_page()
    other.goto("/check")
    assert other.locator("html").get_attribute("lang") == "en" and other.locator("h1").inner_text().startswith("Check")
    context.close()


def test_enter_asks_and_shift_enter_starts_a_new_line(page):
    page.goto("/")
    box = page.get_by_label("Frage oder Sachverhalt")
    box.fill("Kündigung")
    box.press("Shift+Enter")
    box.type("Frist")
    assert box.input_value() == "Kündigung\nFrist" and "q=" not in page.url
    with page.expect_navigation():
        box.press("Enter")
    assert "q=K%C3%BCndigung" in page.url and page.locator("li.hit").count() >= 1


@pytest.mark.parametrize("typed", ["4 KSchG", "KSchG 4", "§4 KSchG"])
def test_a_bare_paragraph_number_and_law_open_the_paragraph(page, typed):
    page.goto("/")
    page.get_by_label("Zitat öffnen").fill(typed)
    page.get_by_role("button", name="Öffnen").click()
    assert page.url.endswith("/unit/KSchG/%C2%A74")


def test_favicon_and_static_files_are_compressed_and_cached(live):
    fav = urllib.request.urlopen(live + "/favicon.ico", timeout=30)
    assert fav.status == 200 and fav.headers["content-type"].startswith("image/svg+xml")
    request = urllib.request.Request(live + "/static/cytoscape.min.js", headers={"Accept-Encoding": "gzip"})
    answer = urllib.request.urlopen(request, timeout=30)
    body = answer.read()
    assert answer.headers["content-encoding"] == "gzip" and "max-age=" in answer.headers["cache-control"]
    assert len(body) < 200_000 and gzip.decompress(body).startswith(b"/*")
    again = urllib.request.Request(live + "/static/cytoscape.min.js", headers={"If-None-Match": answer.headers["etag"]})
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(again, timeout=30)
    assert err.value.code == 304


def test_copy_the_citation_and_open_the_official_text(page):
    page.goto("/unit/UWG/%C2%A75a")
    assert page.locator("a.official").get_attribute("href") == "https://www.gesetze-im-internet.de/uwg_2004/__5a.html"
    page.get_by_role("button", name="Zitat kopieren").click()
    expect(page.locator("p.tools .copied")).to_have_text("Kopiert.")
    assert page.evaluate("navigator.clipboard.readText()") == "§ 5a UWG"


@pytest.mark.parametrize("path", ["/", "/unit/UWG", KSCHG_1_2_2_NR1, "/unit/KSchG/%C2%A75",
                                  "/check?text=" + urllib.request.quote(CHECK_ALL)])
def test_a_phone_screen_has_no_horizontal_scroll_and_no_drawing(browser, live, path):
    context = browser.new_context(viewport={"width": 390, "height": 844}, base_url=live, is_mobile=True,
                                  locale="de-DE")
    phone = context.new_page()
    fetched: list[str] = []
    phone.on("request", lambda r: fetched.append(r.url))
    phone.goto(path)
    phone.mouse.wheel(0, 20000)
    phone.wait_for_timeout(300)
    width = phone.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width[0] <= width[1], width
    assert not any("cytoscape" in u for u in fetched)
    if path == "/unit/KSchG/%C2%A75":
        assert not phone.locator("#graph").is_visible()
    context.close()
