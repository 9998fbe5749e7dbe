"""Where each citation edge's chains stand in the citing unit's text (``Edge.spans``, stored as the
edges' ``starts``/``ends``), on KSchG and TzBfG parsed from the shared gii XML; the unit pages link
these offsets (legalkg.serve.web.lawtext).

Hand-checked in kschg.xml / tzbfg.xml: § 15 Abs. 3b Satz 2 KSchG reads "… der Erklärung nach Satz 1
bis … § 115 Absatz 2 Nummer 8 Satz 1 des Betriebsverfassungsgesetzes …" (only the first "Satz 1" is
its own Satz 1); § 13 Abs. 3 Satz 1 TzBfG reads "Die Absätze 1 und 2 sind entsprechend anzuwenden, …
im Sinne des Absatzes 1 vorliegt." (two chains citing Absatz 1).
"""

from __future__ import annotations

import pytest

from legalkg import paths

parse = pytest.importorskip("legalkg.parse")


@pytest.fixture(scope="module")
def laws():
    if not (paths.gii_dir() / "kschg.xml").exists():
        pytest.skip("shared gii data not available")
    return [parse.parse_file(paths.gii_dir() / name) for name in ("kschg.xml", "tzbfg.xml")]


@pytest.fixture(scope="module")
def edges(laws):
    from legalkg.cite import LawRegistry, statute_edges

    known = {u.id for law in laws for u in law.units}
    repealed = {u.id for law in laws for u in law.units if u.repealed}
    reg = LawRegistry.default()
    return [e for law in laws for e in statute_edges(law, reg, known, repealed)[0]]


def text_of(laws, uid: str) -> str:
    return next(u.text for law in laws for u in law.units if u.id == uid)


def test_the_span_is_the_chain_that_cites_not_a_later_one_with_the_same_words(laws, edges):
    text = text_of(laws, "KSchG/§15/Abs3b/S2")
    edge = next(e for e in edges if e.source_id == "KSchG/§15/Abs3b/S2" and e.target_id == "KSchG/§15/Abs3b/S1")
    start = text.index("nach Satz 1 bis") + len("nach ")
    assert edge.spans == [(start, start + len("Satz 1"))] and text.count("Satz 1") == 2


def test_two_chains_citing_the_same_unit_keep_both_spans(laws, edges):
    text = text_of(laws, "TzBfG/§13/Abs3/S1")
    edge = next(e for e in edges if e.source_id == "TzBfG/§13/Abs3/S1" and e.target_id == "TzBfG/§13/Abs1")
    later = text.index("Absatzes 1")
    assert edge.spans == [(4, 19), (later, later + len("Absatzes 1"))]
    assert text[4:19] == "Absätze 1 und 2" == edge.text


def test_every_span_is_in_the_citing_units_own_words(laws, edges):
    """The first span is the chain as written; no span lies inside a child's text (the child cites it)."""
    units = {u.id: u for law in laws for u in law.units}
    children: dict[str, list[str]] = {}
    for u in units.values():
        children.setdefault(u.parent_id, []).append(u.text or "")
    for e in edges:
        text = units[e.source_id].text
        a, b = e.spans[0]
        assert text[a:b] == e.text, e
        for child in children.get(e.source_id, []):
            at = text.find(child) if child else -1
            assert at < 0 or all(not (at <= s and t <= at + len(child)) for s, t in e.spans), e
