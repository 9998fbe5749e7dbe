"""The values of ``/references/broken`` (legalkg.serve.web.views.broken_view): the law filter, the counts by
status and the pages of 100 rows, over counts as the graph's query returns them. Pure; the live page is in
tests/facts/test_broken_graph.py."""

from __future__ import annotations

import pytest

from legalkg.errors import UserError
from legalkg.serve.web.views import broken_view

COUNTS = [{"law": "BGB", "status": "missing_unit", "n": 30}, {"law": "BGB", "status": "repealed", "n": 150},
          {"law": "GG", "status": "repealed", "n": 2}]


def reader(calls: list):
    def read(law, skip):
        calls.append((law, skip))
        return [{"unit": "x", "reason": "the cited unit is repealed (weggefallen or aufgehoben)"}] * 80
    return read


def test_one_law_without_regard_to_case_and_its_second_page():
    calls: list = []
    got = broken_view(COUNTS, "bgb", "2", 100, reader(calls))
    assert calls == [("BGB", 100)]
    assert (got["law"], got["total"], got["by_status"]) == ("BGB", 180, {"missing_unit": 30, "repealed": 150})
    assert (got["page_no"], got["pages"], got["first"], got["last"]) == (2, 2, 101, 180)
    assert got["rows"][0]["why"] == "repealed"  # the reason's words in the page's language


def test_all_laws_and_a_page_past_the_last():
    calls: list = []
    got = broken_view(COUNTS, "", "9", 100, reader(calls))
    assert calls == [(None, 100)] and got["pages"] == 2 and got["page_no"] == 2
    assert got["laws"] == {"BGB": 180, "GG": 2} and got["total"] == 182


@pytest.mark.parametrize(("law", "page"), [("XYZ", "1"), ("", "0"), ("", "zwei")])
def test_a_law_without_rows_or_a_bad_page_is_one_line(law, page):
    with pytest.raises(UserError):
        broken_view(COUNTS, law, page, 100, reader([]))
