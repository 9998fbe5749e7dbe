"""The depth-stratified citation metric on hand-made tuples.

Units used are real (checked in $LEGALKG_SHARED/data/gii): ZPO § 574 Abs. 2 has one Satz introducing
Nr. 1 and Nr. 2, Abs. 3 has two Sätze; BGB § 433 Abs. 1 has two Sätze, Abs. 2 one; BGB § 437 has
no numbered Absätze and its single Satz introduces Nr. 1-3.
"""

import math

import numpy as np
import pytest

from legalkg.eval import metric
from legalkg.eval.metric import (
    CaseScore,
    case_hits,
    match_depth,
    matches,
    mean_delivered_words_corpus,
    mean_words,
    recall_macro,
    recall_micro,
    retrieved_citations,
    score_case,
    summarize,
    toer,
)
from legalkg.model import Citation, decode_id


def C(*fields):
    return Citation(*fields)


def test_truncation_keeps_the_first_d_levels():
    c = decode_id("ZPO/§574/Abs2/S1/Nr2")
    assert c.truncate(1) == ("ZPO",)
    assert c.truncate(3) == ("ZPO", "§574", "2")
    assert c.truncate(6) == ("ZPO", "§574", "2", "1", "2", None)


def test_depth_names_and_bounds():
    assert metric.depth_index("Code") == 1
    assert metric.depth_index("§") == 2
    assert metric.depth_index("Buchstabe") == 6
    with pytest.raises(ValueError):
        metric.depth_index("Halbsatz")
    with pytest.raises(ValueError):
        metric.depth_index(7)


def test_exact_unit_matches_at_every_depth():
    g = decode_id("ZPO/§574/Abs2/S1/Nr2")
    assert match_depth(g, g) == 6
    assert all(matches(g, g, d) for d in range(1, 7))


def test_different_code_never_matches():
    assert match_depth(decode_id("StPO/§349/Abs2"), C("ZPO", "§349", "2")) == 0
    assert not matches(decode_id("StPO/§349/Abs2"), C("ZPO", "§349", "2"), "Code")


def test_wrong_absatz_matches_down_to_para_only():
    r = decode_id("ZPO/§574/Abs3/S1")
    g = C("ZPO", "§574", "2", None, "2")
    assert match_depth(r, g) == 2
    assert matches(r, g, "§")
    assert not matches(r, g, "Absatz")


def test_nummer_without_satz_in_gold_is_an_implicit_hit():
    # court style "§ 574 Abs. 2 Nr. 2 ZPO" names no Satz; the unit id has S1
    g = C("ZPO", "§574", "2", None, "2")
    assert match_depth(decode_id("ZPO/§574/Abs2/S1/Nr2"), g) == 6
    # the sibling Nummer differs at the Nummer level (depth 5)
    r1 = decode_id("ZPO/§574/Abs2/S1/Nr1")
    assert match_depth(r1, g) == 4
    assert matches(r1, g, "Satz") and not matches(r1, g, "Nummer")


def test_para_without_absaetze_matches_court_citation_without_absatz():
    # § 437 BGB has no numbered Absätze: node BGB/§437/S1/Nr1, court writes "§ 437 Nr. 1 BGB"
    assert match_depth(decode_id("BGB/§437/S1/Nr1"), C("BGB", "§437", None, None, "1")) == 6
    assert match_depth(decode_id("BGB/§437/S1/Nr3"), C("BGB", "§437", None, None, "1")) == 4


def test_gold_deeper_than_retrieved_unit_is_hit_by_the_containing_unit():
    g = C("BGB", "§433", "1", "2")  # § 433 Abs. 1 Satz 2 BGB
    assert match_depth(decode_id("BGB/§433/Abs1"), g) == 6
    assert match_depth(decode_id("BGB/§433"), g) == 6
    assert match_depth(decode_id("BGB/§433/Abs2"), g) == 2
    assert match_depth(decode_id("BGB/§433/Abs1/S1"), g) == 3


def test_gold_without_absatz_is_hit_by_any_unit_of_its_para():
    g = C("BGB", "§433")
    for uid in ("BGB/§433", "BGB/§433/Abs1", "BGB/§433/Abs2/S1"):
        assert match_depth(decode_id(uid), g) == 6
    assert match_depth(decode_id("BGB/§434/Abs1"), g) == 1


def test_values_compare_without_blanks_and_case():
    assert match_depth(C("BGB", "§573b"), C("BGB", "§ 573B")) == 6


def test_units_above_the_para_carry_no_citation():
    cits = retrieved_citations(["BGB/Gl020000", "BGB", "BGB/§433/Abs1", "BGB/§433/Abs1"])
    assert cits == [C("BGB", "§433", "1")]


def test_case_hits_counts_each_gold_once_per_depth():
    gold = [C("BGB", "§433", "1"), C("ZPO", "§574", "2", None, "2"), C("BGB", "§433", "1")]
    retrieved = retrieved_citations(["BGB/§433/Abs1", "ZPO/§574/Abs3"])
    assert case_hits(retrieved, gold).tolist() == [2, 2, 1, 1, 1, 1]


def test_worked_example_from_the_docstring():
    gold = [C("BGB", "§433", "1"), C("ZPO", "§574", "2", None, "2")]
    s = score_case("c1", gold, ["BGB/§433/Abs1", "ZPO/§574/Abs3"])
    df = summarize([s], W=50.0).set_index("depth")
    assert df.loc["§", "recall_micro"] == 1.0
    assert df.loc["Absatz", "recall_micro"] == 0.5
    assert df.loc["§", "toer"] == pytest.approx(20.0)
    assert df.loc["Absatz", "toer"] == pytest.approx(10.0)


def test_micro_and_macro_differ_when_cases_have_different_gold_sizes():
    # case A: 1 of 1 hit; case B: 1 of 3 hit
    hits = np.array([[1], [1]])
    n_gold = np.array([1, 3])
    assert recall_micro(hits, n_gold)[0] == pytest.approx(2 / 4)
    assert recall_macro(hits, n_gold)[0] == pytest.approx((1.0 + 1 / 3) / 2)


def test_macro_skips_cases_without_gold_and_empty_input_is_nan():
    hits = np.array([[1], [0]])
    assert recall_macro(hits, np.array([2, 0]))[0] == pytest.approx(0.5)
    assert math.isnan(recall_micro(np.zeros((1, 1)), np.array([0]))[0])


def test_toer_arithmetic_by_hand():
    # recall 0.3 with 75-word units: 0.3 / 0.075 = 4.0 per 1,000 words
    assert toer(0.3, 75.0) == pytest.approx(4.0)
    assert toer(np.array([0.5, 0.25]), 250.0).tolist() == pytest.approx([2.0, 1.0])
    with pytest.raises(ValueError):
        toer(0.5, 0.0)


def test_W_is_the_corpus_mean_and_W_m_adds_expansion_context():
    # three Absatz units of 10, 20, 30 words; Abs1 and Abs2 share the parent § of 60 words
    words = {"X/§1/Abs1": 10, "X/§1/Abs2": 20, "X/§2/Abs1": 30}
    parents = {"X/§1": 60, "X/§2": 30}
    assert mean_words(words.values()) == pytest.approx(20.0)
    assert mean_delivered_words_corpus(words) == pytest.approx(20.0)  # no expansion: W^m == W
    expansion = {"X/§1/Abs1": ["X/§1"], "X/§1/Abs2": ["X/§1", "X/§1"], "X/§2/Abs1": ["X/§2"]}
    # (10+60) + (20+60) + (30+30) = 210 over 3 units
    assert mean_delivered_words_corpus(words, expansion, parents) == pytest.approx(70.0)


def test_W_d_counts_distinct_delivered_units_per_hit():
    words = {"X/§1/Abs1": 10, "X/§1/Abs2": 20, "X/§1": 60}
    s1 = score_case("a", [C("X", "§1")], ["X/§1/Abs1", "X/§1/Abs2"], ["X/§1", "X/§1"], words)
    assert s1.delivered_words == 90 and s1.n_hits == 2
    s2 = score_case("b", [C("X", "§1")], ["X/§1/Abs1"], [], words)
    assert metric.delivered_words_per_hit([s1, s2]) == pytest.approx((45.0 + 10.0) / 2)


def test_summarize_reports_toer_m_with_its_own_W():
    s = CaseScore("a", 2, (2, 1, 1, 0, 0, 0), 5, 500)
    df = summarize([s], W=50.0, W_m=200.0).set_index("depth")
    assert df.loc["Code", "toer"] == pytest.approx(20.0)
    assert df.loc["Code", "toer_m"] == pytest.approx(5.0)
    assert df.loc["Code", "W_d"] == pytest.approx(100.0)
    assert df.loc["Code", "toer_d"] == pytest.approx(10.0)
    assert df.loc["Absatz", "recall_macro"] == pytest.approx(0.5)
    assert list(df.index) == ["Code", "§", "Absatz", "Satz", "Nummer", "Buchstabe"]


def test_expansion_nodes_add_retrieved_citations():
    gold = [C("BGB", "§433", "2")]
    without = score_case("a", gold, ["BGB/§433/Abs1"])
    with_parent = score_case("a", gold, ["BGB/§433/Abs1"], ["BGB/§433"])
    assert without.hits[2] == 0
    assert with_parent.hits[2] == 1


def test_naive_chunk_overrides_hit_count_and_words():
    # one 100-word naive chunk covering § 433 Abs. 2 and § 434 Abs. 1 BGB
    s = score_case("a", [C("BGB", "§434", "1")], ["BGB/§433/Abs2", "BGB/§434/Abs1"], n_hits=1,
                   delivered_words=100)
    assert s.hits[2] == 1 and s.n_hits == 1 and s.delivered_words == 100
    assert metric.delivered_words_per_hit([s]) == pytest.approx(100.0)


# --- counting gold per depth (fixed | dedup | named) ---------------------------------------------

def test_fixed_gold_count_is_case_hits_with_a_constant_denominator():
    gold = [C("BGB", "§573", "1"), C("BGB", "§573", "2")]
    retrieved = retrieved_citations(["BGB/§573/Abs1"])
    hits, n = metric.case_counts(retrieved, gold, "fixed")
    assert hits.tolist() == case_hits(retrieved, gold).tolist() == [2, 2, 1, 1, 1, 1]
    assert n.tolist() == [2] * 6


def test_dedup_counts_gold_once_after_truncation():
    # "§ 573 Abs. 1" and "§ 573 Abs. 2" are one gold at Code and § depth, two from Absatz on
    gold = [C("BGB", "§573", "1"), C("BGB", "§573", "2")]
    hits, n = metric.case_counts(retrieved_citations(["BGB/§573/Abs1"]), gold, "dedup")
    assert n.tolist() == [1, 1, 2, 2, 2, 2]
    assert hits.tolist() == [1, 1, 1, 1, 1, 1]
    # a different § of the same code: the truncated Code gold is hit, the § gold is not
    hits, n = metric.case_counts(retrieved_citations(["BGB/§574/Abs1"]), gold, "dedup")
    assert hits.tolist() == [1, 0, 0, 0, 0, 0] and n.tolist() == [1, 1, 2, 2, 2, 2]


def test_dedup_compares_values_without_blanks_and_case():
    gold = [C("BGB", "§573b", "1"), C("BGB", "§ 573B", "2")]
    _, n = metric.case_counts([], gold, "dedup")
    assert n.tolist()[:2] == [1, 1]


def test_named_counts_only_gold_that_names_the_depth():
    gold = [C("BGB", "§573"),                    # names Code and § only
            C("ZPO", "§574", "2", None, "2"),    # Absatz and Nummer, no Satz
            C("BGB", "§433", "1", "2")]          # Absatz and Satz
    retrieved = retrieved_citations(["BGB/§433/Abs1/S1", "ZPO/§574/Abs2/S1"])
    fixed_hits, fixed_n = metric.case_counts(retrieved, gold, "fixed")
    assert fixed_hits.tolist() == [3, 2, 2, 1, 1, 1] and fixed_n.tolist() == [3] * 6
    hits, n = metric.case_counts(retrieved, gold, "named")
    assert n.tolist() == [3, 3, 2, 1, 1, 0]
    assert hits.tolist() == [3, 2, 2, 0, 1, 0]
    # recall rises from Satz (0 of 1) to Nummer (1 of 1): the fixed count cannot do that
    recall = hits / np.where(n > 0, n, 1)
    assert recall[3] == 0.0 and recall[4] == 1.0
    assert all(a >= b for a, b in zip(fixed_hits / fixed_n, (fixed_hits / fixed_n)[1:]))


def test_score_case_keeps_the_per_depth_gold_and_summarize_divides_by_it():
    gold = [C("BGB", "§573", "1"), C("BGB", "§573", "2")]
    a = score_case("a", gold, ["BGB/§573/Abs1"], gold_count="dedup")
    assert a.n_gold == 2 and a.gold_by_depth == (1, 1, 2, 2, 2, 2) and a.hits == (1, 1, 1, 1, 1, 1)
    b = score_case("b", [C("BGB", "§433")], ["BGB/§1"], gold_count="dedup")
    assert b.gold_by_depth == (1,) * 6 and b.hits == (1, 0, 0, 0, 0, 0)
    assert score_case("c", gold, ["BGB/§573/Abs1"]).gold_by_depth is None  # fixed
    df = summarize([a, b], W=50.0).set_index("depth")
    assert df.loc["§", "n_gold"] == 2 and df.loc["Absatz", "n_gold"] == 3
    assert df.loc["§", "recall_micro"] == pytest.approx(1 / 2)
    assert df.loc["Absatz", "recall_micro"] == pytest.approx(1 / 3)
    assert df.loc["Absatz", "recall_macro"] == pytest.approx((1 / 2 + 0) / 2)


def test_named_depth_without_any_gold_is_nan_not_zero():
    s = score_case("a", [C("BGB", "§573", "1")], ["BGB/§573/Abs1"], gold_count="named")
    assert s.gold_by_depth == (1, 1, 1, 0, 0, 0)
    df = summarize([s], W=50.0).set_index("depth")
    assert df.loc["Absatz", "recall_micro"] == 1.0
    assert math.isnan(df.loc["Satz", "recall_micro"]) and math.isnan(df.loc["Satz", "recall_macro"])


def test_unknown_gold_count_is_refused():
    with pytest.raises(ValueError, match="fixed, dedup, named"):
        metric.case_counts([], [C("BGB", "§1")], "truncated")
