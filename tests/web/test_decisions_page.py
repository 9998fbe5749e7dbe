"""Backlinks from court decisions (issue 46): the unit page of § 573 BGB in headless Chromium, and the
``get_unit`` / ``related`` tools, over BGB and ZPO with decisions loaded by ``ingest-cases``.

The decisions are the constructed Open Legal Data records of tests/decisions.py (three cite § 573 BGB:
two BGH, one LG Berlin).
"""

from __future__ import annotations

import os
import subprocess
import time
import urllib.request

import pytest

from legalkg.graph.connection import open_driver
from legalkg.serve.tools import Tools
from legalkg.server.process import free_port

from ..decisions import DECISIONS, load_decisions, remove_decisions
from .conftest import LEGALKG

pytestmark = [pytest.mark.neo4j, pytest.mark.timeout(600)]


@pytest.fixture(scope="module")
def decisions(load_graph, driver, neo4j_cfg, tmp_path_factory):
    load_graph("BGB,ZPO", model=None)
    report = load_decisions(driver, neo4j_cfg.database, tmp_path_factory.mktemp("decisions"))
    assert report.new == len(DECISIONS) and report.bad == 0
    yield driver
    remove_decisions(driver, neo4j_cfg.database)


@pytest.fixture(scope="module")
def tools(decisions, neo4j_cfg):
    drv = open_driver(neo4j_cfg)
    yield Tools(drv, neo4j_cfg.database, vectors=False)
    drv.close()


def test_related_and_get_unit_return_the_citing_decisions(tools):
    rel = tools.related(id="BGB/§573", limit=2)["cited_by_decisions"]
    assert rel["count"] == 3
    assert rel["courts"] == [{"court": "BGH", "count": 2}, {"court": "LG Berlin", "count": 1}]
    assert [d["id"] for d in rel["decisions"]] == ["oldp:103", "oldp:102"]  # most recent first, limit 2
    assert rel["decisions"][1]["units"] == [{"id": "BGB/§573/Abs1/S1", "citation": "§ 573 Abs. 1 Satz 1 BGB"}]
    unit = tools.get_unit(citation="§ 573 Abs. 2 Nr. 2 BGB")
    assert unit["id"] == "BGB/§573/Abs2/S1/Nr2"
    got = unit["cited_by_decisions"]
    assert got["count"] == 2 and [d["date"] for d in got["decisions"]] == ["2021-03-04", "2019-05-22"]
    assert got["decisions"][1]["times"] == 2 and got["decisions"][1]["file_number"] == "VIII ZR 180/18"
    assert tools.related(id="BGB/§574", limit=5)["cited_by_decisions"] == {"count": 0, "courts": [], "decisions": []}


@pytest.fixture(scope="module")
def live(decisions, neo4j_cfg):
    """`legalkg serve --http` on a free port over the graph with the decisions."""
    port = free_port()
    env = {**os.environ, "NEO4J_URI": neo4j_cfg.uri, "NEO4J_USER": neo4j_cfg.user,
           "NEO4J_PASSWORD": neo4j_cfg.password or ""}
    proc = subprocess.Popen([LEGALKG, "serve", "--http", "--port", str(port)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(base + "/tools", timeout=2).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"legalkg serve --http did not come up: {proc.stderr.read()[-2000:]}") from None
                time.sleep(0.3)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_unit_page_of_573_lists_its_citing_decisions_with_courts(page, shot):
    page.goto("/?cite=" + "§ 573 BGB".replace(" ", "%20"))
    assert page.url.endswith("/unit/BGB/%C2%A7573")
    assert page.locator("#decisions-count").inner_text() == "3"
    assert page.locator("#decisions-h .courts").inner_text() == "(BGH 2, LG Berlin 1)"
    items = page.locator("ul.decisions > li")
    assert [i.get_attribute("data-court") for i in items.all()] == ["LG Berlin", "BGH", "BGH"]
    assert "2021-03-04 – 67 S 12/21" in items.first.inner_text()
    page.locator("#decisions-h").scroll_into_view_if_needed()
    shot(page, "unit-decisions")
    items.first.get_by_role("link", name="§ 573 Abs. 2 Satz 1 Nr. 2 BGB").click()
    assert page.url.endswith("/unit/BGB/%C2%A7573/Abs2/S1/Nr2")
    assert page.locator("#decisions-count").inner_text() == "2"
    section = page.locator("section[aria-labelledby=decisions-h]")
    assert section.locator("h2").inner_text().startswith("Zitiert von 2 Entscheidungen")
    assert "vom 2019-05-22" in section.inner_text() and "(2-mal)" in section.inner_text()
    page.goto("/unit/BGB/%C2%A7573/Abs2/S1/Nr2?lang=en")
    assert section.locator("h2").inner_text().startswith("Cited by 2 decisions")
    assert "of 2019-05-22" in section.inner_text() and "(2 times)" in section.inner_text()
    page.goto("/unit/BGB/%C2%A7574?lang=de")
    assert page.locator("#decisions-count").inner_text() == "0"
    assert "Keine Entscheidung im Graphen zitiert sie" in section.inner_text()
