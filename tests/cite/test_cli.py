from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from legalkg.cli import main


def test_cli_prints_one_json_line_per_unit():
    res = CliRunner().invoke(main, ["cite", "§§ 3, 5 Abs. 1 UWG"])
    assert res.exit_code == 0, res.output
    rows = [json.loads(line) for line in res.output.splitlines()]
    assert [(r["law"], r["unit"], r["number"], r["absatz"], r["id"]) for r in rows] == [
        ("UWG", "§", "3", None, "UWG/§3"), ("UWG", "§", "5", "1", "UWG/§5/Abs1")]
    assert rows[0]["law_cited"] == "UWG"


def test_cli_reads_stdin():
    res = CliRunner().invoke(main, ["cite", "-"], input="§ 5 III BGB")
    rows = [json.loads(line) for line in res.output.splitlines()]
    assert rows[0]["id"] == "BGB/§5/Abs3"


def test_cli_empty_input_is_one_line_error():
    res = CliRunner().invoke(main, ["cite", "  "])
    assert res.exit_code == 1
    assert "no text given" in res.output
    assert "Traceback" not in res.output


def test_cli_check_source_resolves_implicit_satz():
    from legalkg import paths

    res = CliRunner().invoke(main, ["cite", "§ 437 Nr. 1 BGB", "--check-source", str(paths.gii_dir())])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output.splitlines()[0])["resolved_id"] == "BGB/§437/S1/Nr1"


@pytest.mark.timeout(30)
def test_cli_output_is_linear_in_a_long_shared_chain():
    """'§§ ' + 50,000 x '1, ' (150 KB) once wrote 7.5 GB: every unit repeated the whole chain."""
    text = "§§ " + "1, " * 50_000
    res = CliRunner().invoke(main, ["cite", "-"], input=text)
    assert res.exit_code == 0, res.output[:500]
    lines = res.output.splitlines()
    assert len(lines) == 50_000
    assert len(res.output) < 300 * len(text)
    rows = [json.loads(lines[0]), json.loads(lines[1])]
    assert rows[0]["span"] == text.strip().rstrip(",")
    assert rows[1]["span"] is None
    assert rows[0]["chain"] == rows[1]["chain"] == 0
    assert (rows[1]["chain_start"], rows[1]["chain_end"]) == (rows[0]["chain_start"], rows[0]["chain_end"])


def test_cli_each_chain_carries_its_span_once():
    res = CliRunner().invoke(main, ["cite", "§§ 3, 5 UWG und § 433 BGB"])
    rows = [json.loads(line) for line in res.output.splitlines()]
    assert [(r["chain"], r["span"]) for r in rows] == [(0, "§§ 3, 5 UWG"), (0, None), (1, "§ 433 BGB")]


def test_cli_text_over_the_limit_is_one_line():
    res = CliRunner().invoke(main, ["cite", "-", "--max-chars", "100"], input="§ 1 BGB " * 20)
    assert res.exit_code == 1
    assert res.output.count("\n") == 1
    assert "more than 100 characters" in res.output and "split it" in res.output
    assert "Traceback" not in res.output
