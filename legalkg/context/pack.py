"""``build_pack``: the units to put into an LLM prompt within a word budget, and why each is there.

The pipeline: ``candidates.gather`` (the learned engine at §, Absatz and Satz level plus one
citation hop), then ``select.choose`` (the engine's ranked §§ first, each as its best-matching
part, then more of the first §§, what they cite and the §§ ranked next; never a unit or a text
twice, never over the budget). Words are the graph's ``words`` property, which is what
``legalkg.eval.metric`` counts as delivered words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pydantic import BaseModel, Field

from ..errors import UserError, short
from ..retrieve import Retriever, clean_query
from ..retrieve.learned import choose_task
from ..retrieve.request import parse_task
from ..vocab import PackReason, RetrievalLevel
from .candidates import Candidate, gather
from .select import choose, para_of, why

#: The largest budget accepted: far above any prompt (about 150,000 tokens of German statute text).
MAX_BUDGET = 100_000


class PackUnit(BaseModel):
    id: str
    citation: str
    text: str
    words: int
    why: str = Field(description='why the pack holds the unit, in words ("ranked 1st for your question")')
    reason: PackReason = Field(description="why, as a code: ranked (the § as ranked), part (its best-matching "
                                           "Absatz or Satz), more (a further part of it), cited (a unit it cites)")
    rank: int = Field(description="the engine's rank of the § the unit stands for (for cited: of the citing §)")
    cited_by: str | None = Field(None, description="for reason cited: the citation of the ranked unit citing it")


class ContextPack(BaseModel):
    query: str
    budget: int
    units: list[PackUnit] = Field(default_factory=list)

    @property
    def words(self) -> int:
        """The words delivered (never above ``budget``)."""
        return sum(u.words for u in self.units)


def check_budget(budget: object) -> int:
    """``budget`` as a whole number of words in 1..``MAX_BUDGET``, or one line naming the fix."""
    if isinstance(budget, bool) or not isinstance(budget, int | str):
        raise UserError(f"the budget must be a whole number of words, not {short(budget)}")
    try:
        value = int(budget)
    except ValueError:
        raise UserError(f"the budget must be a whole number of words, not {short(budget)}") from None
    if not 1 <= value <= MAX_BUDGET:
        raise UserError(f"the budget must be between 1 and {MAX_BUDGET:,} words, not {value:,}: "
                        "give the words the prompt can spend on statute text (e.g. --budget 1000)")
    return value


def select_units(candidates: Sequence[Candidate], budget: int) -> list[PackUnit]:
    """The pack's units from ready candidates, in the pack's order (pure: the benchmark calls it)."""
    citation = {c.id: c.citation for c in candidates if c.source == str(RetrievalLevel.PARAGRAPH)}
    out = []
    for pick in choose(candidates, budget):
        c = pick.candidate
        out.append(PackUnit(id=c.id, citation=c.citation, text=c.text, words=c.words,
                            why=why(pick, citation.get(para_of(c.id))), reason=pick.reason, rank=pick.rank,
                            cited_by=pick.cited_by))
    return out


def build_pack(retriever: Retriever, query: str, budget: int, task: str | None = None, law: str | None = None,
               *, pools: Mapping[RetrievalLevel, int] | None = None) -> ContextPack:
    """The context pack of ``query``: at most ``budget`` words, led by the §§ the engine ranks
    first (``select``). ``task`` (lay / case) picks the predictor (left out: by the query's
    length); ``law`` keeps one law's units; ``pools`` replaces the hits asked per level."""
    budget = check_budget(budget)
    text = clean_query(query)
    task = choose_task(text, parse_task(task))
    candidates = gather(retriever, text, task, law, pools)
    return ContextPack(query=text, budget=budget, units=select_units(candidates, budget))
