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


def test_group_frames_give_rows_per_court_and_only_for_two_or_more_courts():
    from legalkg.eval.results import group_frames, with_court

    scores = _scores(0.4, n=40)
    court_of = {s.case_id: ("BAG" if i < 10 else "BFH") for i, s in enumerate(scores)}
    by_court = group_frames(scores, court_of, 50.0, dataset="ler_courts", level="Satz", mode="vector",
                            n_resamples=50)
    assert sorted(set(by_court["court"])) == ["BAG", "BFH"]
    bag = by_court[(by_court.court == "BAG") & (by_court.depth == "§")].iloc[0]
    assert bag.n_cases == 10
    assert bag.hits == sum(s.hits[1] for s in scores[:10])
    assert bag.n_gold == sum(s.n_gold for s in scores[:10])
    assert group_frames(scores, {s.case_id: "BGH" for s in scores}, 50.0, dataset="x", level="Satz").empty
    overall = results_frame(scores, 50.0, dataset="ler_courts", level="Satz", mode="vector", n_resamples=50)
    table = with_court(overall, by_court)
    assert list(table.columns[:2]) == ["dataset", "court"]
    assert table["court"].tolist()[:6] == ["all"] * 6 and len(table) == 18
    assert (table[table.court == "all"]["hits"].to_numpy() ==
            by_court.groupby("depth_index")["hits"].sum().to_numpy()).all()


def test_report_keeps_court_rows_out_of_the_main_tables_and_lists_them_apart(frame, tmp_path):
    from legalkg.eval.results import group_frames, with_court

    scores = _scores(0.4, n=40)
    court_of = {s.case_id: ("BAG" if i % 2 else "BFH") for i, s in enumerate(scores)}
    by_court = group_frames(scores, court_of, 30.0, dataset="ler_bgh", level="Satz", expansion="none",
                            mode="bm25", k=5, n_resamples=50)
    write_report(with_court(frame, by_court), tmp_path)
    md = (tmp_path / "results.md").read_text()
    main, courts = md.split("## Per court")[0], md.split("## Per court", 1)[1]
    assert "BAG" not in main and "| ler_bgh | BAG | bm25 | Satz | none |" in courts
    assert "## Per court: micro recall" in md and "## Per court: raw recall, ToER, ToER^m and W_d" in md
    assert "## Table 1 layout" in main
    assert len(pd.read_csv(tmp_path / "results.csv")) == len(frame) + 12


def test_results_frame_with_per_depth_gold_has_ci_per_depth_and_nan_without_gold():
    from legalkg.eval.metric import score_case
    from legalkg.model import Citation

    scores = [score_case(f"c{i}", [Citation("BGB", "§573", "1"), Citation("BGB", "§574", "2", "1")],
                         ["BGB/§573/Abs1"] if i % 2 else ["BGB/§574/Abs2/S1"], gold_count="named")
              for i in range(30)]
    df = results_frame(scores, 30.0, dataset="x", level="Satz", n_resamples=100, gold_count="named")
    by = df.set_index("depth")
    assert by.loc["Satz", "n_gold"] == 30 and by.loc["Absatz", "n_gold"] == 60
    assert by.loc["Satz", "recall_micro"] == pytest.approx(0.5)
    assert by.loc["Satz", "ci_low"] < 0.5 < by.loc["Satz", "ci_high"]
    assert np.isnan(by.loc["Nummer", "recall_micro"]) and np.isnan(by.loc["Nummer", "ci_low"])
    assert set(df["gold_count"]) == {"named"}


def test_run_json_argv_hides_the_password():
    from legalkg.eval.outdir import scrub_argv

    argv = ["legalkg", "eval", "--password", "s3cret", "--dataset", "ler_bgh", "--password=other", "-k", "5"]
    assert scrub_argv(argv) == ["legalkg", "eval", "--password", "***", "--dataset", "ler_bgh", "--password=***",
                                "-k", "5"]


def test_court_summary_puts_recall_toer_toer_m_and_w_d_side_by_side_per_court():
    from legalkg.eval.report import court_summary, summary_markdown
    from legalkg.eval.results import group_frames, with_court

    scores = _scores(0.4, n=40)
    court_of = {s.case_id: ("BAG" if i < 10 else "BFH") for i, s in enumerate(scores)}
    kw = dict(dataset="ler_courts", level="Absatz", mode="learned", k=5, n_resamples=50)
    table = with_court(results_frame(scores, 50.0, **kw), group_frames(scores, court_of, 50.0, **kw))
    summary = court_summary(table)
    assert summary["court"].tolist() == ["all", "BAG", "BFH"]
    bag = summary.set_index("court").loc["BAG"]
    assert bag["n_cases"] == 10 and bag["n_gold"] == sum(s.n_gold for s in scores[:10])
    assert bag["recall §"] == pytest.approx(sum(s.hits[1] for s in scores[:10]) / bag["n_gold"])
    assert bag["ToER §"] == pytest.approx(bag["recall §"] * 1000 / 50.0) == pytest.approx(bag["ToER^m §"])
    assert bag["W_d"] == pytest.approx(60.0)  # 5 hits of 300 words per case
    assert "recall Absatz" in summary.columns and "ToER^m Absatz" in summary.columns
    md = summary_markdown(summary)
    assert md.count("\n") == 5 and "| ler_courts | learned | Absatz | none | BAG | 10 |" in md


def test_table1_rows_are_levels_and_columns_depths_with_recall_and_toer(frame):
    from legalkg.eval.report import table1_markdown

    md = table1_markdown(frame)
    lines = [ln for ln in md.split("\n") if ln.startswith("|")]
    assert lines[0].startswith("| level | cases | W | W_d | § recall | § ToER | § ToER^m | Absatz recall")
    assert [ln.split("|")[1].strip() for ln in lines[2:]] == ["Paragraph", "Absatz", "Satz"]  # parent rows left out
    absatz = frame[(frame.level == "Absatz") & (frame.expansion == "none") & (frame.depth == "§")].iloc[0]
    assert f"| Absatz | 60 | 70.0 | 60.0 | {absatz.recall_micro:.3f} [{absatz.ci_low:.3f}" in md
    assert md.startswith("**ler_bgh / bm25**")
