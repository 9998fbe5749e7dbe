from __future__ import annotations

import json

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
