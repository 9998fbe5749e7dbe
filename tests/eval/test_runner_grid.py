"""The pure side of the evaluation runner: grid planning, per-case scoring, best vs baseline."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from legalkg.errors import UserError
from legalkg.eval import grid
from legalkg.eval.grid import Cell
from legalkg.eval.metric import CaseScore
from legalkg.eval.results import results_frame
from legalkg.model import Citation
from legalkg.retrieve import Hit, expand
from legalkg.vocab import Expansion


def test_all_levels_are_the_papers_five_and_the_naive_chunks():
    assert grid.parse_levels("all") == ["Paragraph", "Absatz", "Satz", "Nummer", "Buchstabe", "Chunk"]
    assert grid.parse_levels("§,naive,Satz") == ["Paragraph", "Chunk", "Satz"]
    assert grid.parse_expansions("all") == ["none", "parent", "citation", "hybrid"]
    assert grid.parse_modes("Fusion") == ["fusion"]
    assert grid.parse_modes("all") == ["vector", "fulltext", "fusion"]  # ranked only by name
    assert grid.parse_modes("ranked,vector") == ["learned", "vector"]  # ranked: the old name of learned


@pytest.mark.parametrize("call, word", [(lambda: grid.parse_levels("Kapitel"), "level"),
                                         (lambda: grid.parse_expansions("children"), "expansion"),
                                         (lambda: grid.parse_modes("bm25"), "mode"),
                                         (lambda: grid.parse_modes(" , "), "mode")])
def test_unknown_choices_are_one_line_user_errors(call, word):
    with pytest.raises(UserError) as err:
        call()
    msg = str(err.value)
    assert word in msg and "\n" not in msg and "choose one of" in msg


def test_grid_runs_chunks_unexpanded_only():
    cells = grid.plan(grid.GRID_LEVELS, grid.parse_expansions("all"), grid.parse_modes("all"))
    assert len(cells) == 3 * (5 * 4 + 1)
    chunks = [Cell("Chunk", "none", m) for m in ("vector", "fulltext", "fusion")]
    assert [c for c in cells if c.level == "Chunk"] == chunks
    assert cells[0] == Cell("Paragraph", "none", "vector")


def _seed(uid, words, score, covers=None):
    return Hit(id=uid, words=words, score=score, covers=covers, via="vector")


def _context(uid, words, seed):
    return Hit(id=uid, words=words, via="parent", seed=seed)


def test_score_seeds_counts_context_words_once_and_chunks_by_their_covers():
    gold = [Citation("BGB", "§433", "1"), Citation("BGB", "§437")]
    seeds = [_seed("BGB/§433/Abs1/S1", 20, 0.9), _seed("BGB/§433/Abs1/S2", 15, 0.8)]
    ctx = {"parent": {"BGB/§433/Abs1/S1": [_context("BGB/§433/Abs1", 35, "BGB/§433/Abs1/S1")],
                      "BGB/§433/Abs1/S2": [_context("BGB/§433/Abs1", 35, "BGB/§433/Abs1/S2")]}}
    expanded = expand.assemble(seeds, ctx, Expansion.PARENT)
    assert [(h.id, h.seed) for h in expanded] == [("BGB/§433/Abs1", "BGB/§433/Abs1/S1")]  # reached twice, once
    s = grid.score_seeds("c1", gold, seeds, expanded)
    assert s.hits == (2, 1, 1, 1, 1, 1) and s.n_gold == 2  # § 437 only shares the code
    assert s.n_hits == 2 and s.delivered_words == 20 + 15 + 35  # the shared parent once
    assert grid.score_seeds("c1", gold, seeds).delivered_words == 20 + 15
    chunk = _seed("BGB#w100-7", 100, 3.0, ["BGB/§436/Abs2/S1", "BGB/§437/S1"])
    c = grid.score_seeds("c2", gold, [chunk])
    assert c.hits == (2, 1, 1, 1, 1, 1)  # § 437 (gold names no Absatz) at every depth, § 433 by code only
    assert c.n_hits == 1 and c.delivered_words == 100
    assert grid.ranked_unit_ids([chunk, seeds[0]]) == ["BGB/§436/Abs2/S1", "BGB/§437/S1", "BGB/§433/Abs1/S1"]


def test_max_depth_is_the_shallowest_case_cap():
    assert grid.max_depth_of([{"max_depth": 2}, {}]) == 2
    assert grid.max_depth_of([{}]) == 6


def _cell_scores(hits_at_para):
    return [CaseScore(f"c{i}", 1, (1, h, h, h, h, h), 5, 100) for i, h in enumerate(hits_at_para)]


def test_best_cell_by_toer_m_is_tested_against_the_baseline():
    n = 40
    better = _cell_scores([1] * 30 + [0] * 10)
    base = _cell_scores([1] * 10 + [0] * 30)
    worse = _cell_scores([0] * n)
    scores = {Cell("Satz", "none", "vector"): better, Cell("Absatz", "none", "vector"): worse,
              Cell("Chunk", "none", "vector"): base}
    W = {Cell("Satz", "none", "vector"): 30.0, Cell("Absatz", "none", "vector"): 60.0,
         Cell("Chunk", "none", "vector"): 100.0}
    frame = pd.concat([results_frame(s, W[c], dataset="t", level=c.level, expansion=c.expansion, mode=c.mode,
                                     n_resamples=50) for c, s in scores.items()], ignore_index=True)
    assert grid.best_cell(frame, "vector") == Cell("Satz", "none", "vector")
    paired = grid.compare_to_baseline(frame, scores, W, max_depth=2, n_resamples=2000)
    rec = paired[(paired.statistic == "recall") & (paired.depth == "§")].iloc[0]
    assert rec.best == pytest.approx(0.75) and rec.baseline_value == pytest.approx(0.25)
    assert rec["diff"] == pytest.approx(0.5) and rec.p_value < 0.01 and rec.ci_low > 0
    toer = paired[(paired.statistic == "toer_m") & (paired.depth == "§")].iloc[0]
    assert toer["diff"] == pytest.approx(0.75 * 1000 / 30 - 0.25 * 1000 / 100)
    code = paired[(paired.statistic == "recall") & (paired.depth == "Code")].iloc[0]
    assert code["diff"] == 0 and code.p_value == 1.0
    assert (paired.p_holm >= paired.p_value).all()


def test_no_baseline_no_paired_test():
    scores = {Cell("Satz", "none", "vector"): _cell_scores([1, 0])}
    frame = results_frame(scores[Cell("Satz", "none", "vector")], 30.0, dataset="t", level="Satz",
                          mode="vector", n_resamples=20)
    assert grid.compare_to_baseline(frame, scores, {Cell("Satz", "none", "vector"): 30.0}).empty
    assert np.isnan(frame.toer).sum() == 0
