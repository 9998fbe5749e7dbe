"""``--level auto``'s pure rule (legalkg.retrieve.auto) on hand-made subtrees (no server)."""

from __future__ import annotations

import pytest

from legalkg.errors import UserError
from legalkg.retrieve import SearchRequest
from legalkg.retrieve.auto import MIN_WORDS, build_tree, carrier, query_terms
from legalkg.vocab import Mode, RetrievalLevel, parse_level

ROOT = "L/§1"
#: (id, parent, words, text) in document order, parents first: § 1 with two Absätze, Abs. 2 with two Sätze
ROWS = [
    ("L/§1/Abs1", ROOT, 50, "Der Mieter leistet dem Vermieter eine Sicherheit."),
    ("L/§1/Abs2", ROOT, 60, "Der Vermieter legt die Sicherheit an. Die Zinsen der Sicherheit stehen dem Mieter zu."),
    ("L/§1/Abs2/S1", "L/§1/Abs2", 30, "Der Vermieter legt die Sicherheit an."),
    ("L/§1/Abs2/S2", "L/§1/Abs2", 30, "Die Zinsen der Sicherheit stehen dem Mieter zu."),
]
ROOT_TEXT = " ".join(text for uid, _, _, text in ROWS if uid.count("/") == 2)


def tree(rows=ROWS, root_words=110, root_text=ROOT_TEXT):
    return build_tree({ROOT: (root_words, root_text)}, rows)


def test_the_one_child_that_holds_every_matched_word_is_entered_down_to_the_sentence():
    assert carrier(ROOT, tree(), query_terms("Wem stehen die Zinsen meiner Sicherheit zu?")) == "L/§1/Abs2/S2"


def test_a_match_spread_over_two_children_stays_at_the_unit():
    # "Vermieter" and "Sicherheit" stand in both Absätze
    assert carrier(ROOT, tree(), query_terms("Vermieter Sicherheit")) == ROOT
    # only Abs. 2 holds all three words and neither of its Sätze does: S1 holds two (Vermieter,
    # legt), S2 one (Zinsen), so S1 carries the most of the match
    assert carrier(ROOT, tree(), query_terms("Vermieter legt an Zinsen")) == "L/§1/Abs2/S1"
    # S1 holds Vermieter and legt, S2 Zinsen and Mieter: two each, a tie, so Abs. 2 stays
    assert carrier(ROOT, tree(), query_terms("Vermieter legt Zinsen Mieter")) == "L/§1/Abs2"


def test_one_shared_word_or_none_keeps_the_paragraph():
    assert carrier(ROOT, tree(), query_terms("Zinsen")) == ROOT
    assert carrier(ROOT, tree(), query_terms("Pferd Kutsche")) == ROOT


def test_a_short_unit_is_not_split_by_words():
    rows = [(uid, parent, words if uid != "L/§1/Abs2" else MIN_WORDS, text) for uid, parent, words, text in ROWS]
    assert carrier(ROOT, tree(rows), query_terms("Zinsen der Sicherheit")) == "L/§1/Abs2"


def test_a_single_child_with_the_whole_text_gives_the_parent():
    rows = [("L/§2/Abs1", "L/§2", 80, "Zinsen der Sicherheit stehen dem Mieter zu, auch nach dem Auszug."),
            ("L/§2/Abs1/S1", "L/§2/Abs1", 80, "Zinsen der Sicherheit stehen dem Mieter zu, auch nach dem Auszug.")]
    t = build_tree({"L/§2": (80, rows[0][3])}, rows)
    assert carrier("L/§2", t, query_terms("Zinsen Sicherheit")) == "L/§2"


def test_named_units_come_before_the_words_and_chain_down():
    words = query_terms("Wem stehen die Zinsen meiner Sicherheit zu?")
    assert carrier(ROOT, tree(), words, pinned=[["L/§1/Abs1"]]) == "L/§1/Abs1"
    # the best id below the current unit wins; ids of other §§ or missing from the graph are passed over
    pinned = [["L/§9/Abs1", "L/§1/Abs7", "L/§1/Abs2", "L/§1/Abs1"], ["L/§1/Abs1/S1", "L/§1/Abs2/S1"]]
    assert carrier(ROOT, tree(), frozenset(), pinned=pinned) == "L/§1/Abs2/S1"
    # a named unit equal to the hit itself is no step
    assert carrier(ROOT, tree(), frozenset(), pinned=[[ROOT]]) == ROOT


def test_a_hit_without_its_subtree_stays_and_orphan_rows_are_ignored():
    assert carrier("L/§5", tree(), query_terms("Zinsen Sicherheit")) == "L/§5"
    t = tree([*ROWS, ("X/§1/Abs1", "X/§1", 10, "fremd")])
    assert "X/§1/Abs1" not in t and t[ROOT].children == ("L/§1/Abs1", "L/§1/Abs2")
    assert t["L/§1/Abs2/S2"].parent == "L/§1/Abs2" and t[ROOT].parent is None


def test_auto_is_a_level_of_the_request():
    assert parse_level("AUTO") is RetrievalLevel.AUTO and not RetrievalLevel.AUTO.indexed
    req = SearchRequest(query="Kaution", level="auto", mode="auto", expand="parent")
    assert req.level is RetrievalLevel.AUTO and req.mode is Mode.LEARNED and req.expand == "parent"
    with pytest.raises(UserError, match="unknown level 'automatic'"):
        SearchRequest(query="Kaution", level="automatic")
