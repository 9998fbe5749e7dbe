"""verify's pure parts without a server: readings, statuses, records, sentences, support, input checks."""

from __future__ import annotations

import pytest

from legalkg.cite import LawRegistry, extract
from legalkg.model import Citation
from legalkg.verify import MAX_CHARS, Status, Verifier, VerifyInputError, check_text, read_source
from legalkg.verify.records import build_records, optional_parts
from legalkg.verify.status import UnitRow, lookup_ids, readings, resolve_match
from legalkg.verify.support import combine, lexical
from legalkg.verify.text import citing_sentence, masked, sentence_bounds, unread_sections


def units(*ids: str, repealed: tuple[str, ...] = ()) -> dict[str, UnitRow]:
    return {u: UnitRow(id=u, citation=u, text=f"text of {u}", repealed=u in repealed) for u in ids}


def one(text: str):
    [m] = extract(text)
    return m


def test_readings_put_the_literal_first_then_the_implicit_satz():
    ids = [u for u, _ in readings(Citation("BGB", "§437", nummer="1"))]
    assert ids[:3] == ["BGB/§437/Nr1", "BGB/§437/S1/Nr1", "BGB/§437/S2/Nr1"]
    bst = [u for u, _ in readings(Citation("BVerfGG", "§93a", absatz="2", buchstabe="b"))]
    assert "BVerfGG/§93a/Abs2/S1/Bstb" in bst


def test_status_ok_resolves_to_the_unit_at_the_cited_depth():
    graph = units("BGB/§437", "BGB/§437/S1", "BGB/§437/S1/Nr1")
    res = resolve_match(one("§ 437 Nr. 1 BGB"), graph, {"BGB"})
    assert (res.status, res.id) == (Status.OK, "BGB/§437/S1/Nr1")


def test_a_missing_absatz_is_no_such_unit_with_the_nearest_unit_named():
    graph = units("ZPO/§574", "ZPO/§574/Abs1", "ZPO/§574/Abs4")
    res = resolve_match(one("§ 574 Abs. 5 ZPO"), graph, {"ZPO"})
    assert (res.status, res.id, res.nearest) == (Status.NO_SUCH_UNIT, None, "ZPO/§574")
    res = resolve_match(one("§ 2400 BGB"), units("BGB/§2385"), {"BGB"})
    assert (res.status, res.nearest) == (Status.NO_SUCH_UNIT, None)


def test_repealed_unit_or_repealed_paragraph():
    graph = units("BGB/§5", "BGB/§612", "BGB/§612/Abs3", repealed=("BGB/§5", "BGB/§612/Abs3"))
    assert resolve_match(one("§ 5 BGB"), graph, {"BGB"}).status is Status.REPEALED
    assert resolve_match(one("§ 612 Abs. 3 BGB"), graph, {"BGB"}).status is Status.REPEALED
    assert resolve_match(one("§ 612 BGB"), graph, {"BGB"}).status is Status.OK


def test_law_not_in_graph_and_no_law_named():
    assert resolve_match(one("§ 263 StGB"), {}, {"BGB"}).status is Status.LAW_NOT_IN_GRAPH
    assert resolve_match(one("§ 5 HSOG"), {}, {"BGB"}).status is Status.UNKNOWN_LAW  # no table knows it
    assert resolve_match(one("§ 5 FGG"), {}, {"BGB"}).status is Status.LAW_REPEALED  # FamFG since 2009
    assert resolve_match(one("Art. 6 DSGVO"), {}, {"BGB"}).status is Status.EU_LAW
    assert resolve_match(one("Art. 6 BayBO"), {}, {"BGB"}).status is Status.STATE_LAW
    assert resolve_match(one("nach § 5 ist das so"), {}, {"BGB"}).status is Status.AMBIGUOUS


def test_nr_with_letter_is_ambiguous_only_when_not_as_written():
    both = units("EStG/§43/Abs1/S1/Nr7c", "EStG/§43/Abs1/S1/Nr7/Bstc")
    assert resolve_match(one("§ 43 Abs. 1 Satz 1 Nr. 7c EStG"), both, {"EStG"}).status is Status.OK
    split_only = units("EStG/§43/Abs1/S1/Nr7/Bstc", "EStG/§43/Abs1/S2/Nr7c")
    res = resolve_match(one("§ 43 Abs. 1 Nr. 7c EStG"), split_only, {"EStG"})
    assert res.status is Status.AMBIGUOUS
    assert set(res.readings) == {"EStG/§43/Abs1/S1/Nr7/Bstc", "EStG/§43/Abs1/S2/Nr7c"}


def test_a_satz_inside_a_nummer_is_the_nummer():
    graph = units("EStG/§3", "EStG/§3/S1", "EStG/§3/S1/Nr26")
    res = resolve_match(one("§ 3 Nr. 26 Satz 2 EStG"), graph, {"EStG"})
    assert (res.status, res.id) == (Status.OK, "EStG/§3/S1/Nr26")


def test_abs_1_of_a_paragraph_without_absaetze_is_the_paragraph_but_abs_2_is_not():
    graph = units("ZPO/§174", "ZPO/§174/S1")
    assert resolve_match(one("§ 174 Abs. 1 ZPO"), graph, {"ZPO"}).id == "ZPO/§174"
    assert resolve_match(one("§ 174 Abs. 2 ZPO"), graph, {"ZPO"}).status is Status.NO_SUCH_UNIT


def test_lookup_ids_hold_readings_and_ancestors_once():
    ids, laws = lookup_ids(extract("§ 574 Abs. 5 ZPO und § 574 Abs. 5 ZPO"))
    assert laws == ["ZPO"]
    assert "ZPO/§574/Abs5" in ids and "ZPO/§574" in ids
    assert len(ids) == len(set(ids))


def test_inner_members_of_a_range_may_be_missing_its_ends_may_not():
    text = "§§ 280 bis 283 BGB"
    matches = extract(text)
    assert optional_parts(matches) == {1, 2}
    graph = units("BGB/§280", "BGB/§282", "BGB/§283")
    recs = build_records(text, matches, graph, {"BGB"})
    assert [(r.cited, r.status) for r in recs] == [("§ 280 BGB", Status.OK), ("§ 282 BGB", Status.OK),
                                                  ("§ 283 BGB", Status.OK)]
    recs = build_records(text, matches, units("BGB/§281", "BGB/§282"), {"BGB"})
    assert [r.status for r in recs] == [Status.NO_SUCH_UNIT, Status.OK, Status.OK, Status.NO_SUCH_UNIT]


def test_sentences_do_not_end_inside_a_citation_or_after_an_abbreviation():
    text = "Der Käufer kann nach § 437 Nr. 1 i. V. m. § 439 Abs. 1 BGB Nacherfüllung verlangen. Vgl. Abs. 2 dazu. Neu"
    spans = [(m.chain_start, m.chain_end) for m in extract(text)]
    bounds = sentence_bounds(text, spans)
    first = text[bounds[0][0]:bounds[0][1]]
    assert first.endswith("verlangen.") and first.startswith("Der Käufer")
    assert text[slice(*bounds[-1])].strip() == "Neu"
    lo, hi = citing_sentence(text, bounds, spans[0][0], spans[0][1], neighbours=0)
    assert masked(text, lo, hi, spans) == "Der Käufer kann nach [NORM] Nacherfüllung verlangen."
    lo, hi = citing_sentence(text, bounds, spans[0][0], spans[0][1])
    assert masked(text, lo, hi, spans) == "Der Käufer kann nach [NORM] Nacherfüllung verlangen. Vgl. Abs. 2 dazu."
    assert sentence_bounds("eins\nzwei", []) == [(0, 5), (5, 9)]


def test_unread_section_signs_but_not_commentary_or_reporters():
    text = "Siehe § abc und Fischer, StGB, 65. Aufl., § 177 Rn. 129 sowie BGHR StGB § 46 Abs. 2 Strafhöhe 1; § 5 BGB."
    spans = [(m.chain_start, m.chain_end) for m in extract(text)]
    found = [text[s:e] for s, e in unread_sections(text, spans)]
    assert found == ["§ abc"]


def test_lexical_support_is_a_set_cosine_of_stems():
    assert lexical("Der Verkäufer übergibt die Sache", "Der Verkäufer muss die Sache übergeben") > 0.5
    assert lexical("Der Mieter zahlt die Kaution", "Die Ehe wird geschieden") == 0.0
    assert lexical("", "Sache") == 0.0
    assert combine(0.2, None) == 0.2
    assert combine(0.2, 0.6, vector_weight=0.5) == pytest.approx(0.4)


def test_bad_input_is_one_line_with_exit_code_2(tmp_path):
    for bad, word in (("", "empty"), ("  \n", "empty"), ("a\x00b", "binary"), ("x" * (MAX_CHARS + 1), "split"),
                      (b"bytes", "string")):
        with pytest.raises(VerifyInputError, match=word) as err:
            check_text(bad)
        assert err.value.exit_code == 2
        assert "\n" not in str(err.value)
    binary = tmp_path / "brief.pdf"
    binary.write_bytes(b"%PDF-1.4\x00\x01\x02")
    with pytest.raises(VerifyInputError, match="binary"):
        read_source(str(binary))
    latin = tmp_path / "latin1.txt"
    latin.write_bytes("Gemäß § 5 BGB".encode("latin-1"))
    with pytest.raises(VerifyInputError, match="UTF-8"):
        read_source(str(latin))
    big = tmp_path / "big.txt"
    big.write_bytes(b"a" * (10 * 1024 * 1024))
    with pytest.raises(VerifyInputError, match="split it"):
        read_source(str(big))
    good = tmp_path / "brief.txt"
    good.write_text("Nach § 433 BGB.", "utf-8")
    assert read_source(str(good)) == "Nach § 433 BGB."
    assert read_source("Nach § 433 BGB.") == "Nach § 433 BGB."


def test_a_law_whose_load_did_not_finish_is_law_not_loaded_not_no_such_unit():
    # after a killed ingest the BUrlG's Gesetz node exists without its hash, and § 1 may be missing
    m = one("Nach § 1 BUrlG hat jeder Arbeitnehmer Anspruch auf Urlaub.")
    assert resolve_match(m, {}, {"BUrlG"}, unloaded={"BUrlG"}).status is Status.LAW_NOT_LOADED
    assert resolve_match(m, {}, {"BUrlG"}).status is Status.NO_SUCH_UNIT


def test_a_run_of_citations_is_masked_as_one_and_the_embedding_budget_holds():
    from legalkg.verify.verifier import within_budget

    text = "Nach § 1 BGB, § 2 BGB; § 3 BGB gilt das. Auch § 4 BGB und § 5 BGB."
    spans = [(m.chain_start, m.chain_end) for m in extract(text)]
    assert masked(text, 0, len(text), spans) == "Nach [NORM] gilt das. Auch [NORM] und [NORM]."
    assert within_budget(["a" * 60, "b" * 60, "c" * 60], 150) == ["a" * 60, "b" * 60]
    assert within_budget(["a" * 500], 100) == ["a" * 500]


def test_an_unknown_default_law_is_an_input_error_not_law_not_in_graph():
    """``--default-law XYZJUNK`` read every bare "§ 5" as law_not_in_graph (issue 44)."""
    verifier = Verifier(None, vectors=False, registry=LawRegistry.default())
    with pytest.raises(VerifyInputError, match="'XYZJUNK' is no law key") as err:
        verifier.verify("Nach § 5 gilt das.", "XYZJUNK")
    assert err.value.exit_code == 2 and "\n" not in str(err.value)
