"""Property-style: over many generated candidate sets (queries) and budgets, a pack never exceeds
its budget, never delivers a unit twice (an id, or an ancestor/descendant pair) nor a text twice,
keeps each §'s units together, and leads with the engine's first § where any unit of it fits."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from legalkg.context import Candidate, select_units
from legalkg.context.select import normalise, para_of

SOURCES = ("Paragraph", "Absatz", "Satz", "cited:Paragraph")


@st.composite
def candidate_sets(draw):
    """Units of a few §§ of two laws at every level (the § ranking holds §§, the others deeper units),
    some sharing a text, with random words and ranks."""
    out = []
    for _ in range(draw(st.integers(0, 40))):
        law = draw(st.sampled_from(["BGB", "ZPO"]))
        parts = [law, f"§{draw(st.integers(1, 6))}"]
        depth = draw(st.integers(0, 3))
        if depth >= 1 and draw(st.booleans()):
            parts.append(f"Abs{draw(st.integers(1, 3))}")
        if depth >= 2:
            parts.append(f"S{draw(st.integers(1, 3))}")
        if depth >= 3:
            parts.append(f"Nr{draw(st.integers(1, 2))}")
        uid = "/".join(parts)
        text = draw(st.sampled_from([uid, uid + " Satz.", "Die Vereinbarung ist unwirksam."]))
        out.append(Candidate(id=uid, citation=uid, text=text, words=draw(st.integers(0, 400)),
                             source="Paragraph" if len(parts) == 2 else draw(st.sampled_from(SOURCES[1:])),
                             rank=draw(st.integers(1, 300))))
    return list({c.id: c for c in out}.values())


@settings(max_examples=300, deadline=None)
@given(candidate_sets(), st.integers(1, 5000))
def test_never_over_budget_never_twice(cands, budget):
    units = select_units(cands, budget)
    words = {c.id: c.words for c in cands}
    assert sum(u.words for u in units) <= budget
    assert all(u.words == words[u.id] > 0 for u in units)
    ids = [u.id for u in units]
    assert len(set(ids)) == len(ids)
    for a in ids:
        for b in ids:
            assert a == b or not (a.startswith(b + "/") or b.startswith(a + "/")), (a, b)
    texts = [normalise(u.text) for u in units]
    assert len(set(texts)) == len(texts)
    paras = [para_of(u) for u in ids]
    assert all(paras.index(q) == i or paras[i - 1] == q for i, q in enumerate(paras))  # each § in one run
    ranked = sorted((c for c in cands if c.source == "Paragraph"), key=lambda c: c.rank)
    if ranked and units:
        top = ranked[0].id
        if any(0 < c.words <= budget and para_of(c.id) == top and c.source != "cited:Paragraph" for c in cands):
            assert paras[0] == top
