"""The greedy selection on hand-made items: budget, no unit twice, gain per word, upgrades (pure)."""

from __future__ import annotations

from legalkg.context.gain import absatz_scope, para_scope
from legalkg.context.select import Item, ancestors, greedy, related


def item(uid: str, words: int, para: float, absatz: float) -> Item:
    return Item(uid, words, para_scope(uid), absatz_scope(uid), para, absatz)


def chosen_ids(choices) -> list[str]:
    return [c.item.id for c in choices]


def test_ancestors_and_related_follow_the_id_prefixes():
    assert ancestors("BGB/§433/Abs1/S2") == ["BGB/§433", "BGB/§433/Abs1"]
    assert ancestors("BGB/§433") == []
    assert related("BGB/§433", "BGB/§433/Abs1/S2")
    assert related("BGB/§433/Abs1", "BGB/§433/Abs1")
    assert not related("BGB/§433/Abs1", "BGB/§433/Abs10")
    assert not related("BGB/§43", "BGB/§433")


def test_picks_by_gain_per_word_and_respects_the_budget():
    items = [item("BGB/§535", 100, 0.5, 0.5),      # 0.010 per word
             item("BGB/§551/Abs1/S1", 10, 0.3, 0.1),  # 0.040 per word
             item("BGB/§573/Abs2", 40, 0.4, 0.4)]    # 0.020 per word
    choices = greedy(items, 60)
    assert chosen_ids(choices) == ["BGB/§551/Abs1/S1", "BGB/§573/Abs2"]
    assert sum(c.item.words for c in choices) <= 60
    assert chosen_ids(greedy(items, 150)) == ["BGB/§551/Abs1/S1", "BGB/§573/Abs2", "BGB/§535"]


def test_a_unit_that_does_not_fit_is_passed_over_for_smaller_ones():
    items = [item("BGB/§535", 90, 5.0, 5.0), item("BGB/§536/Abs1", 20, 0.2, 0.2), item("BGB/§537/S1", 15, 0.1, 0.1)]
    assert chosen_ids(greedy(items, 40)) == ["BGB/§536/Abs1", "BGB/§537/S1"]
    assert greedy(items, 5) == []


def test_never_an_ancestor_and_a_descendant_and_no_gain_twice():
    items = [item("BGB/§433/Abs1/S1", 10, 0.6, 0.4), item("BGB/§433/Abs1", 16, 0.6, 0.4),
             item("BGB/§433/Abs1/S2", 6, 0.6, 0.4)]
    choices = greedy(items, 100)
    # S2 first (best per word); S1 and Abs1 then add nothing (same § and Absatz) or contain S2
    assert chosen_ids(choices) == ["BGB/§433/Abs1/S2"]
    assert choices[0].gain == 1.0 and choices[0].para == 0.6 and choices[0].absatz == 0.4


def test_a_sibling_absatz_adds_only_its_own_absatz_gain():
    items = [item("BGB/§573/Abs1", 20, 0.8, 0.3), item("BGB/§573/Abs2", 30, 0.8, 0.6)]
    choices = greedy(items, 100)
    assert chosen_ids(choices) == ["BGB/§573/Abs1", "BGB/§573/Abs2"]
    assert choices[1].para == 0.0 and choices[1].absatz == 0.6


def test_a_paragraph_replaces_the_units_inside_it_when_the_budget_allows():
    # the Satz is the cheapest way into § 573; the whole § later adds its other Absätze' citations
    items = [item("BGB/§573/Abs1/S1", 10, 1.0, 0.2), item("BGB/§573", 60, 1.0, 1.5)]
    small = greedy(items, 30)
    assert chosen_ids(small) == ["BGB/§573/Abs1/S1"]
    big = greedy(items, 100)
    assert chosen_ids(big) == ["BGB/§573"]
    assert big[0].replaced == ("BGB/§573/Abs1/S1",)
    assert abs(big[0].gain - 1.3) < 1e-9  # 1.5 for the whole § less the 0.2 the Satz had


def test_ties_are_deterministic():
    items = [item("BGB/§2", 10, 0.5, 0.0), item("BGB/§1", 10, 0.5, 0.0)]
    assert chosen_ids(greedy(items, 10)) == ["BGB/§1"]
    assert chosen_ids(greedy(list(reversed(items)), 10)) == ["BGB/§1"]


def test_units_without_words_or_gain_are_never_delivered():
    items = [item("BGB/§1", 0, 1.0, 1.0), item("BGB/§2", 5, 0.0, 0.0), item("BGB/§3", 5, 0.1, 0.0)]
    assert chosen_ids(greedy(items, 100)) == ["BGB/§3"]
