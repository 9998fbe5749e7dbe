"""List labels and § designations -> levels and id labels."""

import pytest

from legalkg.model import Level
from legalkg.parse.labels import is_roman_list, item_level, label_shape, paragraph_designation


@pytest.mark.parametrize("dt,level,label", [
    ("1.", Level.NUMMER, "1"), ("5a.", Level.NUMMER, "5a"), ("12", Level.NUMMER, "12"),
    ("a)", Level.BUCHSTABE, "a"), ("aa)", Level.DOPPELBUCHSTABE, "aa"),
    ("–", None, None), ("•", None, None), ("", None, None), ("aaa)", None, None),
    ("II.", None, "2"),
])
def test_label_shape(dt, level, label):
    assert label_shape(dt) == (level, label)


def test_roman_list_beats_letter_i():
    assert is_roman_list(["i)", "ii)", "iii)"])
    assert not is_roman_list(["h)", "i)"])
    assert label_shape("ii)", roman_list=True) == (None, "2")
    assert label_shape("i)") == (Level.BUCHSTABE, "i")


def test_item_level_by_shape_and_nesting():
    assert item_level(Level.NUMMER, Level.SATZ) == Level.NUMMER
    assert item_level(Level.BUCHSTABE, Level.SATZ) == Level.BUCHSTABE
    assert item_level(None, Level.SATZ) == Level.NUMMER  # dashes directly in a Satz
    assert item_level(None, Level.NUMMER) == Level.BUCHSTABE  # dashes under a Nummer
    assert item_level(Level.NUMMER, Level.BUCHSTABE) == Level.DOPPELBUCHSTABE  # 1. under a)
    assert item_level(None, Level.DOPPELBUCHSTABE) is None  # too deep: stays text


def test_paragraph_designations():
    assert paragraph_designation("§ 433").labels == ["433"]
    assert paragraph_designation("Art 20").segment_prefix == "Art"
    assert paragraph_designation("Anlage 2a (zu § 3)").labels == ["2a"]
    assert paragraph_designation("Anlage").labels == [""]
    assert paragraph_designation("Anhang EV").labels == ["AnhEV"]
    assert paragraph_designation("Eingangsformel") is None
    assert paragraph_designation("Präambel") is None
    r = paragraph_designation("(XXXX) §§ 3 bis 6")
    assert r.ranged and r.labels == ["3", "4", "5", "6"]
    assert paragraph_designation("(XXXX) §§ 16a bis 16c").labels == ["16a", "16b", "16c"]
    assert paragraph_designation("(XXXX) §§ 240 und 241").labels == ["240", "241"]
    assert paragraph_designation("(XXXX) Art 1 bis 3").labels == ["1", "2", "3"]
