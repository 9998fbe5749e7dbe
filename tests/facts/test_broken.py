"""`legalkg references --broken` (issue 45): dangling references as rows, the parser's gaps left out;
hand-checked against the gii files. Pure: no Neo4j."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter

from click.testing import CliRunner

from legalkg.cite.broken import COLUMNS, broken_references
from legalkg.cli import main


def test_a_reference_to_a_repealed_unit_is_a_row(law):
    rows = list(broken_references([law("aktg")]))
    # § 206 Satz 2 AktG: "Dabei gelten sinngemäß § 27 Abs. 3 und 5, die §§ 32 bis 35, 37 Abs. 4 Nr. 2, 4 und 5
    # ..."; § 37 Abs. 4 Nr. 5 is "5. (weggefallen)" in aktg.xml (judged real: eval/facts/judged/broken_census.jsonl)
    hit = [r for r in rows if r.source == "AktG/§206/S2" and r.target == "§ 37 Abs. 4 Satz 1 Nr. 5 AktG"]
    assert len(hit) == 1 and hit[0].status == "repealed" and "37 Abs. 4 Nr. 2, 4 und 5" in hit[0].reference
    assert hit[0].satz.startswith("Dabei gelten sinngemäß § 27 Abs. 3 und 5")


def test_gaps_found_in_the_judged_sample_are_no_rows(law):
    gaps: Counter = Counter()
    rows = list(broken_references([law("sgb_3"), law("ao_1977"), law("ustg_1980")], gaps=gaps))
    got = {(r.source, r.target) for r in rows}
    # § 405 Abs. 5 SGB III: "nach § 404 Abs. 2 Nr. 1, 5 bis 16 und 19 Buchstabe a": Nr. 12, 14, 15 are
    # "(weggefallen)" but lie inside the valid range 5 bis 16
    assert not {t for s, t in got if s == "SGB III/§405/Abs5/S1"}
    # ... while § 445a Nr. 1 lists § 79 by name ("die §§ 54a, 61, 62, 64, 67, 79, 116 ..."), "(weggefallen)"
    assert ("SGB III/§445a/S1/Nr1", "§ 79 SGB III") in got
    # § 146 Abs. 2a AO: "nach § 146b Absatz 2 Satz 2, § 147 Absatz 6 und § 27b ... des Umsatzsteuergesetzes":
    # §§ 146b, 147 are the AO's own, only § 27b is the UStG's
    assert not [t for s, t in got if s.startswith("AO/§146/") and t.startswith(("§ 146b", "§ 147"))]
    assert gaps["range_member"] > 0 and gaps["law_named_once_for_a_list"] > 0


def test_list_item_numbers_and_relative_references_are_no_rows(law):
    bgb = {(r.source, r.target) for r in broken_references([law("bgb")])}
    # § 1851 BGB: "5. ... gemäß § 2290, 6. zu einer Zustimmung ...": the 6 is the next list item
    assert not [s for s, t in bgb if s.startswith("BGB/§1851") and t == "§ 6 BGB"]
    sgb5 = {(r.source, r.target) for r in broken_references([law("sgb_5")])}
    # § 65d Abs. 1 Satz 3 SGB V: "gilt § 63 Absatz 3 Satz 1 und 4, Absatz 3a und 5 mit Ausnahme von Absatz 5
    # Satz 3": Absatz 5 of § 63, not of § 65d
    assert not [s for s, t in sgb5 if s == "SGB V/§65d/Abs1/S3"]
    # § 203 Abs. 3 SGB V still names "Absatz 1 oder Absatz 2", and Abs. 2 is "(weggefallen)": a row
    assert ("SGB V/§203/Abs3/S1", "§ 203 Abs. 2 SGB V") in sgb5


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
    assert f"{len(rows)} broken reference" in json_run.stderr and "in 1 law;" in json_run.stderr


def test_cli_without_broken_says_what_to_give():
    run = CliRunner().invoke(main, ["references"])
    assert run.exit_code != 0 and "legalkg references --broken" in run.output and "Traceback" not in run.output


def test_a_law_misspelt_after_the_reference_or_a_number_beyond_the_last_para_is_no_row(law):
    gaps: Counter = Counter()
    stpo = {(r.source, r.target) for r in broken_references([law("stpo")], gaps=gaps)}
    # § 111f Abs. 2 Satz 2 StPO: "die §§ 928 und 932 der Zivilprozessordung" (sic): ZPO §§, which exist
    assert not [t for s, t in stpo if s.startswith("StPO/§111f/") and t in ("§ 928 StPO", "§ 932 StPO")]
    famfg = {(r.source, r.target) for r in broken_references([law("famfg")], gaps=gaps)}
    # § 152 Abs. 4 FamFG: "Für die in den §§ 1693 und 1802 Absatz 2 Satz 3 in Verbindung mit § 1867
    # bezeichneten Maßnahmen ...": BGB §§, the law left unnamed; the FamFG ends at § 493
    assert not [t for s, t in famfg if s.startswith("FamFG/§152/Abs4") and t.startswith("§ 1")]
    assert gaps["law_named_after"] > 0 and gaps["beyond_last_para"] > 0


def test_a_repealed_letter_inside_a_range_of_letters_is_no_row(law):
    # § 71 Abs. 4 GVG: "... Absatz 2 Nummer 4 Buchstabe a bis e und Nummer 5 ...": Buchstabe a is
    # "(weggefallen)", b to e are in force: the range is not broken
    rows = list(broken_references([law("gvg")]))
    assert not [r for r in rows if r.source.startswith("GVG/§71/Abs4") and "Nr. 4 Buchst. a" in r.target]


def test_a_chain_whose_members_fall_on_one_repealed_para_is_one_row(law):
    # § 36 Nr. 5 EGZPO: "In einem Verfahren nach § 621 Abs. 1 Nr. 4, 5 oder Nr. 11 der Zivilprozessordnung ...":
    # § 621 ZPO is "(weggefallen)"; the three members name the one repealed §
    rows = list(broken_references([law("zpoeg"), law("zpo")]))
    hits = [r for r in rows if r.source == "EGZPO/§36/S1/Nr5" and r.target == "§ 621 ZPO"]
    assert len(hits) == 1 and hits[0].status == "repealed"
