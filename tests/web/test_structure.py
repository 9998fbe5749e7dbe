"""The pages' pure rules without a server: the table of contents, breadcrumbs, the official address,
bare citations, a unit's text as blocks with its lists and links, the check page's verdicts, the
language choice and "did you mean". Texts are § 1 Abs. 2 Satz 2 KSchG and § 17 Satz 2 TzBfG as in
the shared gii data."""

from __future__ import annotations

import pytest

from legalkg.serve.web import checkview, i18n, lawtext, structure, suggest
from legalkg.verify import Status

SATZ = ("Die Kündigung ist auch sozial ungerechtfertigt, wenn 1. in Betrieben des privaten Rechts a) die Kündigung "
        "gegen eine Richtlinie nach § 95 des Betriebsverfassungsgesetzes verstößt, b) der Arbeitnehmer weiter"
        "beschäftigt werden kann und der Betriebsrat widersprochen hat, 2. in Betrieben des öffentlichen Rechts.")


def rows():
    nr1 = ("in Betrieben des privaten Rechts a) die Kündigung gegen eine Richtlinie nach § 95 des "
           "Betriebsverfassungsgesetzes verstößt, b) der Arbeitnehmer weiterbeschäftigt werden kann und der "
           "Betriebsrat widersprochen hat,")
    return [
        {"id": "K/§1/Abs2/S2", "parent": "K/§1/Abs2", "level": "Satz", "label": "2", "text": SATZ, "cites": []},
        {"id": "K/§1/Abs2/S2/Nr1", "parent": "K/§1/Abs2/S2", "level": "Nummer", "label": "1", "text": nr1, "cites": []},
        {"id": "K/§1/Abs2/S2/Nr1/Bsta", "parent": "K/§1/Abs2/S2/Nr1", "level": "Buchstabe", "label": "a",
         "text": "die Kündigung gegen eine Richtlinie nach § 95 des Betriebsverfassungsgesetzes verstößt,",
         "cites": [{"text": "§ 95", "starts": [41], "ends": [45], "id": "B/§95", "citation": "§ 95 B"}]},
        {"id": "K/§1/Abs2/S2/Nr1/Bstb", "parent": "K/§1/Abs2/S2/Nr1", "level": "Buchstabe", "label": "b",
         "text": "der Arbeitnehmer weiterbeschäftigt werden kann", "cites": []},
        {"id": "K/§1/Abs2/S2/Nr2", "parent": "K/§1/Abs2/S2", "level": "Nummer", "label": "2",
         "text": "in Betrieben des öffentlichen Rechts.", "cites": []},
    ]


def test_a_list_is_cut_out_of_its_sentence_with_markers_as_numbers():
    tree = lawtext.build_tree(rows(), "K/§1/Abs2/S2", "K/§1/Abs2/S2/Nr1/Bstb")
    lead, items = tree["pieces"]
    assert lead == {"text": "Die Kündigung ist auch sozial ungerechtfertigt, wenn", "start": 0}
    assert items["list"] and [c["marker"] for c in items["group"]] == ["1.", "2."]
    nr1 = items["group"][0]
    assert nr1["holds_focus"] and not nr1["focus"]
    assert [p.get("text") for p in nr1["pieces"]] == ["in Betrieben des privaten Rechts", None,
                                                       "und der Betriebsrat widersprochen hat,"]
    assert [c["marker"] for c in nr1["pieces"][1]["group"]] == ["a)", "b)"] and nr1["pieces"][1]["group"][1]["focus"]


def test_a_child_not_in_its_parents_text_leaves_the_parent_whole():
    broken = rows()
    broken[1]["text"] = "a text that is not in the Satz"
    tree = lawtext.build_tree(broken, "K/§1/Abs2/S2")
    assert tree["pieces"] == [{"text": SATZ, "start": 0}]
    assert lawtext.build_tree(rows(), "nowhere") is None


def test_citations_are_linked_where_the_edges_place_them():
    """Offsets as the ingest writes them: one chain citing two units, a § cited twice in the unit
    (the edge keeps both spans), a unit whose text the piece starts inside of, a span outside the piece."""
    unit = "Vorweg. nach § 4 Satz 1, §§ 5 und 6 und § 45 sowie § 4 und § 95 des BetrVG, dann § 4"
    chain, four = unit.index("§ 4 Satz 1"), unit.index("sowie § 4") + 6
    cites = [{"text": "§ 4 Satz 1, §§ 5 und 6", "id": "K/§4/S1", "starts": [chain], "ends": [chain + 22]},
             {"text": "§ 4 Satz 1, §§ 5 und 6", "id": "K/§5", "starts": [chain], "ends": [chain + 22]},
             {"text": "§ 4", "id": "K/§4", "starts": [four, len(unit) - 3], "ends": [four + 3, len(unit)]},
             {"text": "§ 9", "id": "K/§9", "starts": [0], "ends": [3]},  # before the piece: left out
             {"text": "§ 45", "id": "K/§45"}]  # a graph loaded before offsets were stored: no link
    offset = unit.index("nach")
    text = unit[offset:]
    start = text.index("§ 95")
    segs = lawtext.segments(text, cites, [lawtext.Unresolved(start, start + 15, "law_not_in_graph", "§ 95 BetrVG")],
                            offset)
    assert "".join(s["text"] for s in segs) == text
    linked = [(s["text"], [t["id"] for t in s["targets"]]) for s in segs if "targets" in s]
    assert linked == [("§ 4 Satz 1, §§ 5 und 6", ["K/§4/S1", "K/§5"]), ("§ 4", ["K/§4"]), ("§ 4", ["K/§4"])]
    assert [(s["text"], s["status"]) for s in segs if "status" in s] == [("§ 95 des BetrVG", "law_not_in_graph")]


def test_verify_records_are_given_back_to_their_piece():
    tree = lawtext.build_tree(rows(), "K/§1/Abs2/S2")
    text, offsets = lawtext.joined(lawtext.text_pieces(tree))
    at = text.index("§ 95 des Betriebsverfassungsgesetzes")
    record = {"chain_start": at, "chain_end": at + 36, "status": "law_not_in_graph", "written": "§ 95", "id": None,
              "cited": "§ 95 BetrVG"}
    lawtext.link_pieces(tree, [record])
    bsta = tree["pieces"][1]["group"][0]["pieces"][1]["group"][0]
    assert [(s["text"], s.get("targets", [{}])[0].get("id")) for s in bsta["pieces"][0]["segments"]] == [
        ("die Kündigung gegen eine Richtlinie nach ", None), ("§ 95", "B/§95"),
        (" des Betriebsverfassungsgesetzes verstößt,", None)]
    assert len(offsets) == len(lawtext.text_pieces(tree))


def test_context_root_is_the_sentence_above_a_list_item():
    path = [{"id": "K", "level": "Gesetz"}, {"id": "K/Gl1", "level": "Gliederung"},
            {"id": "K/§1", "level": "Paragraph"},
            {"id": "K/§1/Abs2", "level": "Absatz"}, {"id": "K/§1/Abs2/S2", "level": "Satz"},
            {"id": "K/§1/Abs2/S2/Nr1", "level": "Nummer"}, {"id": "K/§1/Abs2/S2/Nr1/Bsta", "level": "Buchstabe"}]
    assert lawtext.context_root(path) == "K/§1/Abs2/S2"
    assert lawtext.context_root(path[:4]) == "K/§1/Abs2"


def test_contents_tree_breadcrumbs_and_counts():
    entries = [{"id": "U/Gl1", "parent": "U", "level": "Gliederung", "kind": "Kapitel", "label": "1", "title": "A"},
               {"id": "U/§1", "parent": "U/Gl1", "level": "Paragraph", "kind": "§", "label": "1", "title": "Zweck"},
               {"id": "U/§17", "parent": "U/Gl1", "level": "Paragraph", "kind": "§", "label": "17", "repealed": True},
               {"id": "U/Anl", "parent": "U", "level": "Paragraph", "kind": "Anlage", "label": None}]
    tree = structure.toc_tree("U", entries)
    assert [e["name"] for e in tree] == ["Kapitel 1", "Anlage"]
    assert [(e["name"], e["repealed"]) for e in tree[0]["children"]] == [("§ 1", False), ("§ 17", True)]
    assert structure.para_count(tree) == (3, 1)
    crumbs = structure.breadcrumbs([{"id": "BGB", "level": "Gesetz"}, {"id": "BGB/Gl2", "level": "Gliederung",
                                     "kind": "Buch", "label": "2"}, {"id": "BGB/§573", "level": "Paragraph",
                                     "kind": "§", "label": "573"}, {"id": "BGB/§573/Abs2", "level": "Absatz",
                                     "label": "2"}, {"id": "BGB/§573/Abs2/Nr2", "level": "Nummer", "label": "2"}])
    assert " › ".join(c["name"] for c in crumbs) == "BGB › Buch 2 › § 573 › Abs. 2 › Nr. 2"
    assert crumbs[1]["url"] == "/unit/BGB/Gl2"


@pytest.mark.parametrize(("slug", "jurabk", "uid", "url"), [
    ("bgb", "BGB", "BGB/§573/Abs2", "https://www.gesetze-im-internet.de/bgb/__573.html"),
    ("uwg_2004", "UWG 2004", "UWG/§5a", "https://www.gesetze-im-internet.de/uwg_2004/__5a.html"),
    ("gg", "GG", "GG/Art20/Abs3", "https://www.gesetze-im-internet.de/gg/art_20.html"),
    ("bgbeg", "BGBEG", "EGBGB/Art229§5", "https://www.gesetze-im-internet.de/bgbeg/art_229__5.html"),
    ("stvo_2013", "StVO 2013", "StVO/Anl2", "https://www.gesetze-im-internet.de/stvo_2013/anlage_2.html"),
    (None, "SGB 5", "SGB V/§12", "https://www.gesetze-im-internet.de/sgb_5/__12.html"),
    ("bgb", "BGB", "BGB/Gl010", None),
])
def test_official_address(slug, jurabk, uid, url):
    assert structure.official_url(slug, jurabk, uid) == url


@pytest.mark.parametrize(("text", "guesses"), [
    ("573 BGB", ["§ 573 BGB", "Art. 573 BGB"]), ("BGB 573", ["§ 573 BGB", "Art. 573 BGB"]),
    ("§573 BGB", ["§ 573 BGB"]), ("GG Art 20", ["Art. 20 GG"]), ("SGB V 12", ["§ 12 SGB V", "Art. 12 SGB V"]),
    ("Kündigung", []), ("§ 573 Abs. 2 BGB", []),
])
def test_bare_citations_are_read_as_paragraphs(text, guesses):
    assert structure.citation_guesses(text) == guesses


def rec(status: str, supported: bool | None = True, uid: str | None = "B/§1", at: int = 0) -> dict:
    return {"status": status, "supported": supported, "id": uid, "chain_start": at, "chain_end": at + 10}


def test_the_verdict_is_the_worst_of_status_quote_and_support():
    quote = {"status": "quote_not_found", "unit_id": "B/§1", "start": 12}
    report = {"records": [rec("ok"), rec("ok", False, "B/§2", 40), rec("repealed", None, "B/§5", 60), rec("ok")],
              "quotes": [quote]}
    assert [r["verdict"] for r in checkview.judged(report)] == ["quote_not_found", "low_support", "repealed", "ok"]
    differs = {"status": "quote_differs", "unit_id": "B/§1", "start": 12}
    assert checkview.verdict(rec("ok", False), differs) == "quote_differs"


def test_every_status_of_verify_has_its_own_colour_sign_and_words():
    legend = checkview.legend("de")
    assert {Status(s.value).value for s in Status} <= {v["verdict"] for v in legend}
    assert len({v["sign"] for v in legend}) == len(legend)
    css = (structure.__file__.rsplit("/", 1)[0] + "/static/style.css")
    sheet = open(css, encoding="utf-8").read()
    assert all(f".v-{v['verdict']} {{" in sheet for v in legend)
    assert checkview.words("no_such_unit", "de") == "gibt es nicht" and checkview.words("eu_law", "en") == "EU law"


@pytest.mark.parametrize(("query", "cookie", "accept", "lang"), [
    (None, None, None, "de"), ("en", None, "de-DE", "en"), (None, "en", None, "en"), ("xx", None, None, "de"),
    (None, None, "en-US,en;q=0.9,de;q=0.8", "en"), (None, None, "fr-FR,de;q=0.5,en;q=0.3", "de"),
    (None, None, "de;q=0.2,en;q=0.9", "en"),
])
def test_language_choice(query, cookie, accept, lang):
    assert i18n.choose(query, cookie, accept) == lang


def test_every_string_is_in_both_languages():
    assert all(len(pair) == 2 and all(pair) for pair in i18n.STRINGS.values())
    assert i18n.translator("en")("paras", n=3, r=1) == "3 §§, 1 of them repealed"


def test_did_you_mean_names_the_deepest_existing_part_and_alike_paragraphs():
    found = {"present": ["KSchG/§5", "KSchG"], "laws": [{"id": "KSchG", "title": "K"}],
             "paras": [{"id": "KSchG/§5", "citation": "§ 5 KSchG"}, {"id": "KSchG/§9", "citation": "§ 9 KSchG"}]}
    links = suggest.did_you_mean("KSchG/§5/Abs9", found)
    assert links[0]["url"] == "/unit/KSchG/%C2%A75"
    unknown_law = suggest.did_you_mean("KSCHG/§5", {"present": [], "laws": found["laws"], "paras": []})
    assert [link["name"] for link in unknown_law] == ["KSchG"]
    assert suggest.ancestors("K/§5/Abs1") == ["K/§5/Abs1", "K/§5", "K"]
