"""Tuple -> most specific existing node."""

from __future__ import annotations

from legalkg.cite import extract, resolve
from legalkg.model import Citation

from .conftest import ids_of


def test_implicit_satz_for_nummer(bgb, registry):
    (m,) = extract("§ 437 Nr. 1 BGB", registry=registry)
    assert resolve(m, ids_of(bgb)) == "BGB/§437/S1/Nr1"


def test_existing_absatz_is_taken(bgb):
    assert resolve(Citation("BGB", "§326", "5"), ids_of(bgb)) == "BGB/§326/Abs5"


def test_missing_absatz_falls_back_to_the_paragraph(bgb):
    assert resolve(Citation("BGB", "§323", "1"), ids_of(bgb)) == "BGB/§323"


def test_absatz_with_implicit_satz_and_nummer(bgb):
    assert resolve(Citation("BGB", "§549", "2", None, "3"), ids_of(bgb)) == "BGB/§549/Abs2/S1/Nr3"


def test_missing_paragraph_is_none(bgb):
    assert resolve(Citation("BGB", "§9999"), ids_of(bgb)) is None


def test_unknown_law_is_none(bgb, registry):
    (m,) = extract("§ 437 FooBarG", registry=registry)
    assert resolve(m, ids_of(bgb)) is None


def test_article_with_section_both_id_styles():
    assert resolve(Citation("EGBGB", "Art229§5"), {"EGBGB/Art229§5"}) == "EGBGB/Art229§5"
    assert resolve(Citation("EGBGB", "Art229§5"), {"EGBGB/Art229/§5"}) == "EGBGB/Art229/§5"


def test_nummer_with_letter_as_buchstabe():
    known = {"StGB/§177", "StGB/§177/Abs8", "StGB/§177/Abs8/S1", "StGB/§177/Abs8/S1/Nr2",
             "StGB/§177/Abs8/S1/Nr2/Bsta"}
    assert resolve(Citation("StGB", "§177", "8", None, "2a"), known) == "StGB/§177/Abs8/S1/Nr2/Bsta"
