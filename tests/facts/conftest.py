"""Parsed laws from the shared gii folder, parsed once per test session (parsing BGB takes ~2 s)."""

from __future__ import annotations

from functools import cache

import pytest

from legalkg import paths
from legalkg.model import Law
from legalkg.parse import parse_file


@cache
def _law(slug: str) -> Law:
    return parse_file(paths.gii_dir() / f"{slug}.xml")


@pytest.fixture(scope="session")
def law():
    """``law('bgb')`` -> the parsed Law (cached)."""
    if not paths.gii_dir().is_dir():
        pytest.skip(f"shared gii data not found at {paths.gii_dir()}")
    return _law


@pytest.fixture(scope="session")
def unit(law):
    """``unit('bgb', 'BGB/§433/Abs1')`` -> the Unit (KeyError when missing)."""
    cache: dict[str, dict] = {}

    def get(slug: str, uid: str):
        if slug not in cache:
            cache[slug] = law(slug).by_id()
        return cache[slug][uid]

    return get


def ids_under(law: Law, prefix: str) -> list[str]:
    return [u.id for u in law.units if u.id == prefix or u.id.startswith(prefix + "/")]
