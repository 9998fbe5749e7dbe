"""The sentence splitter: legal abbreviations, dates, ordinals and citation numbers at sentence end."""

import pytest

from legalkg.parse.sentences import ends_sentence, split_sentences


def texts(s: str) -> list[str]:
    return [t for t, _ in split_sentences(s)]


@pytest.mark.parametrize("text", [
    "Dies gilt nach Abs. 2 Nr. 3 und Art. 5 S. 1 entsprechend.",
    "Das sind z. B. Kinder, d. h. Personen unter 14 Jahren.",
    "Es gilt § 5 i. V. m. § 7 Buchst. b ff. sinngemäß.",
    "Erfasst sind u. a. Zinsen von 5 v. H. des Betrags.",
    "Die Frist endet am 1. Januar 2002 um Mitternacht.",
    "Die Vorschriften des 2. Buches und der 3. Abschnitt bleiben unberührt.",
    "Das gilt vgl. § 3 bzw. § 4 ggf. entsprechend.",
])
def test_abbreviations_do_not_split(text):
    assert texts(text) == [text]


def test_stpo_266_sentence_ends_after_citation_number():
    s = ("Die Nachtragsanklage kann mündlich erhoben werden. Ihr Inhalt entspricht dem § 200 Abs. 1. "
         "Sie wird in das Sitzungsprotokoll aufgenommen.")
    assert texts(s) == ["Die Nachtragsanklage kann mündlich erhoben werden.",
                        "Ihr Inhalt entspricht dem § 200 Abs. 1.",
                        "Sie wird in das Sitzungsprotokoll aufgenommen."]


def test_year_at_sentence_end_splits():
    assert texts("Es gilt ab dem 1. Januar 2002. Danach nicht mehr.") == [
        "Es gilt ab dem 1. Januar 2002.", "Danach nicht mehr."]


def test_citation_letter_at_sentence_end_splits():
    assert texts("Das gilt nach Buchstabe a. Ferner gilt Satz 2.") == [
        "Das gilt nach Buchstabe a.", "Ferner gilt Satz 2."]


def test_closing_bracket_after_period_splits():
    assert texts("Siehe die Verordnung (ABl. L 168 S. 1). Sie gilt.") == [
        "Siehe die Verordnung (ABl. L 168 S. 1).", "Sie gilt."]


def test_lowercase_continuation_never_splits():
    assert texts("Er zahlt 5 Euro. usw. und so fort.") == ["Er zahlt 5 Euro. usw. und so fort."]


def test_closed_flag_and_ends_sentence():
    assert split_sentences("Ist die Sache mangelhaft, kann der Käufer,") == [
        ("Ist die Sache mangelhaft, kann der Käufer,", False)]
    assert ends_sentence("nach § 284 Ersatz vergeblicher Aufwendungen verlangen.")
    assert not ends_sentence("die Rechtssache grundsätzliche Bedeutung hat oder")
    assert not ends_sentence("gilt das z. B.")
    assert ends_sentence("entspricht dem § 200 Abs. 1.")


def test_empty_and_whitespace():
    assert split_sentences("  \n ") == []
    assert texts("Ein  Satz\n mit   Umbruch.") == ["Ein Satz mit Umbruch."]
