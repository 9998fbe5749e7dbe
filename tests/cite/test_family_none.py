"""Family 0_none of issue 35: tests/cite/data/families/0_none.tsv (hand-checked rows; format in its README)."""

from __future__ import annotations

import pytest

from .family_cases import predicted, rows


@pytest.mark.parametrize("row", rows("0_none"))
def test_row(row, full_registry):
    assert predicted(row, full_registry) == row["expected"]
