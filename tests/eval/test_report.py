import numpy as np
import pandas as pd
import pytest

from legalkg.eval.metric import CaseScore
from legalkg.eval.report import markdown_table, write_report
from legalkg.eval.results import results_frame


def _scores(p_hit: float, n=60, seed=0):
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        g = int(rng.integers(1, 4))
        code = int(rng.binomial(g, min(1.0, p_hit * 2)))
        depth = [code]
        for _ in range(5):
            depth.append(int(rng.binomial(depth[-1], p_hit)))
        out.append(CaseScore(f"c{i}", g, tuple(depth), 5, 5 * 60))
    return out


@pytest.fixture(scope="module")
def frame():
    parts = []
    for level, W, p in (("Paragraph", 300.0, 0.5), ("Absatz", 70.0, 0.4), ("Satz", 30.0, 0.35)):
        for exp, W_m in (("none", W), ("parent", W * 4)):
            parts.append(results_frame(_scores(p), W, W_m, dataset="ler_bgh", level=level, expansion=exp,
                                       mode="bm25", k=5, n_resamples=200))
    return pd.concat(parts, ignore_index=True)


def test_results_frame_has_ci_around_the_point_and_scaled_toer(frame):
    row = frame[(frame.level == "Absatz") & (frame.expansion == "none") & (frame.depth == "§")].iloc[0]
    assert row.ci_low <= row.recall_micro <= row.ci_high
    assert row.toer == pytest.approx(row.recall_micro * 1000 / 70.0)
    assert row.toer_ci_low == pytest.approx(row.ci_low * 1000 / 70.0)
    parent = frame[(frame.level == "Absatz") & (frame.expansion == "parent") & (frame.depth == "§")].iloc[0]
    assert parent.toer_m == pytest.approx(parent.toer / 4)
    assert len(frame) == 3 * 2 * 6


def test_max_depth_cuts_rows():
    df = results_frame(_scores(0.5), 100.0, dataset="gerlayqa", level="Paragraph", max_depth=2, n_resamples=50)
    assert df["depth"].tolist() == ["Code", "§"]


def test_markdown_table_lists_levels_coarse_to_fine_with_ci(frame):
    md = markdown_table(frame[frame.expansion == "none"], "toer")
    lines = md.strip().split("\n")
    assert lines[0].startswith("| dataset | mode | level | expansion | Code | § | Absatz")
    assert [ln.split("|")[3].strip() for ln in lines[2:]] == ["Paragraph", "Absatz", "Satz"]
    assert "[" in lines[2]


def test_write_report_writes_csv_markdown_and_both_figures(frame, tmp_path):
    written = write_report(frame, tmp_path)
    names = sorted(p.name for p in written)
    assert "results.csv" in names and "results.md" in names
    assert "toer_by_depth_ler_bgh_bm25.png" in names
    assert "toer_expansion_ler_bgh_bm25_Absatz.png" in names
    for p in written:
        assert p.exists() and p.stat().st_size > 0
    back = pd.read_csv(tmp_path / "results.csv")
    assert len(back) == len(frame)
    assert (tmp_path / "toer_by_depth_ler_bgh_bm25.png").read_bytes()[:4] == b"\x89PNG"
