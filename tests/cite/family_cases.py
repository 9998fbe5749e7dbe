"""The hand-checked family tables of issue 35 (tests/cite/data/families), read and scored by
benchmarks/cite_families.py: one copy of the table format, shared by the benchmark and the tests."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "cite_families.py"


def bench():
    spec = importlib.util.spec_from_file_location("cite_families", BENCH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def rows(family: str) -> list:
    b = bench()
    return [pytest.param(r, id=r["text"][:60]) for r in b.load(b.FAMILIES / f"{family}.tsv")]


def predicted(row: dict, registry) -> list[str]:
    b = bench()
    return [b.token(m) for m in b.predict(row, registry)]
