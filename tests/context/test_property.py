"""Property-style: over many generated candidate sets (queries) and budgets, a pack never exceeds
its budget and never delivers a unit twice (an id, or an ancestor/descendant pair)."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from legalkg.context import Calibration, Candidate, fit, select_units
from legalkg.model import Citation

SOURCES = ("Paragraph", "Absatz", "Satz", "cited:Paragraph")


@st.composite
def candidate_sets(draw):
    """Units of a few §§ of two laws at every level, with repeats across sources and random words."""
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
        out.append(Candidate(id=uid, citation=uid, text="t", words=draw(st.integers(0, 400)),
                             source=draw(st.sampled_from(SOURCES)), rank=draw(st.integers(1, 300))))
    return list({c.id: c for c in out}.values())


GOLD = [Citation("BGB", "§1", "2"), Citation("BGB", "§3"), Citation("ZPO", "§2", "1", "1")]


@settings(max_examples=300, deadline=None)
@given(candidate_sets(), st.integers(1, 5000), st.booleans())
def test_never_over_budget_never_twice(cands, budget, fitted):
    cal = fit([(cands, GOLD)]) if fitted else Calibration()
    units = select_units(cands, budget, cal)
    words = {c.id: c.words for c in cands}
    assert sum(u.words for u in units) <= budget
    assert all(u.words == words[u.id] for u in units)
    ids = [u.id for u in units]
    assert len(set(ids)) == len(ids)
    for a in ids:
        for b in ids:
            assert a == b or not (a.startswith(b + "/") or b.startswith(a + "/")), (a, b)
