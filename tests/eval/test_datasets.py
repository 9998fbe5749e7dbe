"""Dataset loaders on the real shared files (read in place via legalkg.paths)."""

import json

import pytest

from legalkg import paths
from legalkg.cases.gold import is_node_id, parse_gold_strings
from legalkg.errors import UserError
from legalkg.eval import datasets as D
from legalkg.model import Citation

pytestmark = pytest.mark.skipif(not paths.eval_dir().exists(), reason="shared eval data not present")


@pytest.fixture(scope="module")
def ler():
    return D.load_dataset("ler_bgh")


@pytest.fixture(scope="module")
def gerlayqa():
    return D.load_dataset("gerlayqa")


def test_gerlayqa_counts_match_the_data_readme(gerlayqa):
    assert len(gerlayqa) == 2154
    assert sum(len(c.gold) for c in gerlayqa) == 3646
    assert all(not c.meta["unparsed_gold"] for c in gerlayqa)
    assert all(c.meta["max_depth"] == 2 for c in gerlayqa)
    first = gerlayqa[0]
    assert first.id == "gerlayqa-dev-0000"
    assert first.gold == [Citation("BGB", "§816")]
    assert first.query.startswith("Ich bin geschieden.")


def test_gerlayqa_all_is_dev_then_train_with_distinct_ids(gerlayqa):
    both = D.load_dataset("gerlayqa_all")
    assert len(both) == 2154 + 1554 and [c.id for c in both[:2154]] == [c.id for c in gerlayqa]
    assert len({c.id for c in both}) == len(both) and both[-1].id.startswith("gerlayqa-train-")
    assert {c.meta["max_depth"] for c in both} == {2}


def test_gerlayqa_gold_is_all_bgb(gerlayqa):
    cov = D.coverage(gerlayqa, D.default_law_keys())
    assert cov.share == 1.0 and cov.n_gold == 3646


def test_ler_bgh_has_115_documents_with_gold_from_the_spans(ler):
    assert len(ler) == 115
    by_id = {c.id: c for c in ler}
    # ler-bgh-0000 cites "§ 349 Abs. 2 StPO" (the README example span)
    assert Citation("StPO", "§349", "2") in by_id["ler-bgh-0000"].gold
    assert sum(1 for c in ler if c.gold) >= 100  # 106 documents have >= 1 GS span
    assert all(c.meta["query_source"] == "head" for c in ler)  # LER texts carry no headings
    assert all(c.meta["query_words"] <= 512 for c in ler)


def test_ler_bgh_queries_contain_no_gold_span_and_no_para_sign(ler):
    raw = {}
    with open(paths.eval_dir() / "ler_bgh" / "bgh_documents.jsonl", encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            raw[rec["id"]] = rec
    for case in ler:
        for norm in raw[case.id]["norms"]:
            if "§" in norm["text"]:
                assert norm["text"] not in case.query, (case.id, norm["text"])
        assert "§" not in case.query, case.id


def test_ler_bgh_coverage_by_the_default_codes(ler):
    cov = D.coverage(ler, D.default_law_keys())
    assert cov.n_gold == sum(len(c.gold) for c in ler)
    assert 0.80 < cov.share < 0.95
    assert "BRAO" in cov.uncovered_laws  # not among the 58 default codes
    restricted = D.restrict_to_laws(ler, D.default_law_keys())
    assert sum(len(c.gold) for c in restricted) == cov.n_covered
    assert all(g.law in D.default_law_keys() for c in restricted for g in c.gold)


def test_bgh_strafsachen_is_missing_with_a_helpful_error():
    with pytest.raises(UserError, match="ler_bgh"):
        D.load_dataset("bgh_strafsachen")


def test_unknown_name_and_bad_lines_raise_user_errors(tmp_path):
    with pytest.raises(UserError, match="unknown dataset"):
        D.load_dataset("no_such_set")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": 1, "question": "x", "gold": ["BGB § 1"]}\nnot json\n', encoding="utf-8")
    with pytest.raises(UserError, match="bad.jsonl:2"):
        D.load_dataset(str(bad))
    neither = tmp_path / "neither.jsonl"
    neither.write_text('{"id": 1, "question": "x"}\n', encoding="utf-8")
    with pytest.raises(UserError, match="neither 'gold'"):
        D.load_dataset(str(neither))
    number = tmp_path / "number.jsonl"
    number.write_text('{"content": 5}\n', encoding="utf-8")
    with pytest.raises(UserError, match=r"number.jsonl:1: 'content' must be the decision as an HTML string, not int"):
        D.load_dataset(str(number))


def test_generic_jsonl_reads_written_citations_and_node_ids(tmp_path):
    p = tmp_path / "mine.jsonl"
    rows = [
        {"id": "a", "question": "Darf mein Vermieter kündigen?", "gold": ["BGB § 573", "§ 574 Abs. 2 Nr. 2 ZPO"]},
        {"id": "b", "query": "Kaufvertrag", "gold": ["BGB/§433/Abs1", "kein Zitat"]},
    ]
    p.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows), encoding="utf-8")
    cases = D.load_dataset(str(p))
    assert cases[0].gold == [Citation("BGB", "§573"), Citation("ZPO", "§574", "2", None, "2")]
    assert cases[1].gold == [Citation("BGB", "§433", "1")]
    assert cases[1].meta["unparsed_gold"] == ["kein Zitat"]


def test_open_legal_data_case_gets_gold_from_its_text(tmp_path):
    rec = {"id": 42, "slug": "bgh-2018-01-10-viii-zr-1-17", "court": {"name": "Bundesgerichtshof"},
           "file_number": "VIII ZR 1/17", "date": "2018-01-10", "type": "Urteil",
           "content": "<h2>Tatbestand</h2><p>Der Mieter zahlte die Miete nicht.</p>"
                      "<h2>Entscheidungsgründe</h2><p>Die Kündigung ist nach § 543 Abs. 2 Satz 1 Nr. 3 "
                      "BGB wirksam; § 569 Abs. 3 BGB steht nicht entgegen.</p>"}
    p = tmp_path / "old.jsonl"
    p.write_text(json.dumps(rec, ensure_ascii=False), encoding="utf-8")
    (case,) = D.load_dataset(str(p))
    assert case.id == "42"
    assert case.gold == [Citation("BGB", "§543", "2", "1", "3"), Citation("BGB", "§569", "3")]
    assert case.query == "Der Mieter zahlte die Miete nicht."
    assert case.meta["query_source"] == "tatbestand" and case.meta["court"] == "Bundesgerichtshof"


def test_gold_string_forms():
    assert is_node_id("BGB/§433/Abs1") and is_node_id("SGB V/§5")
    assert not is_node_id("§ 433 BGB") and not is_node_id("BGB § 433")
    parsed = parse_gold_strings(["§ 69a Abs. 1 Satz 1 , § 69b Abs. 1 Satz 3 , § 69 Abs. 1 StGB", "§ 5"])
    assert parsed.citations == [Citation("StGB", "§69a", "1", "1"), Citation("StGB", "§69b", "1", "3"),
                                Citation("StGB", "§69", "1")]
    assert parsed.unparsed == ["§ 5"]  # no law named: not a usable gold citation


# --- ler_courts and files of the LER form ----------------------------------------------------------

@pytest.fixture(scope="module")
def courts():
    return D.load_dataset("ler_courts")


def test_ler_courts_counts_match_the_data_readme(courts):
    import collections

    assert len(courts) == 657
    assert sum(c.meta["n_spans"] for c in courts) == 8820
    assert collections.Counter(c.meta["court"] for c in courts) == {
        "BAG": 56, "BFH": 107, "BPatG": 150, "BSG": 101, "BVerfG": 115, "BVerwG": 128}
    assert all(c.meta["dataset"] == "ler_courts" for c in courts)
    assert len({c.id for c in courts}) == 657


def test_ler_courts_queries_are_masked_like_ler_bgh(courts):
    assert all("§" not in c.query and c.meta["query_words"] <= 512 for c in courts)
    first = courts[0]
    assert first.id == "ler-bag-0000"
    assert Citation("ZPO", "§114", "1", "1") in first.gold


def _ler_record(**over):
    text = "Der Kläger verlangt Kaution nach § 551 Abs. 1 BGB zurück ."
    start = text.index("§")
    rec = {"id": "r1", "court": "AG", "text": text,
           "norms": [{"start": start, "end": start + len("§ 551 Abs. 1 BGB"), "text": "§ 551 Abs. 1 BGB"}]}
    rec.update(over)
    return rec


def test_a_path_of_the_ler_form_is_read_like_ler_bgh_also_gzipped(tmp_path):
    import gzip

    rows = [_ler_record(), _ler_record(id="r2", court="LG")]
    plain = tmp_path / "mine.jsonl"
    plain.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
    packed = tmp_path / "mine.jsonl.gz"
    with gzip.open(packed, "wt", encoding="utf-8") as fh:
        fh.write(plain.read_text(encoding="utf-8"))
    for path in (plain, packed):
        cases = D.load_dataset(str(path))
        assert [c.id for c in cases] == ["r1", "r2"]
        assert cases[0].gold == [Citation("BGB", "§551", "1")]
        assert "§" not in cases[0].query and "551" not in cases[0].query
        assert [c.meta["court"] for c in cases] == ["AG", "LG"]
        assert cases[0].meta["dataset"] == "mine"


@pytest.mark.parametrize("record, message", [
    (_ler_record(text=None), "needs the decision as a 'text' string"),
    (_ler_record(norms={"start": 1}), "'norms' must be a list"),
    (_ler_record(norms=[{"start": "3", "end": 9}]), r"norms\[0\] needs integer 'start' and 'end'"),
    (_ler_record(norms=[{"start": 40, "end": 400}]), r"norms\[0\] span 40..400 lies outside the text"),
    (_ler_record(other_norms=[{"start": 5, "end": 5}]), r"other_norms\[0\] span 5..5"),
])
def test_bad_ler_records_give_one_line_naming_the_line(tmp_path, record, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(_ler_record()) + "\n" + json.dumps(record) + "\n", encoding="utf-8")
    with pytest.raises(UserError, match=message) as err:
        D.load_dataset(str(path))
    assert "bad.jsonl:2" in str(err.value) and "\n" not in str(err.value)


def test_unreadable_files_give_one_line(tmp_path):
    fake = tmp_path / "fake.jsonl.gz"
    fake.write_text(json.dumps(_ler_record()), encoding="utf-8")
    with pytest.raises(UserError, match="not gzip data"):
        D.load_dataset(str(fake))
    latin = tmp_path / "latin.jsonl"
    latin.write_bytes('{"id": "a", "question": "Kündigung für Müller", "gold": ["BGB § 573"]}'.encode("latin-1"))
    with pytest.raises(UserError, match="UTF-8"):
        D.load_dataset(str(latin))
    with pytest.raises(UserError, match="is a folder"):
        D.load_jsonl(tmp_path)
    gold_not_list = tmp_path / "g.jsonl"
    gold_not_list.write_text('{"id": "a", "question": "x", "gold": {"a": 1}}\n', encoding="utf-8")
    with pytest.raises(UserError, match="'gold' must be a list"):
        D.load_dataset(str(gold_not_list))


def test_dataset_names_drop_the_file_suffixes():
    from pathlib import Path

    assert D.dataset_name(Path("/x/cases.jsonl.gz")) == "cases"
    assert D.dataset_name(Path("cases.jsonl")) == "cases"
    assert D.dataset_name(Path("dev.json")) == "dev"


def test_ler_all_is_both_ler_sets_as_one_with_their_own_courts(ler, courts):
    both = D.load_dataset("ler_all")
    assert [c.id for c in both] == [c.id for c in ler] + [c.id for c in courts]
    assert len({c.id for c in both}) == len(both)  # one CV over both needs unique ids
    assert {c.meta["dataset"] for c in both} == {"ler_bgh", "ler_courts"} and both[0].meta["court"] == "BGH"
