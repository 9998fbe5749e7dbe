from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from legalkg.cite.chainlines import SCHEMA
from legalkg.cli import main


def members(output: str) -> list[dict]:
    """Every cited unit of ``cite``'s chain lines, with the fields a member leaves to the one before it."""
    out = []
    for line in output.splitlines():
        chain = json.loads(line)
        assert chain["v"] == SCHEMA
        values: dict = {}
        for m in chain["members"]:
            values = {**values, "unit_span": None, **m}
            out.append({"span": chain["span"], **values})
    return out


def test_cli_prints_one_json_line_per_chain():
    res = CliRunner().invoke(main, ["cite", "§§ 3, 5 Abs. 1 UWG"])
    assert res.exit_code == 0, res.output
    assert res.output.count("\n") == 1
    rows = members(res.output)
    assert [(r["law"], r["unit"], r["number"], r.get("absatz"), r["id"]) for r in rows] == [
        ("UWG", "§", "3", None, "UWG/§3"), ("UWG", "§", "5", "1", "UWG/§5/Abs1")]
    assert rows[0]["law_cited"] == "UWG"


def test_cli_reads_stdin():
    res = CliRunner().invoke(main, ["cite", "-"], input="§ 5 III BGB")
    assert members(res.output)[0]["id"] == "BGB/§5/Abs3"


def test_cli_empty_input_is_one_line_error():
    res = CliRunner().invoke(main, ["cite", "  "])
    assert res.exit_code == 1
    assert "no text given" in res.output
    assert "Traceback" not in res.output


def test_cli_check_source_resolves_implicit_satz():
    from legalkg import paths

    res = CliRunner().invoke(main, ["cite", "§ 437 Nr. 1 BGB", "--check-source", str(paths.gii_dir())])
    assert res.exit_code == 0, res.output
    assert members(res.output)[0]["resolved_id"] == "BGB/§437/S1/Nr1"


@pytest.mark.timeout(30)
def test_cli_output_is_linear_in_a_long_shared_chain():
    """'§§ ' + 50,000 x '1, ' (150 KB) once wrote 7.5 GB: every unit repeated the whole chain; a row
    per unit was still 158x its input (issue 44): one chain line writes a member's offsets only."""
    text = "§§ " + "1, " * 50_000
    res = CliRunner().invoke(main, ["cite", "-"], input=text)
    assert res.exit_code == 0, res.output[:500]
    assert res.output.count("\n") == 1 and len(res.output.encode()) <= 50 * len(text.encode())
    chain = json.loads(res.output)
    assert chain["span"] == text.strip().rstrip(",") and len(chain["members"]) == 50_000
    assert chain["members"][1] == {"start": 6, "end": 7}  # "1": the same § 1 as the member before


def test_cli_each_chain_carries_its_span_once():
    res = CliRunner().invoke(main, ["cite", "§§ 3, 5 UWG und § 433 BGB"])
    chains = [json.loads(line) for line in res.output.splitlines()]
    assert [(c["span"], len(c["members"])) for c in chains] == [("§§ 3, 5 UWG", 2), ("§ 433 BGB", 1)]


def test_cli_text_over_the_limit_is_one_line():
    res = CliRunner().invoke(main, ["cite", "-", "--max-chars", "100"], input="§ 1 BGB " * 20)
    assert res.exit_code == 1
    assert res.output.count("\n") == 1
    assert "more than 100 characters" in res.output and "split it" in res.output
    assert "Traceback" not in res.output
