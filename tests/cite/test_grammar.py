"""The trigger pattern that decides which texts get tokenized (legalkg.cite.grammar)."""

from __future__ import annotations

import re

import pytest

from legalkg import paths
from legalkg.cite import grammar, lexicon
from legalkg.cite.grammar import prefix_tree

WORDS = {"abs", "absatz", "absatzes", "absätze", "s", "satz", "sätze", "art", "artt", "artikel"}


@pytest.mark.parametrize("word", sorted(WORDS))
def test_prefix_tree_matches_every_word(word):
    assert re.fullmatch(prefix_tree(WORDS), word)


@pytest.mark.parametrize("other", ["", "ab", "absat", "absatze", "sa", "satze", "ar", "artike",
                                   "artikels", "absatzess", "x"])
def test_prefix_tree_matches_nothing_else(other):
    assert re.fullmatch(prefix_tree(WORDS), other) is None


def _flat_trigger() -> re.Pattern[str]:
    """The trigger as a flat, longest-first alternation (how it was written before the tree)."""
    flat = grammar.trigger_re(lexicon.default(), flat=True)
    assert "(?:doppelbuchstaben|doppelbuchstabe|" in flat.pattern
    return flat


@pytest.mark.parametrize("text", [
    "nach Absatz 2 Satz 1", "ABSATZ 3", "der Absätze 1 bis 3", "Art. 20 Abs. 3 GG",
    "§§ 440, 323 und 326 Abs. 5", "Absatzes", "Absatzesx", "Satzung", "Sätzen", "S. 2",
    "des vorstehenden Absatzes", "Buchst. a", "Doppelbuchstabe aa", "Halbs. 2", "Nr. 3",
    "Grundsatz", "Ersatzes", "Satz-Ende", "_Absatz 1", "1Absatz",
])
def test_trigger_spans_equal_the_flat_alternation(text):
    assert ([m.span() for m in grammar.TRIGGER.finditer(text)]
            == [m.span() for m in _flat_trigger().finditer(text)])


def test_trigger_spans_equal_the_flat_alternation_on_the_bgb():
    if not (paths.gii_dir() / "bgb.xml").exists():
        pytest.skip("shared gii data not available")
    from legalkg.parse import parse_file

    flat = _flat_trigger()
    texts = [u.text for u in parse_file(paths.gii_dir() / "bgb.xml").units if u.text]
    assert len(texts) > 10_000
    for text in texts:
        assert [m.span() for m in grammar.TRIGGER.finditer(text)] == [m.span() for m in flat.finditer(text)]
