"""legalkg.verify.quotes on text copied from bgb.xml § 433 Abs. 1 Satz 1 and § 275 Abs. 1."""

from __future__ import annotations

from legalkg.verify.quotes import check_quote, near_quotes, quotations

S433 = ("Durch den Kaufvertrag wird der Verkäufer einer Sache verpflichtet, dem Käufer die Sache zu "
        "übergeben und das Eigentum an der Sache zu verschaffen.")
S275 = ("Der Anspruch auf Leistung ist ausgeschlossen, soweit diese für den Schuldner oder für jedermann "
        "unmöglich ist.")


def test_verbatim_quote_with_other_spacing_hyphenation_and_ellipsis_is_ok():
    assert check_quote("der Verkäufer einer Sache ver-\npflichtet,  dem Käufer", "u", S433).status == "quote_ok"
    assert check_quote("Durch den Kaufvertrag […] das Eigentum an der Sache zu verschaffen", "u",
                       S433).status == "quote_ok"


def test_changed_word_differs_and_names_it():
    r = check_quote("der Käufer einer Sache verpflichtet, dem Käufer die Sache zu übergeben", "u", S433)
    assert r.status == "quote_differs"
    assert r.differing == ["käufer -> verkäufer"]
    assert r.closest.startswith("der verkäufer einer sache")


def test_dropped_negation_and_changed_number_differ():
    assert check_quote("Der Anspruch auf Leistung ist ausgeschlossen, soweit diese für den Schuldner möglich ist",
                       "u", S275).status == "quote_differs"
    r = check_quote("nach § 434 Abs. 2 verpflichtet", "u", "Der Verkäufer ist nach § 433 Abs. 2 verpflichtet.")
    assert r.status == "quote_differs" and r.differing == ["434 -> 433"]


def test_quote_from_another_unit_is_not_found_and_names_it():
    r = check_quote("für den Schuldner oder für jedermann unmöglich ist", "BGB/§433/Abs1/S1", S433,
                    others={"BGB/§275/Abs1": S275})
    assert r.status == "quote_not_found" and r.neighbour == "BGB/§275/Abs1"


def test_quotations_and_their_nearest_citation():
    text = 'Nach § 433 Abs. 1 BGB wird „der Verkäufer einer Sache verpflichtet“. Sonst "nichts davon hier".'
    assert [q for _, _, q in quotations(text)] == ["der Verkäufer einer Sache verpflichtet", "nichts davon hier"]
    found = near_quotes(text, [(5, 21, "BGB/§433/Abs1/S1", S433)])
    assert [(q.status, q.unit_id) for q in found] == [("quote_ok", "BGB/§433/Abs1/S1"),
                                                      ("quote_not_found", "BGB/§433/Abs1/S1")]
