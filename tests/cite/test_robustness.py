"""Hostile input: bounded time, no crash (issue 4, robustness)."""

from __future__ import annotations

import random

import pytest

from legalkg.cite import extract, mask, statute_edges

from .conftest import make_law


@pytest.mark.timeout(20)
def test_long_text(full_registry):
    text = ("Nach § 574 Abs. 2 Nr. 2 ZPO , § 5 III BGB und Art. 3 Abs. 1 GG gilt: " * 1500)[:100_000]
    assert len(text) == 100_000
    ms = extract(text, registry=full_registry)
    assert len(ms) > 3000


@pytest.mark.timeout(20)
@pytest.mark.parametrize("text", [
    "§" * 100_000,
    "§ 1 " + "Abs. 1 , " * 12_000,
    "§§ " + "1 , " * 30_000,
    "§ 1 bis 99999999 BGB",
    "§§ 1 bis 999999 BGB " * 1000,
    "Absatz 1 und " * 10_000,
    "i. V. m. " * 12_000,
    "a" * 100_000,
    "1" * 100_000,
    "Art. " * 20_000,
    "\x00\uffff§\u200b 5 Abs.\n" * 5000,
])
def test_adversarial_inputs(text, full_registry):
    extract(text, registry=full_registry, law_mentions=True)
    assert isinstance(mask(text, registry=full_registry), str)


@pytest.mark.timeout(20)
def test_random_garbage(full_registry):
    rng = random.Random(4)
    alphabet = list("§§ .,;:-–()Abs.SatzNr.IVX0123456789abcBGBZPOundbisff") + ["i. V. m.", " des "]
    for _ in range(200):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 400)))
        for m in extract(text, registry=full_registry):
            assert 0 <= m.chain_start <= m.start < m.end <= m.chain_end <= len(text)


def test_huge_ranges_are_capped(full_registry):
    ms = extract("§§ 1 bis 99999999 BGB", registry=full_registry)
    assert len(ms) <= 2


@pytest.mark.timeout(20)
def test_statute_edges_on_hostile_text(registry):
    law = make_law("BGB", [("BGB/§1", "§§ 1 bis 99999999 und Absatz 1 bis 99999 " * 200)])
    edges, stats = statute_edges(law, registry, {"BGB/§1"}, set())
    assert stats.references > 0
