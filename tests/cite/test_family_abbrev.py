"""Family 1_abbrev of issue 35: tests/cite/data/families/1_abbrev.tsv (hand-checked rows; format in its README)."""

from __future__ import annotations

import pytest

from .family_cases import predicted, rows


@pytest.mark.parametrize("row", rows("1_abbrev"))
def test_row(row, full_registry):
    assert predicted(row, full_registry) == row["expected"]
