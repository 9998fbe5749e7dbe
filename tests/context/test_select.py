"""The pack's selection on hand-made candidates (pure, no server): the engine's ranked §§ lead in its
order, each as its best-ranked part; no unit or text twice; reasons in words; never over budget.

The texts are BGB's (§§ 573, 574, 573c as in $LEGALKG_SHARED/data/gii), the ranks made up."""

from __future__ import annotations

from legalkg.context import Candidate, select_units
from legalkg.context.select import boilerplate, choose, normalise, ordinal, para_of, related, statute_order
from legalkg.vocab import PackReason

CLAUSE = "Eine zum Nachteil des Mieters abweichende Vereinbarung ist unwirksam."
TEXTS = {
    "BGB/§574/Abs1": "Der Mieter kann der Kündigung des Vermieters widersprechen und von ihm die Fortsetzung des "
                     "Mietverhältnisses verlangen, wenn die Beendigung des Mietverhältnisses für den Mieter, seine "
                     "Familie oder einen anderen Angehörigen seines Haushalts eine Härte bedeuten würde, die auch "
                     "unter Würdigung der berechtigten Interessen des Vermieters nicht zu rechtfertigen ist. Dies "
                     "gilt nicht, wenn ein Grund vorliegt, der den Vermieter zur außerordentlichen fristlosen "
                     "Kündigung berechtigt.",
    "BGB/§574/Abs4": CLAUSE,
    "BGB/§573/Abs1": "Der Vermieter kann nur kündigen, wenn er ein berechtigtes Interesse an der Beendigung des "
                     "Mietverhältnisses hat. Die Kündigung zum Zwecke der Mieterhöhung ist ausgeschlossen.",
    "BGB/§573/Abs2/S1/Nr2": "der Vermieter die Räume als Wohnung für sich, seine Familienangehörigen oder "
                            "Angehörige seines Haushalts benötigt oder",
    "BGB/§573/Abs4": CLAUSE,
    "BGB/§573c/Abs4": CLAUSE,
    "BGB/§574": "(1) Der Mieter kann der Kündigung des Vermieters widersprechen … (4) " + CLAUSE,
    "BGB/§573c/Abs1/S1": "Die Kündigung ist spätestens am dritten Werktag eines Kalendermonats zum Ablauf des "
                         "übernächsten Monats zulässig.",
}


def cand(uid: str, source: str, rank: int, words: int | None = None, text: str | None = None,
         seed: str | None = None) -> Candidate:
    text = text if text is not None else TEXTS.get(uid, f"Text von {uid}.")
    return Candidate(id=uid, citation=uid.replace("/", " "), text=text,
                     words=len(text.split()) if words is None else words, source=source, rank=rank, seed=seed)


def eigenbedarf() -> list[Candidate]:
    """The Eigenbedarf question's candidates as the engine would rank them: § 574 1st, § 573 2nd."""
    return [cand("BGB/§574", "Paragraph", 1, 121), cand("BGB/§573", "Paragraph", 2, 169),
            cand("BGB/§573c", "Paragraph", 3, 90),
            cand("BGB/§573/Abs4", "Absatz", 1), cand("BGB/§574/Abs4", "Absatz", 2), cand("BGB/§573c/Abs4", "Absatz", 3),
            cand("BGB/§573/Abs1", "Absatz", 4), cand("BGB/§574/Abs1", "Absatz", 5),
            cand("BGB/§573/Abs2/S1/Nr2", "Satz", 1), cand("BGB/§573c/Abs1/S1", "Satz", 6),
            cand("BGB/§549/Abs2", "cited:Paragraph", 3, 40, seed="§ 573c BGB")]


def test_the_engines_ranked_paragraphs_lead_in_its_order():
    for budget in (60, 300, 1000):
        units = select_units(eigenbedarf(), budget)
        firsts = list(dict.fromkeys(para_of(u.id) for u in units))
        assert firsts[:2] == ["BGB/§574", "BGB/§573"], (budget, firsts)
        assert units[0].rank == 1


def test_the_rule_that_answers_is_in_the_pack_and_the_boilerplate_once_at_most():
    units = select_units(eigenbedarf(), 500)
    ids = [u.id for u in units]
    # § 574 whole (121 words, within the first §'s quarter of 500) holds Abs. 1, the right to object
    assert ids[0] == "BGB/§574" and units[0].reason == PackReason.RANKED
    # § 573 (169 words) is over its share: its best-ranked own wording, not the shared clause ranked 1st
    assert "BGB/§573/Abs2/S1/Nr2" in ids[:3] and "BGB/§573/Abs4" not in ids
    texts = [normalise(u.text) for u in units]
    assert len(set(texts)) == len(texts)
    # the clause is inside the whole § 574 already: no § delivers it again
    assert not any(normalise(u.text) == normalise(CLAUSE) for u in units)


def test_a_shared_clause_is_a_paragraphs_last_choice_and_never_twice():
    cands = [cand("BGB/§573", "Paragraph", 1, 500), cand("BGB/§573c", "Paragraph", 2, 500),
             cand("BGB/§573/Abs4", "Absatz", 1), cand("BGB/§573c/Abs4", "Absatz", 2),
             cand("BGB/§573/Abs1", "Absatz", 3)]
    assert boilerplate(cands) == {normalise(CLAUSE)}
    units = select_units(cands, 40)
    assert [u.id for u in units] == ["BGB/§573/Abs1", "BGB/§573c/Abs4"]  # § 573c has nothing else
    assert [u.id for u in select_units(cands[:4], 40)] == ["BGB/§573/Abs4"]  # the same text is not given twice


def test_reasons_are_words_a_user_reads():
    units = {u.id: u for u in select_units(eigenbedarf(), 1000)}
    assert units["BGB/§574"].why == "ranked 1st for your question"
    assert units["BGB/§573/Abs2/S1/Nr2"].why == "part of BGB §573, ranked 2nd for your question"
    assert units["BGB/§573/Abs2/S1/Nr2"].reason == PackReason.PART and units["BGB/§573/Abs2/S1/Nr2"].rank == 2
    assert units["BGB/§573/Abs1"].why == "more of BGB §573, ranked 2nd for your question"
    cited = units["BGB/§549/Abs2"]
    assert cited.why == "cited by § 573c BGB (ranked 3rd for your question)"
    assert (cited.reason, cited.cited_by, cited.rank) == (PackReason.CITED, "§ 573c BGB", 3)
    assert not any("expected" in u.why or "hit" in u.why for u in units.values())


def test_a_paragraph_over_its_share_gives_its_shortest_unit_when_nothing_else_fits():
    cands = [cand("BGB/§574", "Paragraph", 1, 121), cand("BGB/§574/Abs1", "Absatz", 1),
             cand("BGB/§574/Abs1/S2", "Satz", 2, 15)]
    assert [u.id for u in select_units(cands, 20)] == ["BGB/§574/Abs1/S2"]
    assert select_units(cands, 10) == []


def test_units_without_words_or_text_are_never_delivered():
    cands = [cand("BGB/§1", "Paragraph", 1, 0, "(weggefallen)"), cand("BGB/§2", "Paragraph", 2, 5, "  "),
             cand("BGB/§3", "Paragraph", 3, 5, "Drei Wörter hier da.")]
    assert [u.id for u in select_units(cands, 100)] == ["BGB/§3"]


def test_within_a_paragraph_units_follow_the_statute():
    picks = choose(eigenbedarf(), 1000)
    in_573 = [p.candidate.id for p in picks if para_of(p.candidate.id) == "BGB/§573"]
    assert in_573 == sorted(in_573, key=statute_order)
    assert statute_order("BGB/§573/Abs2") < statute_order("BGB/§573/Abs10")


def test_helpers():
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == \
        ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th"]
    assert para_of("BGB/§573/Abs2/S1/Nr2") == "BGB/§573" and para_of("BGB/§573") == "BGB/§573"
    assert related("BGB/§433", "BGB/§433/Abs1/S2") and not related("BGB/§433/Abs1", "BGB/§433/Abs10")
    assert normalise("  Eine  zum Nachteil.") == "eine zum nachteil"
