"""The tools' error lines as the pages say them (legalkg.serve.web.messages): each raised by its own
source, matched by the table and said in German words, or in English ones on request."""

from __future__ import annotations

import asyncio

import pytest

from legalkg.context.pack import check_budget
from legalkg.errors import UserError
from legalkg.retrieve.request import SearchRequest, clean_query
from legalkg.serve.gates import page_call
from legalkg.serve.web import messages, pages, views
from legalkg.verify.inputs import check_text
from legalkg.vocab import check_k, parse_level


def raised(call, *args, **kwargs) -> str:
    with pytest.raises(UserError) as err:
        call(*args, **kwargs)
    return str(err.value)


def page_line(text: str) -> str:
    """The line ``page_call`` raises for a page's text, before it calls anything."""
    with pytest.raises(UserError) as err:
        asyncio.run(page_call(None, "verify", lambda: None, text))
    return str(err.value)


CASES = [  # (the tool's line, words the German line holds, words the English line holds)
    (lambda: raised(clean_query, "  "), "Die Frage ist leer", "The question is empty"),
    (lambda: raised(SearchRequest, query="x", k="viele"), "Treffer (k) muss eine ganze Zahl sein, nicht 'viele'",
     "Results (k) must be a whole number"),
    (lambda: raised(check_k, 0), "zwischen 1 und 1000 liegen, nicht 0", "Results (k) must be between 1 and 1000"),
    (lambda: raised(parse_level, "Kapitel"), "Unbekannte Ebene 'Kapitel'", "Unknown level 'Kapitel'"),
    (lambda: raised(check_budget, "viel"), "Das Wortbudget muss eine ganze Zahl", "The word budget must be a whole"),
    (lambda: raised(check_budget, "0"), "zwischen 1 und 100.000 Wörtern liegen, nicht 0",
     "between 1 and 100,000 words, not 0"),
    (lambda: raised(check_budget, "200000"), "nicht 200.000", "not 200,000"),
    (lambda: raised(check_text, " "), "Der Text ist leer", "The text is empty"),
    (lambda: raised(check_text, "a\x00b"), "NUL-Zeichen", "NUL characters"),
    (lambda: page_line("x" * 100_001), "Der Text hat 100.001 Zeichen, mehr als die 100.000, die diese Seite prüft",
     "The text has 100,001 characters"),
    (lambda: page_line("Nach \ufffd"), "kein UTF-8", "was not UTF-8"),
    (lambda: pages.TOO_LONG, "mehr als 4.000.000 Bytes", "over 4,000,000 bytes"),
    (lambda: raised(views.broken_view, [], "XYZ", "1", 100, None), "Das Gesetz 'XYZ' hat keine defekten Verweise",
     "Law 'XYZ' has no broken references"),
    (lambda: raised(views.broken_view, [], "", "zwei", 100, None), "Die Seite muss eine ganze Zahl ab 1 sein",
     "The page must be a whole number from 1"),
]


@pytest.mark.parametrize(("line", "de", "en"), CASES)
def test_each_line_a_page_meets_is_said_in_german_and_in_english(line, de, en):
    message = line()
    assert messages.match(message) is not None, message
    german, english = messages.say(message, "de"), messages.say(message, "en")
    assert de in german and en in english, (german, english)
    assert german != message and "-k" not in german + english


def test_a_line_the_table_lacks_is_shown_as_written():
    assert messages.say("something new went wrong", "de") == "something new went wrong"
    assert messages.german_number("12,345") == "12.345" and messages.german_number("'1,2'") == "'1,2'"
