"""The pack model, its budget check, Markdown, and the pure selection over candidates (no server)."""

from __future__ import annotations

import pytest

from legalkg.context import (
    MAX_BUDGET,
    Candidate,
    ContextPack,
    PackUnit,
    check_budget,
    render_markdown,
    select_units,
)
from legalkg.errors import UserError


def cand(uid: str, source: str, rank: int, words: int) -> Candidate:
    return Candidate(id=uid, citation=uid.replace("/", " "), text=" ".join([uid] * words), words=words,
                     source=source, rank=rank)


CANDS = [cand("BGB/§551", "Paragraph", 1, 120), cand("BGB/§551/Abs1", "Absatz", 1, 40),
         cand("BGB/§551/Abs1/S1", "Satz", 1, 25), cand("BGB/§566a/S2", "Satz", 2, 22),
         cand("BGB/§548", "cited:Paragraph", 1, 60)]


def test_model_dump_has_exactly_the_agreed_keys():
    pack = ContextPack(query="q", budget=10, units=[PackUnit(id="BGB/§1", citation="§ 1 BGB", text="t", words=1,
                                                              why="w", reason="ranked", rank=1)])
    assert pack.model_dump(mode="json") == {"query": "q", "budget": 10, "units": [
        {"id": "BGB/§1", "citation": "§ 1 BGB", "text": "t", "words": 1, "why": "w", "reason": "ranked", "rank": 1,
         "cited_by": None}]}
    assert pack.words == 1


@pytest.mark.parametrize("bad", [0, -5, MAX_BUDGET + 1, 10**12, "abc", "", 2.5, True, None])
def test_a_bad_budget_is_one_line(bad):
    with pytest.raises(UserError) as err:
        check_budget(bad)
    assert "\n" not in str(err.value) and "budget" in str(err.value)


def test_good_budgets_pass():
    assert check_budget(1) == 1 and check_budget("300") == 300 and check_budget(MAX_BUDGET) == MAX_BUDGET


def test_select_units_stays_in_the_budget_and_never_delivers_a_unit_twice():
    for budget in (1, 22, 25, 50, 100, 300, 1000):
        units = select_units(CANDS, budget)
        assert sum(u.words for u in units) <= budget
        ids = [u.id for u in units]
        assert not any(a != b and (a.startswith(b + "/") or b.startswith(a + "/")) for a in ids for b in ids)
        assert len(set(ids)) == len(ids)
    # the § ranked first (120 words, over a quarter of 25) is reached through its shortest unit first
    assert [u.id for u in select_units(CANDS, 25)] == ["BGB/§551/Abs1/S1"]
    units = select_units(CANDS, 300)
    assert units[0].id == "BGB/§551/Abs1" and units[0].why == "part of BGB §551, ranked 1st for your question"


def test_markdown_heads_each_unit_with_citation_and_id():
    units = select_units(CANDS, 100)
    pack = ContextPack(query="Kaution " * 100, budget=100, units=units)
    md = render_markdown(pack, why=True)
    for u in units:
        assert f"## {u.citation} (`{u.id}`)" in md and u.text in md and u.why in md
    assert md.splitlines()[0].endswith("…") and len(md.splitlines()[0]) < 140
    assert md.rstrip().endswith(f"{pack.words} of 100 words_")
    assert "(no unit found within the budget)" in render_markdown(ContextPack(query="q", budget=5))
