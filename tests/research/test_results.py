"""The one form the benchmarks write their results in (pure: files in a temporary folder)."""

from __future__ import annotations

import csv
import json

import numpy as np

from legalkg.eval.stats import bootstrap_ci
from research.results import fmt_ci, percentile_ci, subset_cells, write_results


def test_results_csv_md_and_run_json(tmp_path):
    rows = [{"mode": "fulltext", "n": 3, "p50_ms": 12.5}, {"mode": "vector", "n": 3, "p50_ms": 40.25, "note": "x"}]
    write_results(tmp_path / "out", rows, ["# title", "", "| a |"], {"date": "today", "rows": rows})
    raw = (tmp_path / "out" / "results.csv").read_bytes()
    assert b"\r" not in raw and raw.splitlines()[0] == b"mode,n,p50_ms,note"
    with (tmp_path / "out" / "results.csv").open(encoding="utf-8", newline="") as fh:
        back = list(csv.DictReader(fh))
    assert back == [{"mode": "fulltext", "n": "3", "p50_ms": "12.5", "note": ""},
                    {"mode": "vector", "n": "3", "p50_ms": "40.25", "note": "x"}]
    assert (tmp_path / "out" / "results.md").read_text("utf-8") == "# title\n\n| a |\n"
    assert json.loads((tmp_path / "out" / "run.json").read_text("utf-8"))["rows"][1]["note"] == "x"


def test_no_run_json_unless_given(tmp_path):
    write_results(tmp_path, [{"a": 1}], ["x"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.csv", "results.md"]


def test_percentile_interval_holds_the_percentile():
    values = np.arange(1.0, 101.0)
    point, low, high = percentile_ci(values, 50)
    assert point == 50.5 and low < point < high and high - low < 20


def test_fmt_ci_three_decimals():
    ci = bootstrap_ci(np.array([1.0, 0.0, 1.0, 1.0]), np.ones(4))
    assert fmt_ci(ci) == f"0.750 [{ci.low:.3f}, {ci.high:.3f}]"


def test_subset_cells_score_each_subset_alone():
    courts = ["BGH", "OLG", "BGH", "OLG", "BGH"]
    hits, n_gold = np.array([1.0, 0.0, 2.0, 1.0, 0.0]), np.array([1.0, 1.0, 2.0, 2.0, 1.0])
    rows: list[dict] = []
    cells = subset_cells(courts, hits, n_gold, {"dataset": "d", "subset": None, "configuration": "c"}, rows)
    assert cells == ["0.750", "0.333"]  # BGH: 3 of 4 gold found, OLG: 1 of 3
    assert [list(r) for r in rows] == [["dataset", "subset", "configuration", "value", "low", "high", "n"]] * 2
    assert [(r["subset"], r["n"]) for r in rows] == [("BGH", 3), ("OLG", 2)]
    assert rows[0]["low"] <= 0.75 <= rows[0]["high"]
