"""verify's output stays within 50x its input, however dense its citations (issues 36.1, 44).

Random citation-dense texts go through the pure part of ``Verifier.verify`` (grammar, records,
unread § signs, lexical support score) over a graph in which every looked-up unit exists with a
long text, the costly case: every record resolves and is scored. Before issue 36 every record
copied its whole chain ("§§ 1, 1, 1, ...": 303 MB of JSON for 30 KB) and its unit's text; before
issue 44 each record was a line of its own (113x the input for that chain).
"""

from __future__ import annotations

import json
import time

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from legalkg.cite import LawRegistry, extract
from legalkg.verify import Verifier, VerifyReport, chain_lines, expand
from legalkg.verify.compact import MIN_TEXT_CHARS
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


def rows_of(verifier: Verifier, text: str) -> list[dict]:
    """``VerifyReport.rows()`` for ``text`` when every looked-up unit exists."""
    matches = extract(text, registry=verifier.registry)
    ids, laws = lookup_ids(matches)
    units = {u: UnitRow(id=u, citation=u, text=UNIT_TEXT, level="Paragraph", title="Kündigung") for u in ids}
    records, chains = text_records(text, matches, units, set(laws))
    verifier.add_support(text, records, chains, units)
    return VerifyReport(records=records).rows()


def json_size(verifier: Verifier, text: str) -> int:
    """Bytes of ``legalkg verify --json`` (its chain lines, as the CLI writes them) for ``text``."""
    lines = chain_lines(rows_of(verifier, text), len(text))
    return sum(len(json.dumps(r, ensure_ascii=False, separators=(",", ":")).encode()) + 1 for r in lines)


def within_50x(verifier: Verifier, text: str) -> bool:
    """The goal of issue 44: at most 50 bytes per byte of input, beyond the units' texts a short
    text may always have in full (``MIN_TEXT_CHARS``, up to 2 bytes each) and a line's frame."""
    return json_size(verifier, text) <= 50 * len(text.encode()) + 2 * MIN_TEXT_CHARS + 1000


NUMBER = st.integers(1, 3000).map(str)
LAW = st.sampled_from(["BGB", "ZPO", "GG", "StGB"])
CHAIN = st.builds(lambda ns, law: "§§ " + ", ".join(ns) + f" {law}", st.lists(NUMBER, min_size=1, max_size=3000), LAW)
REPEATS = st.builds(lambda n, k, law: "§§ " + ", ".join([n] * k) + f" {law}", NUMBER, st.integers(1, 5000), LAW)
RANGES = st.builds(lambda a, b, law, k: f"§§ {a} bis {b} {law}; " * k, NUMBER, NUMBER, LAW, st.integers(1, 300))
NESTED = st.builds(lambda n, a, s, r, law, k: f"§ {n} Abs. {a} Satz {s} Nr. {r} {law}, " * k,
                   NUMBER, st.integers(1, 9), st.integers(1, 5), st.integers(1, 12), LAW, st.integers(1, 500))
SHAPES = st.one_of(CHAIN, REPEATS, RANGES, NESTED, DENSE,
                   st.lists(st.one_of(CHAIN, RANGES, NESTED), max_size=6).map(" Und ".join))


@settings(max_examples=150, deadline=20000, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(SHAPES)
def test_output_is_within_50_times_the_input_for_every_shape(verifier, text):
    assert within_50x(verifier, text)


@settings(max_examples=60, deadline=20000, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(CHAIN, RANGES, NESTED, DENSE).filter(lambda t: len(t) < 1500))
def test_the_chain_lines_expand_to_the_records(verifier, text):
    """``expand`` gives back every record; a text past the budget is marked ``text_cut`` and none."""
    rows = rows_of(verifier, text)
    back = [r for line in chain_lines(rows, len(text)) for r in expand(line)]
    assert len(back) == len(rows)
    for got, row in zip(back, rows, strict=True):
        assert {k: got[k] for k in row if k != "text"} == {k: v for k, v in row.items() if k != "text"}
        assert got["text"] == (None if got["text_cut"] else row["text"])
        assert not got["text_cut"] or row["text"] is not None


@settings(max_examples=25, deadline=20000, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(200, 3000), st.sampled_from(["§ 1 BGB ", "§ 573 BGB; ", "Nach § 433 Abs. 1 BGB muss er. "]))
def test_repeated_citations_stay_within_50_times_the_input(verifier, n, unit):
    assert within_50x(verifier, unit * n)


@settings(max_examples=10, deadline=20000, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(500, 4000))
def test_a_chain_of_bare_numbers_is_linear_not_quadratic(verifier, n):
    text = "§§ " + ", ".join(["1"] * n) + " BGB"
    clock = time.perf_counter()
    # a record every 3 characters of input: its offsets only, the rest is the member before it
    assert json_size(verifier, text) <= 15 * len(text) + 2 * len(UNIT_TEXT) + 1000
    assert time.perf_counter() - clock < 10
