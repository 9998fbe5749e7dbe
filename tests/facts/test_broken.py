"""`legalkg references --broken` (issue 45): dangling references as rows, the parser's gaps left out;
hand-checked against the gii files. Pure: no Neo4j."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter

from click.testing import CliRunner

from legalkg.cli import main
from legalkg.facts.broken import COLUMNS, broken_references


def test_a_reference_to_a_repealed_paragraph_is_a_row(law):
    rows = list(broken_references([law("betrvg")]))
    # § 125 Abs. 4 Nr. 4 BetrVG: "Die §§ 6 bis 8 und § 10 Abs. 2 finden entsprechende Anwendung"; § 10 is
    # "(weggefallen)" in betrvg.xml
    hit = [r for r in rows if r.source == "BetrVG/§125/Abs4/S1/Nr4" and r.target == "§ 10 BetrVG"]
    assert len(hit) == 1 and hit[0].status == "repealed" and "§ 10 Abs. 2" in hit[0].reference
    assert hit[0].satz.startswith("Die §§ 6 bis 8 und § 10 Abs. 2 finden entsprechende Anwendung")


def test_a_range_over_a_repealed_paragraph_is_no_row(law):
    rows = list(broken_references([law("bgb")]))
    # § 312g Abs. 3 BGB: "auf Grund der §§ 495, 506 bis 513": § 509 is repealed, the range is not broken
    assert not [r for r in rows if r.source == "BGB/§312g/Abs3/S1" and r.target == "§ 509 BGB"]


def test_a_list_lead_in_names_the_law_of_its_items(law):
    gaps: Counter = Counter()
    rows = list(broken_references([law("stpo")], gaps=gaps))
    # § 100k Abs. 2 Nr. 1 StPO: "aus dem Strafgesetzbuch a) ... nach § 86a": StGB sections, not StPO's
    assert not [r for r in rows if r.source.startswith("StPO/§100k/Abs2/S1/Nr1/")]
    assert gaps["law_named_elsewhere"] > 0


def test_cli_csv_and_json(law):
    law("burlg")  # skip without the shared data
    csv_run = CliRunner().invoke(main, ["references", "--broken", "--codes", "BetrVG"])
    assert csv_run.exit_code == 0, csv_run.output
    table = list(csv.reader(io.StringIO(csv_run.stdout)))
    assert tuple(table[0]) == COLUMNS and len(table) > 1
    json_run = CliRunner().invoke(main, ["references", "--broken", "--codes", "BetrVG", "--format", "json"])
    rows = [json.loads(line) for line in json_run.stdout.splitlines()]
    assert len(rows) == len(table) - 1 and {r["status"] for r in rows} <= {"missing_unit", "repealed"}
    assert "broken references in 1 laws" in json_run.stderr


def test_cli_without_broken_says_what_to_give():
    run = CliRunner().invoke(main, ["references"])
    assert run.exit_code != 0 and "legalkg references --broken" in run.output and "Traceback" not in run.output
