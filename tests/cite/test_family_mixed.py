"""Family 6_mixed of issue 35: tests/cite/data/families/6_mixed.tsv (hand-checked rows; format in its README)."""

from __future__ import annotations

import pytest

from .family_cases import predicted, rows


@pytest.mark.parametrize("row", rows("6_mixed"))
def test_row(row, full_registry):
    assert predicted(row, full_registry) == row["expected"]
