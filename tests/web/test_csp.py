"""The pages' Content-Security-Policy (legalkg.serve.web.csp): sent with every HTML page, enforced by
the browser, and the pages' own scripts and the drawing still work under it (headless Chromium)."""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from legalkg.serve.web import csp

WEB = Path(csp.__file__).parent


def test_the_hashed_style_is_the_one_cytoscape_inserts():
    js = (WEB / "static" / "cytoscape.min.js").read_text(encoding="utf-8")
    name = csp.CYTOSCAPE_STYLE.split()[0].lstrip(".")
    assert f'"{name}"' in js and '" { position: relative; }"' in js
    assert csp.style_hash("a") == "'sha256-ypeBEsobvcr6wjGzmiPcTaeG7/gUfE5yuYB3ha/uSLs='"  # sha256 of "a"


def test_no_template_holds_an_inline_script_style_or_handler():
    for path in (WEB / "templates").glob("*.html"):
        html = path.read_text(encoding="utf-8")
        scripts = re.findall(r"<script\b[^>]*>", html)
        assert all('src="/static/' in s or 'type="application/json"' in s for s in scripts), path
        assert not re.search(r"\sstyle=|\son[a-z]+=|<style\b|javascript:", html), path


@pytest.mark.neo4j
@pytest.mark.timeout(600)
@pytest.mark.parametrize("path", ["/", "/unit/KSchG/%C2%A75", "/unit/UWG", "/check", "/context", "/keine/seite",
                                  "/references/broken"])
def test_every_page_is_sent_with_the_policy(live, path):
    request = urllib.request.Request(live + path, headers={"Accept": "text/html"})
    try:
        answer = urllib.request.urlopen(request, timeout=60)
    except urllib.error.HTTPError as err:  # the 404 page
        answer = err
    assert answer.headers["content-type"].startswith("text/html")
    assert answer.headers["content-security-policy"] == csp.POLICY
    assert "script-src 'self';" in csp.POLICY and "'unsafe-inline'" not in csp.POLICY
    assert answer.headers.get_all("x-content-type-options") == ["nosniff"]  # once (serve.origin adds it)
    assert answer.headers["referrer-policy"] == "same-origin"


@pytest.mark.neo4j
@pytest.mark.timeout(600)
def test_under_the_policy_an_inline_script_is_refused_and_the_pages_scripts_run(page):
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    page.goto("/unit/KSchG/%C2%A75")
    page.evaluate("() => { const s = document.createElement('script'); s.textContent = 'window.ran = 1';"
                  " document.body.appendChild(s); }")
    assert page.evaluate("window.ran") is None and len(refused) == 1  # the policy is enforced
    page.locator("#graph").scroll_into_view_if_needed()  # app.js loads cytoscape.js, which draws
    page.wait_for_selector("#graph[data-nodes]", timeout=30_000)
    assert int(page.locator("#graph").get_attribute("data-nodes")) > 5
    page.get_by_role("button", name="Zitat kopieren").click()  # app.js's copy button
    assert page.evaluate("navigator.clipboard.readText()") == "§ 5 KSchG"
    page.goto("/")
    page.get_by_label("Frage oder Sachverhalt").fill("Kündigung")
    with page.expect_navigation():  # app.js's Enter to ask
        page.get_by_label("Frage oder Sachverhalt").press("Enter")
    assert "q=K%C3%BCndigung" in page.url
    page.locator("details.why summary").first.click()
    assert page.locator("details.why svg.bar").first.bounding_box()["width"] > 0  # the share bars, no inline style
    assert len(refused) == 1, refused  # nothing of the app's own was refused (the hashed cytoscape style included)
