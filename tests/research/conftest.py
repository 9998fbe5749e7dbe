"""The parsed BGB and its study corpus, built once per test session."""

from __future__ import annotations

import pytest

from legalkg import paths
from legalkg.parse import parse_file
from research.chunking.units import build_corpus


@pytest.fixture(scope="session")
def bgb():
    path = paths.gii_dir() / "bgb.xml"
    assert path.exists(), f"shared statute data missing at {path}"
    return parse_file(path)


@pytest.fixture(scope="session")
def corpus(bgb):
    return build_corpus(bgb)
