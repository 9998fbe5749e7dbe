"""`legalkg define TERM` on a live test graph of the BGB (issue 45); expectations hand-checked in bgb.xml."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from legalkg.cli import main


@pytest.fixture(scope="module")
def bgb(load_graph):
    load_graph("BGB", model=None)


def _define(*args):
    return CliRunner().invoke(main, ["define", *args])


def test_verbraucher_is_13_bgb(bgb, neo4j_env):
    run = _define("Verbraucher", "--json")
    assert run.exit_code == 0, run.output
    hits = [json.loads(line) for line in run.stdout.splitlines()]
    assert [(h["unit"], h["citation"], h["scope_kind"]) for h in hits] == [("BGB/§13/S1", "§ 13 Satz 1 BGB", "law")]
    assert hits[0]["text"].startswith("Verbraucher ist jede natürliche Person")


def test_unternehmer_is_14_bgb_in_words(bgb, neo4j_env):
    run = _define("unternehmer", "--law", "BGB")
    assert run.exit_code == 0, run.output
    assert run.stdout.splitlines()[0] == "Unternehmer — § 14 Abs. 1 Satz 1 BGB (scope: BGB (the whole law); wer)"


def test_no_definition_and_an_unknown_law_are_one_line(bgb, neo4j_env):
    run = _define("Quatschwort")
    assert run.exit_code == 1 and "no definition of 'Quatschwort'" in run.stderr
    run = _define("Verbraucher", "--law", "NOPE-G")
    assert run.exit_code != 0 and "unknown law 'NOPE-G'" in run.output and "Traceback" not in run.output
