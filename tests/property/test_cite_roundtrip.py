"""Property: a citation's canonical court form (``Citation.human()`` + the law) parses back to the
same unit (issue 35)."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from legalkg.cite import LawRegistry, extract
from legalkg.model import Citation

REG = LawRegistry.default(manifest=False)
LAWS = ["BGB", "ZPO", "StGB", "SGB V", "SGB XII", "GG", "EStG", "HGB", "VwGO", "AO"]
num = st.integers(1, 999).map(str)
small = st.integers(1, 30).map(str)
suffix = st.sampled_from(["", "a", "b", "c"])
letter = st.sampled_from(list("abcdefgh"))


@st.composite
def citations(draw) -> Citation:
    law = draw(st.sampled_from(LAWS))
    unit = "Art" if law == "GG" else "§"
    para = f"{unit}{draw(num)}{draw(suffix)}"
    absatz = draw(st.none() | small)
    satz = draw(st.none() | small)
    nummer = draw(st.none() | small)
    buchstabe = draw(st.none() | letter) if nummer else None
    dbst = draw(st.none() | letter.map(lambda c: c + c)) if buchstabe else None
    return Citation(law=law, para=para, absatz=absatz, satz=satz, nummer=nummer, buchstabe=buchstabe,
                    doppelbuchstabe=dbst)


@settings(max_examples=300, deadline=None)
@given(citations())
def test_canonical_form_parses_back(c):
    text = f"{c.human()} {c.law}"
    found = [m for m in extract(text, registry=REG) if m.unit is not None]
    assert [m.node_id for m in found] == [c.to_id()], text
