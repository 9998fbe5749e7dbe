"""The citation lexicon (legalkg/data/cite_lexicon.tsv): a new form is a row, a broken row one error.

The sentence is copied from $LEGALKG_SHARED/data/gii/bgbeg.xml (EGBGB Anlage 11, Gestaltungshinweise)
and was read there: "des vorangegangenen Satzes" points at the Satz before the citing one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from legalkg.cite import lexicon
from legalkg.cite.grammar import scan
from legalkg.errors import UserError

SHIPPED = Path(lexicon.__file__).resolve().parents[1] / "data" / lexicon.DEFAULT_FILE
EGBGB_ANL11 = ("Gestaltungshinweise: Bei Tagesreisen, deren Reisepreis 500 Euro übersteigt, ist anstelle des "
               "vorangegangenen Satzes der folgende Satz einzufügen: „Bei der Ihnen angebotenen Kombination "
               "von Reiseleistungen handelt es sich um eine Tagesreise.“")


def copy_with(tmp_path: Path, *rows: str) -> Path:
    """The shipped lexicon with ``rows`` appended, as a new file."""
    path = tmp_path / "lexicon.tsv"
    path.write_text(SHIPPED.read_text("utf-8") + "".join(r + "\n" for r in rows), "utf-8")
    return path


def test_a_new_direction_word_is_one_row(tmp_path, registry):
    assert scan(EGBGB_ANL11, registry, relative=True) == []  # the shipped lexicon lacks the word
    lex = lexicon.load(copy_with(tmp_path, "direction\tvorangegangenen\t<prev>"))
    chains = scan(EGBGB_ANL11, registry, relative=True, lexicon=lex)
    assert len(chains) == 1
    (ref,) = chains[0].refs
    assert EGBGB_ANL11[ref.start:ref.end] == "vorangegangenen Satzes"
    assert (ref.unit, ref.para, ref.levels) == (None, None, {"satz": "<prev>"})


def test_a_new_keyword_is_one_row(tmp_path, registry):
    """'Ziff.' is shipped; a made-up spelling 'Nmr.' reads only once its row is added."""
    text = "nach § 5 Abs. 2 Nmr. 3 BGB"
    assert scan(text, registry)[0].refs[0].levels == {"absatz": "2"}
    lex = lexicon.load(copy_with(tmp_path, "keyword\tnmr\tnummer"))
    ref = scan(text, registry, lexicon=lex)[0].refs[0]
    assert (ref.para, ref.levels, ref.law_key) == ("5", {"absatz": "2", "nummer": "3"}, "BGB")


def test_the_shipped_lexicon_loads_with_every_kind():
    lex = lexicon.default()
    assert {r.kind for r in lex.rows} == set(lexicon.KINDS)
    assert lex.keywords["abs"] == "absatz" and lex.ordinals["zweiter"] == "2"
    assert lex.heads["artt"] == ("Art", True) and lex.heads["paragraph"] == ("§", False)


@pytest.mark.parametrize(("row", "says"), [
    ("keywrd\tabsatzteil\tabsatz", "unknown kind 'keywrd'"),
    ("keyword\tabsatzteil\tparagraph", "has value 'paragraph'; use absatz, alternative,"),
    ("keyword\tabsatzteil\tabsatz\tdot,loud", "unknown flags ['loud']"),
    ("keyword", "a row needs 2 to 4 tab-separated cells"),
    ("keyword\tabs\tabsatz", "keyword 'abs' is already on line"),
    ("number\tdreizehn\tthirteen", "has value 'thirteen'; use a number"),
    ("article\tDes", "must be lower-case"),
    ("law_part\tgesetzlein\tx", "takes no value"),
])
def test_a_broken_row_is_one_clear_error(tmp_path, row, says):
    path = copy_with(tmp_path, row)
    line = len(path.read_text("utf-8").splitlines())
    with pytest.raises(lexicon.LexiconError) as err:
        lexicon.load(path)
    text = str(err.value)
    assert isinstance(err.value, UserError) and "\n" not in text
    assert text.startswith(f"lexicon.tsv:{line}: ") and says in text


def test_a_missing_lexicon_file_is_one_line(tmp_path):
    with pytest.raises(lexicon.LexiconError) as err:
        lexicon.load(tmp_path / "nothing.tsv")
    assert "cannot read the citation lexicon" in str(err.value) and "\n" not in str(err.value)
