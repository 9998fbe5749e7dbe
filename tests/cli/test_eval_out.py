"""``eval --out DIR`` where DIR holds an earlier run's results (issue 44, point 9): refused in one line
naming ``--force`` before any work; with ``--force`` the earlier results are replaced as a whole (a
figure the new run does not draw is not left beside it) and other files (a README) stay."""

from __future__ import annotations

import subprocess
import sys

from legalkg.eval import outdir
from tests.eval.test_notebook import _write_run

CLI = [sys.executable, "-m", "legalkg.cli"]


def test_an_earlier_runs_results_are_refused_without_force(tmp_path):
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "results.csv").write_text("old\n")
    dataset = tmp_path / "d.jsonl"
    dataset.write_text('{"id": "1", "text": "x", "gold": ["§ 433 BGB"]}\n')
    out = subprocess.run([*CLI, "eval", "--dataset", str(dataset), "--out", str(folder)], capture_output=True,
                         text=True, timeout=120, env={"NEO4J_URI": "bolt://127.0.0.1:9", "PATH": ""})
    assert out.returncode != 0 and out.stderr.count("\n") == 1, out.stderr
    assert "holds an earlier run's results (results.csv)" in out.stderr and "--force" in out.stderr
    assert (folder / "results.csv").read_text() == "old\n"


def test_a_folder_with_only_a_readme_is_not_an_earlier_run(tmp_path):
    (tmp_path / "README.md").write_text("notes\n")
    assert outdir.earlier_results(tmp_path) == []
    assert outdir.earlier_results(tmp_path / "missing") == []


def test_replacing_leaves_no_old_result_beside_the_new(tmp_path):
    folder = tmp_path / "run"
    _write_run(folder, "first")
    (folder / "toer_by_depth_gone_cell.png").write_bytes(b"old figure")
    (folder / "README.md").write_text("what this run is\n")
    assert any("_first_" in name for name in outdir.earlier_results(folder))  # figures are named per dataset
    _write_run(folder, "second")
    names = {p.name for p in folder.iterdir()}
    assert "toer_by_depth_gone_cell.png" not in names
    assert not [n for n in names if "_first_" in n], "a figure of the earlier run was left beside the new ones"
    assert any("_second_" in n for n in names) and "results.csv" in names
    assert (folder / "README.md").read_text() == "what this run is\n"
    assert "second" in (folder / "results.csv").read_text() and "first" not in (folder / "results.csv").read_text()
