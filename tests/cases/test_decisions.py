"""Decision records -> what the graph stores of them (pure: the parsed BGB and ZPO, no server).

The cited units were checked by hand against the statute texts: § 573 Abs. 2 BGB lists the landlord's
interests in a Satz 1 with Nummern (Nr. 2 = Eigenbedarf), so "§ 573 Abs. 2 Nr. 2 BGB" is the unit
BGB/§573/Abs2/S1/Nr2; § 574 Abs. 1 BGB has a Satz 1 and 2; § 91 Abs. 1 ZPO has two Sätze.
"""

from __future__ import annotations

import gzip
import json

import pytest

from legalkg.cases.decisions import CITE_TEXT_CHARS, BadRecord, court_of, iso_date, lead_of, parts, read_decision
from legalkg.cases.spans import SpanReader
from legalkg.cite import KnownUnits, extract, resolve
from legalkg.cite.caselaw import cited_file_numbers, file_key
from legalkg.codes import resolve_codes as default_slugs_of
from legalkg.jsonl import each_record
from legalkg.model import TEXT_LEVELS
from legalkg.parse import iter_laws
from legalkg.paths import eval_dir

OLD_CASE = {
    "id": 7, "slug": "bgh-2020-06-10-viii-zr-1-20", "court": {"name": "Bundesgerichtshof", "slug": "bgh"},
    "file_number": "VIII ZR 1/20", "date": "2020-06-10", "type": "Urteil",
    "ecli": "ECLI:DE:BGH:2020:100620UVIIIZR1.20.0",
    "content": "<h2>Tatbestand</h2><p>Die Vermieterin kündigte wegen Eigenbedarfs.</p><h2>Entscheidungsgründe</h2>"
               "<p>Die Kündigung ist nach § 573 Abs. 2 Nr. 2 BGB wirksam (BGH, Urteil vom 22. Mai 2019 – VIII ZR "
               "180/18, BGHZ 222, 133). Der Härteeinwand nach § 574 Abs. 1 Satz 1 BGB greift nicht; § 573 Abs. 2 "
               "Nr. 2 BGB verlangt keinen Nachweis. Die Kosten folgen aus § 91 Abs. 1 ZPO und § 99 WoEigG.</p>",
}


@pytest.fixture(scope="module")
def known():
    ids = {u.id for _, law in iter_laws(None, ["bgb", "zpo"]) for u in law.units if u.level in TEXT_LEVELS}
    return KnownUnits(ids)


def test_open_legal_data_case_cites_the_deepest_unit(known):
    d = read_decision(OLD_CASE, known)
    assert (d.id, d.source, d.court, d.date, d.type) == ("oldp:7", "openlegaldata", "BGH", "2020-06-10", "Urteil")
    assert d.file_number == "VIII ZR 1/20" and d.ecli.startswith("ECLI:DE:BGH:2020")
    assert [(c.target, c.text, c.count) for c in d.cites] == [
        ("BGB/§573/Abs2/S1/Nr2", "§ 573 Abs. 2 Nr. 2 BGB", 2),
        ("BGB/§574/Abs1/S1", "§ 574 Abs. 1 Satz 1 BGB", 1),
        ("ZPO/§91/Abs1", "§ 91 Abs. 1 ZPO", 1)]
    assert d.unresolved == 1  # § 99 WoEigG: a law the graph does not hold
    assert d.cites_files == ["BGH|VIIIZR180/18"]  # the reporter BGHZ 222, 133 names no file number
    assert d.lead.startswith("Tatbestand Die Vermieterin kündigte") and "<" not in d.lead


def test_ler_record_keeps_its_id_and_court(known):
    rec = {"id": "ler-bgh-0099", "court": "BGH", "text": "Die Revision wird nach § 552a ZPO zurückgewiesen .",
           "norms": [{"start": 22, "end": 32, "text": "§ 552a ZPO"}]}
    d = read_decision(rec, known)
    assert (d.id, d.source, d.court, d.date, d.file_number) == ("ler-bgh-0099", "ler", "BGH", None, None)
    assert [c.target for c in d.cites] == ["ZPO/§552a"]


def test_a_decision_does_not_cite_its_own_file_number(known):
    rec = {**OLD_CASE, "content": "<p>Fortführung von BGH, Urteil vom 10. Juni 2020 – VIII ZR 1/20.</p>"}
    assert read_decision(rec, known).cites_files == []


@pytest.mark.parametrize(("rec", "problem"), [
    ({"court": "BGH", "text": "x"}, "no 'id'"),
    ({"id": 1, "court": "BGH"}, "needs its text"),
    ({"id": 1, "content": 5}, "HTML string"),
    ({"id": 1, "text": "x", "date": "10.06.2020"}, "YYYY-MM-DD"),
    ({"id": 1, "text": "x", "court": ["BGH"]}, "'court'"),
])
def test_bad_records_name_their_problem(known, rec, problem):
    with pytest.raises(BadRecord, match=problem):
        read_decision(rec, known)


def test_courts_dates_leads():
    assert court_of({"name": "Bundesarbeitsgericht"}) == "BAG" and court_of("OLG München") == "OLG München"
    assert court_of(None) is None
    assert iso_date("2019-05-22T00:00:00") == "2019-05-22" and iso_date(None) is None
    with pytest.raises(BadRecord):
        iso_date("2019-02-30")
    assert lead_of("a " * 100) == " ".join(["a"] * 60)
    assert lead_of(("x" * 30 + " ") * 20).endswith(" …") and len(lead_of(("x" * 30 + " ") * 20)) <= 402


def test_a_text_over_the_grammars_limit_is_read_in_pieces():
    text = ("Zeile\n" * 10) + "Ende"
    assert "".join(parts(text, limit=20)) == text and all(len(p) <= 20 for p in parts(text, limit=20))


def test_file_numbers_of_case_citations():
    found = cited_file_numbers("vgl. BAG, Urt. v. 1.2.2018 - 9 AZR 98/17; ferner – IX ZR 12/19 und NJW 2005, 123")
    assert found == [("BAG", "9AZR98/17"), (None, "IXZR12/19")]
    assert file_key("IX ZR 12/19") == file_key("IXZR 12/19") == "IXZR12/19"


def test_each_record_reports_bad_lines_and_goes_on(tmp_path):
    path = tmp_path / "d.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        fh.write(json.dumps({"id": 1}) + "\n{not json\n\n[1, 2]\n" + json.dumps({"id": 2}) + "\n")
    got = list(each_record(path, "decision file", "fix"))
    assert [(n, r) for n, r, _ in got] == [(1, {"id": 1}), (2, None), (4, None), (5, {"id": 2})]
    assert "not valid JSON" in got[1][2] and got[2][2] == "each line must be a JSON object"


def default_slugs() -> list[str]:
    return default_slugs_of("default")


@pytest.fixture(scope="module")
def default_known():
    ids = {u.id for _, law in iter_laws(None, default_slugs()) for u in law.units if u.level in TEXT_LEVELS}
    return KnownUnits(ids)


def whole_text_units(text: str, known) -> list[tuple[str, str, int]]:
    """What the grammar gives for the whole text at once, counted per deepest unit (the reference)."""
    out: dict[str, list] = {}
    for m in extract(text, known=known):
        target = resolve(m, known) if m.law_key and m.para else None
        if target is not None:
            out.setdefault(target, [text[m.chain_start:m.chain_end][:CITE_TEXT_CHARS], 0])[1] += 1
    return [(t, x, n) for t, (x, n) in out.items()]


def test_scanning_the_marked_lines_gives_what_the_whole_text_gives(default_known):
    """On the first 60 records of each shared LER file (real decisions, 58 codes)."""
    for name in ("ler_bgh/bgh_documents.jsonl", "ler_courts/dev.jsonl.gz"):
        for n, rec, _ in each_record(eval_dir() / name, "decision file", ""):
            if n > 60:
                break
            got = read_decision(rec, default_known)
            assert [(c.target, c.text, c.count) for c in got.cites] == whole_text_units(rec["text"], default_known)
            assert got.cites_files == [f"{c or ''}|{k}" for c, k in cited_file_numbers(rec["text"])]


def test_reading_by_spans_gives_what_the_grammar_gives_per_line(default_known):
    """On the first 120 records of each shared LER file: each line read span by span (cases.spans),
    remembered readings included, is what the grammar reads in the whole line."""
    reader = SpanReader(default_known)
    lines = 0
    for name in ("ler_bgh/bgh_documents.jsonl", "ler_courts/dev.jsonl.gz"):
        for n, rec, _ in each_record(eval_dir() / name, "decision file", ""):
            if n > 120:
                break
            for line in rec["text"].split("\n"):
                lines += 1
                assert tuple(reader.read(line)) == reader.read_text(line), line
    assert reader.hits > 0 and reader.misses > 0 and reader.whole_lines < lines / 2
