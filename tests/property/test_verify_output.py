"""verify's records grow linearly with the text, however dense its citations (issue 36.1).

Random citation-dense texts go through the pure part of ``Verifier.verify`` (grammar, records,
unread § signs, lexical support score) over a graph in which every looked-up unit exists with a
long text, the costly case: every record resolves and is scored. Before issue 36 every record
copied its whole chain ("§§ 1, 1, 1, ...": 303 MB of JSON for 30 KB) and its unit's text.
"""

from __future__ import annotations

import json
import time

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from legalkg.cite import LawRegistry, extract
from legalkg.verify import Verifier, VerifyReport
from legalkg.verify.records import text_records
from legalkg.verify.status import UnitRow, lookup_ids

PIECES = ["§", "§§", "Art.", " ", ", ", " und ", " bis ", " f.", " ff.", "Abs.", "Satz", "Nr.", "BGB", "ZPO",
          "GG", "1", "2", "12a", "433", ".", "\n", "Der Käufer muss zahlen", "Nach", "(", ")", "a. F."]
DENSE = st.lists(st.one_of(st.sampled_from(PIECES), st.integers(0, 3000).map(str)), max_size=400).map("".join)
#: a § of 1,500 characters, as § 573 BGB has
UNIT_TEXT = "Der Vermieter kann nur kündigen, wenn er ein berechtigtes Interesse hat. " * 20


@pytest.fixture(scope="module")
def verifier() -> Verifier:
    return Verifier(None, vectors=False, registry=LawRegistry.default())


def json_size(verifier: Verifier, text: str) -> int:
    """Bytes of ``legalkg verify --json`` for ``text`` when every looked-up unit exists."""
    matches = extract(text, registry=verifier.registry)
    ids, laws = lookup_ids(matches)
    units = {u: UnitRow(id=u, citation=u, text=UNIT_TEXT, level="Paragraph", title="Kündigung") for u in ids}
    records, chains = text_records(text, matches, units, set(laws))
    verifier.add_support(text, records, chains, units)
    rows = VerifyReport(records=records).rows()
    return sum(len(json.dumps(r, ensure_ascii=False, separators=(",", ":")).encode()) + 1 for r in rows)


@settings(max_examples=150, deadline=5000, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(DENSE)
def test_output_is_linear_in_random_citation_dense_text(verifier, text):
    # a record is at most ~600 bytes and the grammar reads at most 2 units per character (+ 60)
    assert json_size(verifier, text) <= 600 * (len(text) + 60) + len(UNIT_TEXT) * text.count("§")


@settings(max_examples=25, deadline=20000, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(200, 3000), st.sampled_from(["§ 1 BGB ", "§ 573 BGB; ", "Nach § 433 Abs. 1 BGB muss er. "]))
def test_repeated_citations_stay_within_50_times_the_input(verifier, n, unit):
    text = unit * n
    assert json_size(verifier, text) <= 50 * len(text) + len(UNIT_TEXT) + 1000


@settings(max_examples=10, deadline=20000, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(500, 4000))
def test_a_chain_of_bare_numbers_is_linear_not_quadratic(verifier, n):
    text = "§§ " + ", ".join(["1"] * n) + " BGB"
    clock = time.perf_counter()
    # one record per 3 characters of input, ~350 bytes each: linear, unlike the chain copied per record
    assert json_size(verifier, text) <= 150 * len(text) + len(UNIT_TEXT)
    assert time.perf_counter() - clock < 10
