import pytest

from legalkg.cases.query import build_query, facts_section, first_words, html_to_text, mask_spans

URTEIL = "\n".join([
    "Tenor",
    "Die Revision wird zurückgewiesen.",
    "Tatbestand",
    "Die Klägerin kaufte von der Beklagten ein Fahrzeug.",
    "Sie verlangt Rückzahlung des Kaufpreises nach § 437 Nr. 2 BGB.",
    "Entscheidungsgründe",
    "Die Revision ist unbegründet.",
])

BESCHLUSS = "\n".join([
    "Gründe:",
    "I. Der Angeklagte wurde wegen Diebstahls verurteilt.",
    "Er legte Revision ein.",
    "II. Die Revision ist unbegründet im Sinne des § 349 Abs. 2 StPO.",
])


def test_tatbestand_runs_to_the_next_heading():
    body, rule = facts_section(URTEIL)
    assert rule == "tatbestand"
    assert body.startswith("Die Klägerin kaufte")
    assert "Revision ist unbegründet" not in body and "zurückgewiesen" not in body


def test_beschluss_uses_part_I_of_the_gruende():
    body, rule = facts_section(BESCHLUSS)
    assert rule == "gruende_I"
    assert body.startswith("I. Der Angeklagte") and "II." not in body


def test_tatbestand_inside_a_sentence_is_not_a_heading():
    assert facts_section("Der Tatbestand des § 250 StGB ist erfüllt.\nMehr Text.") is None


def test_mask_spans_replaces_exact_offsets_and_merges_overlaps():
    text = "nach § 433 BGB und § 437 BGB"
    assert mask_spans(text, [(5, 14), (19, 28)], "X") == "nach X und X"
    assert mask_spans(text, [(5, 12), (10, 14)], "X") == "nach X und § 437 BGB"
    with pytest.raises(ValueError):
        mask_spans(text, [(0, 99)])


def test_build_query_masks_before_cutting_the_section_and_caps_words():
    start = URTEIL.index("§ 437 Nr. 2 BGB")
    q = build_query(URTEIL, [(start, start + len("§ 437 Nr. 2 BGB"))], max_words=8, placeholder="…")
    assert q.source == "tatbestand"
    assert q.n_words == 8
    assert q.text == "Die Klägerin kaufte von der Beklagten ein Fahrzeug."
    full = build_query(URTEIL, [(start, start + 15)], max_words=None, placeholder="…")
    assert "§" not in full.text and "…" in full.text


def test_fallback_is_the_head_of_the_text_and_leftover_paras_are_scrubbed():
    text = "Vgl. Fischer , StGB , 64. Aufl. , § 177 Rn. 129 und §§ 29 ff. BtMG eins zwei drei"
    q = build_query(text, [], max_words=None, placeholder="…")
    assert q.source == "head"
    assert "§" not in q.text
    assert first_words("a b  c\nd", 3) == "a b c"


def test_html_to_text_keeps_headings_on_their_own_line():
    html = ("<div><h2>Tatbestand</h2><p>Die Klägerin kaufte<br/>ein Auto.</p>"
            "<h2>Entscheidungsgründe</h2><p>Unbegründet.</p></div>")
    text = html_to_text(html)
    assert text.split("\n") == ["Tatbestand", "Die Klägerin kaufte", "ein Auto.", "Entscheidungsgründe",
                                "Unbegründet."]
    assert facts_section(text) == ("Die Klägerin kaufte\nein Auto.", "tatbestand")
