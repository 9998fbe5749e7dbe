"""``verify --definitions`` (issue 45): the legal definition that applies to a term a citing sentence
uses is the one whose scope holds the cited unit. On the live test graph (BGB + ZPO), hand-checked
against the statute texts:

- § 13 BGB: "Verbraucher ist jede natürliche Person, die ein Rechtsgeschäft zu Zwecken abschließt, ...";
  § 14 Abs. 1 BGB: "Unternehmer ist eine natürliche oder juristische Person ..."; both for the whole BGB;
- § 312 Abs. 1 BGB: "... auf Verbraucherverträge anzuwenden, bei denen sich der Verbraucher zu der Zahlung
  eines Preises verpflichtet";
- § 29c Abs. 2 ZPO: "Verbraucher ist jede natürliche Person, die bei dem Erwerb des Anspruchs oder der
  Begründung des Rechtsverhältnisses nicht überwiegend im Rahmen ihrer gewerblichen oder selbstständigen
  beruflichen Tätigkeit handelt" (the ZPO's own definition, for the ZPO);
- § 121 Abs. 1 Satz 1 BGB: "ohne schuldhaftes Zögern (unverzüglich)".
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from legalkg.cli import main
from legalkg.errors import UserError
from legalkg.serve.args import VerifyArgs, parse_args
from legalkg.serve.tools import Tools
from legalkg.verify import Verifier
from legalkg.verify.definitions import applied

TEXT_BGB = ("Nach § 312 Abs. 1 BGB gelten die Vorschriften für Verträge zwischen einem Unternehmer und "
            "einem Verbraucher. Verbraucherverträge sind häufig.")
TEXT_ZPO = "Für Klagen nach § 29c Abs. 1 ZPO ist das Gericht am Wohnsitz des Verbrauchers zuständig."


@pytest.fixture(scope="module")
def verifier(load_graph, driver, neo4j_cfg):
    load_graph("BGB,ZPO", model=None)
    return Verifier(driver, neo4j_cfg.database, vectors=False)


def test_a_sentence_citing_312_bgb_reads_verbraucher_by_13_and_unternehmer_by_14(verifier):
    report = verifier.verify(TEXT_BGB, support=False, definitions=True)
    got = [(d.written, d.cited, d.defined_in, d.scope, d.scope_kind) for d in report.definitions]
    assert got == [("Unternehmer", "BGB/§312/Abs1", "BGB/§14/Abs1/S1", "BGB", "law"),
                   ("Verbraucher", "BGB/§312/Abs1", "BGB/§13/S1", "BGB", "law")]
    assert [TEXT_BGB[d.start:d.end] for d in report.definitions] == ["Unternehmer", "Verbraucher"]
    assert report.definitions[1].citation == "§ 13 Satz 1 BGB"  # "Verbraucherverträge" is no use of the term


def test_the_same_word_next_to_a_zpo_citation_takes_the_zpo_definition(verifier):
    report = verifier.verify(TEXT_ZPO, support=False, definitions=True)
    [d] = report.definitions
    assert (d.written, d.cited, d.defined_in, d.scope) == ("Verbrauchers", "ZPO/§29c/Abs1", "ZPO/§29c/Abs2/S1", "ZPO")


def test_no_definitions_unless_asked(verifier):
    assert verifier.verify(TEXT_BGB, support=False).definitions == []


def test_cli_prints_the_definition_as_a_json_line(verifier, neo4j_env):
    text = "Die Anfechtung nach § 121 Abs. 1 Satz 1 BGB muss unverzüglich erfolgen."
    res = CliRunner().invoke(main, ["verify", "--json", "--no-support", "--definitions", text])
    assert res.exit_code == 0, res.output
    lines = [json.loads(line) for line in res.output.splitlines()]
    [d] = [x for x in lines if x.get("kind") == "definition"]
    assert (d["written"], d["defined_in"], d["pattern"]) == ("unverzüglich", "BGB/§121/Abs1/S1", "paren")


def test_applied_keeps_whole_words_and_the_longest_of_overlapping_terms():
    text = "Nach § 1 X ist der Gericht der Hauptsache zuständig, nicht das Gerichtsgebäude."
    rows = [{"i": 0, "id": "X/§1", "text": text.lower(), "lo": 0}]
    hit = {"i": 0, "scope": "X", "scope_kind": "law", "defined_in": "X/§2", "citation": "§ 2 X", "pattern": "wer"}
    hits = [{**hit, "term": "Gericht", "key": "gericht"}, {**hit, "term": "Gericht der Hauptsache",
                                                            "key": "gericht der hauptsache"}]
    got = [(d.term, d.written) for d in applied(text, rows, hits)]
    assert got == [("Gericht der Hauptsache", "Gericht der Hauptsache")]


def test_mcp_verify_names_the_definition_when_asked(verifier, driver, neo4j_cfg):
    # the MCP and HTTP tool: the same arguments model and library call as `legalkg verify --definitions`
    tools = Tools(driver, neo4j_cfg.database, vectors=False)
    answer = json.loads(tools.call_json("verify", parse_args("verify", {"text": TEXT_BGB, "definitions": True})))
    got = [(d["written"], d["cited"], d["defined_in"], d["citation"]) for d in answer["definitions"]]
    assert got == [("Unternehmer", "BGB/§312/Abs1", "BGB/§14/Abs1/S1", "§ 14 Abs. 1 Satz 1 BGB"),
                   ("Verbraucher", "BGB/§312/Abs1", "BGB/§13/S1", "§ 13 Satz 1 BGB")]
    assert answer["ok"] is True
    plain = json.loads(tools.call_json("verify", parse_args("verify", {"text": TEXT_BGB})))
    assert "definitions" not in plain and plain["chains"] == answer["chains"]
    with pytest.raises(UserError, match="argument 'definitions' of verify must be a boolean, not a string"):
        parse_args("verify", {"text": TEXT_BGB, "definitions": "yes"})
    assert "definitions" in VerifyArgs.model_json_schema()["properties"]  # the MCP tool's input schema
