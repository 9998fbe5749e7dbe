"""notebooks/paper_figures.ipynb runs headless on an --out folder written here (so it cannot rot).

The folder is written by the real writer (``outdir.write``) from a run assembled from hand-made
per-case scores, so no server is needed.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pandas as pd
import pytest
from nbclient import NotebookClient

from legalkg.eval import grid, outdir
from legalkg.eval.datasets import Coverage
from legalkg.eval.metric import CaseScore
from legalkg.eval.results import results_frame
from legalkg.eval.runner import EvalRun, LevelWords, case_score_frame
from legalkg.paths import REPO_ROOT

NOTEBOOK = REPO_ROOT / "notebooks" / "paper_figures.ipynb"
W = {"Paragraph": 160.0, "Absatz": 60.0, "Satz": 32.0, "Chunk": 100.0}


def _scores(n_hit: int, n: int = 20) -> list[CaseScore]:
    return [CaseScore(f"c{i}", 2, (2, 1, 1, 1, 1, 1) if i < n_hit else (1, 0, 0, 0, 0, 0), 5, 300)
            for i in range(n)]


@pytest.fixture
def out_dir(tmp_path) -> Path:
    cells = grid.plan(["Paragraph", "Absatz", "Satz", "Chunk"], ["none", "parent", "hybrid"], ["vector"])
    scores, frames, W_m = {}, [], {}
    for j, cell in enumerate(cells):
        scores[cell] = _scores(4 + j % 5)
        W_m[cell] = W[cell.level] * (1 if cell.expansion == "none" or cell.level == "Chunk" else 3)
        frames.append(results_frame(scores[cell], W[cell.level], W_m[cell], dataset="tiny", level=cell.level,
                                    expansion=cell.expansion, mode=cell.mode, k=5, n_resamples=50))
    table = pd.concat(frames, ignore_index=True)
    table["recall_at_k"], table["ndcg_at_k"], table["n_ir_queries"] = 0.25, 0.2, 20
    run = EvalRun(dataset="tiny", k=5, cells=cells, results=table,
                  paired=grid.compare_to_baseline(table, scores, W_m, n_resamples=200),
                  case_scores=case_score_frame(scores), coverage=Coverage(n_gold=44, n_covered=40, share=40 / 44),
                  n_cases_loaded=22, n_cases=20, max_depth=6,
                  words={lv: LevelWords(level=lv, units=10, W=w, W_m={"none": w}) for lv, w in W.items()},
                  models={"Satz": {"name": "usem3"}}, law_keys=["BGB"], timings={"total_s": 1.0},
                  started="2025-01-01T00:00:00+00:00")
    meta = outdir.run_metadata(run, command="legalkg eval --dataset tiny", graph={"labels": {"Gesetz": 1}})
    outdir.write(run, tmp_path / "out", meta)
    return tmp_path / "out"


@pytest.mark.timeout(300)
def test_notebook_runs_on_an_out_folder(out_dir, monkeypatch):
    monkeypatch.setenv("LEGALKG_EVAL_OUT", str(out_dir))
    nb = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(nb, timeout=240, kernel_name="python3",
                   resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    text = "\n".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))
    assert "command: legalkg eval --dataset tiny" in text
    assert "gold in the graph: 40 of 44 (90.9 %)" in text
    assert "Naive-100w" in text and "14.23" in text  # our table and the paper's quoted values
    assert "best_level" in text  # the paired test table
    md = (out_dir / "results.md").read_text()
    assert "| vector | Satz | 0.250 | 0.200 | 20 |" in md and "- command: `legalkg eval --dataset tiny`" in md
    figs = out_dir / "notebook"
    assert (figs / "table1_toer_by_depth.png").stat().st_size > 10_000
    assert (figs / "fig3_expansion_vector.png").stat().st_size > 10_000
    # Table 1 row of Satz at § depth: 4..8 of 20 cases hit one of two gold -> value from results.csv
    res = pd.read_csv(out_dir / "results.csv")
    satz = res[(res.level == "Satz") & (res.expansion == "none") & (res.depth == "§")].iloc[0]
    assert f"{satz.toer:.2f}" in text
