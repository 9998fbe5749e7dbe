"""Windows, score propagation, Lumber boundaries, RAPTOR mapping: hand-made inputs (no server)."""

import numpy as np
import pytest

from legalkg.errors import UserError
from research.chunking.aggregate import propagate, recall_at, rrf_fuse, top_sections
from research.chunking.lumber import lumber_boundary, lumber_groups
from research.chunking.store import lucene_query
from research.chunking.strategies import STRATEGIES, resolve
from research.chunking.study import interleaved_order
from research.chunking.tree import covered_sections, extractive_summary, raptor_tree
from research.chunking.windows import fixed_windows, window_starts


def test_window_counts_and_overlap():
    # 10 tokens, size 4, overlap 1 -> stride 3: starts 0, 3, 6 (6 + 4 reaches the end)
    assert window_starts(10, 4, 1) == [0, 3, 6]
    assert window_starts(11, 4, 1) == [0, 3, 6, 9]  # ceil((11-4)/3) + 1 = 4
    assert window_starts(3, 4, 1) == [0]
    wins = fixed_windows([("A", "a1 a2 a3 a4 a5"), ("B", "b1 b2 b3 b4 b5")], 4, 1)
    assert [w.text for w in wins] == ["a1 a2 a3 a4", "a4 a5 b1 b2", "b2 b3 b4 b5"]
    assert [w.sections for w in wins] == [("A",), ("A", "B"), ("B",)]
    # consecutive windows share exactly `overlap` tokens
    assert wins[0].text.split()[-1:] == wins[1].text.split()[:1]
    with pytest.raises(ValueError):
        window_starts(10, 4, 4)


HITS = [(["S1"], 0.9), (["S2", "S1"], 0.8), (["S3"], 0.7), (["S2"], 0.6)]


def test_propagate_max_sum_rrf():
    assert propagate(HITS, "max") == {"S1": 0.9, "S2": 0.8, "S3": 0.7}
    s = propagate(HITS, "sum")
    assert s["S1"] == pytest.approx(1.7) and s["S2"] == pytest.approx(1.4) and s["S3"] == pytest.approx(0.7)
    r = propagate(HITS, "rrf", rrf_k=60)
    assert r["S1"] == pytest.approx(1 / 61 + 1 / 62)
    assert r["S2"] == pytest.approx(1 / 62 + 1 / 64)
    assert r["S3"] == pytest.approx(1 / 63)
    assert top_sections(propagate(HITS, "sum"), 2) == ["S1", "S2"]
    with pytest.raises(ValueError):
        propagate(HITS, "mean")


def test_top_sections_ties_and_recall():
    assert top_sections({"b": 1.0, "a": 1.0, "c": 2.0}, 10) == ["c", "b", "a"]
    assert recall_at(["x", "y"], ["y", "z"]) == 0.5
    assert recall_at([], []) == 0.0


def test_rrf_fuse_on_sections():
    fused = rrf_fuse([[(["A"], 0.9), (["B"], 0.5)], [(["B"], 12.0), (["C"], 3.0)]], rrf_k=60)
    assert [s for (s,), _ in fused] == ["B", "A", "C"]
    assert fused[0][1] == pytest.approx(1 / 62 + 1 / 61)


def test_lumber_boundary_picks_largest_drop():
    # similarities between neighbours: the drop after the 2nd unit is the largest -> chunk of 2
    assert lumber_boundary([0.8, 0.2, 0.7, 0.6]) == 2
    # the largest drop is to the unit after the group -> keep the whole group
    assert lumber_boundary([0.8, 0.7, 0.9, 0.1]) == 4
    assert lumber_boundary([float("-inf")]) == 1
    with pytest.raises(ValueError):
        lumber_boundary([])


def test_lumber_groups_respect_budget():
    v = np.array([[1, 0], [1, 0], [0, 1], [0, 1], [1, 0]], dtype=np.float32)
    groups = lumber_groups([3, 3, 3, 3, 3], v, budget=9)
    # first group = units 0..2 (9 words); the drop 1->2 (sim 0) cuts after 2 units
    assert groups[0] == (0, 2)
    assert groups[-1][1] == 5 and all(a < b for a, b in groups)
    assert all(b == a2 for (_, b), (a2, _) in zip(groups, groups[1:]))  # contiguous, no gaps


def test_raptor_tree_maps_leaves_to_sections():
    # two tight groups of leaves in different directions
    v = np.array([[1, 0, 0], [0.99, 0.1, 0], [0.98, 0, 0.1], [0, 1, 0], [0.1, 0.99, 0], [0, 0.98, 0.1]],
                 dtype=np.float32)
    sections = ["§1", "§1", "§2", "§7", "§8", "§8"]
    nodes, vecs = raptor_tree(v, branching=3, top=2, seed=0)
    assert len(vecs) == len(nodes)
    assert [n.level for n in nodes[:6]] == [0] * 6
    parents = nodes[6:]
    assert len(parents) == 2 and all(n.level == 1 for n in parents)
    assert sorted(covered_sections(n.leaves, sections) for n in parents) == [("§1", "§2"), ("§7", "§8")]
    assert sorted(n.leaves for n in parents) == [(0, 1, 2), (3, 4, 5)]
    texts = ["a", "b", "c", "d", "e", "f"]
    assert extractive_summary(v, texts, (0, 1, 2), n=2).split() == ["a", "b"]


def test_strategy_names_are_closed():
    assert len(STRATEGIES) == 29
    assert [s.name for s in resolve(["fixed"])] == ["fixed_16_4", "fixed_32_8", "fixed_64_16",
                                                     "fixed_128_32", "fixed_256_64"]
    assert STRATEGIES["lex_section"].label == "Study_section"
    with pytest.raises(UserError):
        resolve(["section; DROP"])


def test_lucene_query_has_no_operators():
    assert lucene_query('Kaution "AND" (Miete)? a') == "kaution and miete"


def test_llm_is_off_unless_configured(monkeypatch):
    from research.chunking.llm import LLMConfig, require_config

    assert LLMConfig.from_env({}) is None
    cfg = LLMConfig.from_env({"LEGALKG_LLM_BASE_URL": "http://x/v1/", "LEGALKG_LLM_MODEL": "m"})
    assert cfg.base_url == "http://x/v1" and cfg.model == "m" and cfg.api_key is None
    monkeypatch.delenv("LEGALKG_LLM_BASE_URL", raising=False)
    with pytest.raises(UserError, match="LEGALKG_LLM_BASE_URL"):
        require_config()


def test_interleaved_order_rotates_the_first_strategy():
    assert interleaved_order(3, 0, 0) == [0, 1, 2]
    assert interleaved_order(3, 1, 0) == [1, 2, 0]
    assert interleaved_order(3, 2, 1) == [0, 1, 2]
    # over n questions every strategy is timed in every position exactly once
    orders = [interleaved_order(4, q, 0) for q in range(4)]
    for pos in range(4):
        assert sorted(o[pos] for o in orders) == [0, 1, 2, 3]
    assert interleaved_order(0, 5, 0) == []
