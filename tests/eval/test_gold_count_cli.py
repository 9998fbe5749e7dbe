"""`legalkg eval --gold-count` and `--dataset` for files of the LER form, on the command line (no server)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from legalkg.cli import main
from legalkg.eval.request import EvalRequest


@pytest.fixture
def nowhere(monkeypatch):
    # a port nothing listens on: these errors come before any connection attempt
    monkeypatch.setenv("NEO4J_URI", "bolt://127.0.0.1:9")
    monkeypatch.setenv("NEO4J_PASSWORD", "x")


def _command(**over):
    params = dict(dataset="ler_courts", level="all", expand="none", mode="all", k=5, out="eval/x")
    return EvalRequest(**{**params, **over}).command_line()


def test_the_recorded_command_names_the_gold_count():
    assert "--gold-count fixed" in _command()
    assert "--gold-count named" in _command(gold_count="named")


def test_an_unknown_gold_count_is_refused_by_the_option(nowhere):
    res = CliRunner().invoke(main, ["eval", "--dataset", "ler_bgh", "--gold-count", "truncated"])
    assert res.exit_code == 2
    assert "'truncated' is not one of 'fixed', 'dedup', 'named'" in res.output


def test_a_bad_ler_file_gives_one_line_and_exit_1(nowhere, tmp_path):
    bad = tmp_path / "mine.jsonl"
    bad.write_text(json.dumps({"id": "a", "text": "kurz", "norms": [{"start": 0, "end": 99}]}) + "\n",
                   encoding="utf-8")
    res = CliRunner().invoke(main, ["eval", "--dataset", str(bad)])
    assert res.exit_code == 1
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and "mine.jsonl:1: norms[0] span 0..99 lies outside the text" in lines[0]


@pytest.mark.parametrize("option, value", [("--out", "{blocker}/run"), ("--save-weights", "{blocker}/w.json")])
def test_an_unwritable_output_is_one_line_before_any_connection(nowhere, tmp_path, option, value):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    extra = ["--mode", "learned", "--cv", "2", "--tune-weights"] if option == "--save-weights" else []
    result = CliRunner().invoke(main, ["eval", "--limit", "2", *extra, option, value.format(blocker=blocker)])
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: cannot write to") and option in lines[0]
