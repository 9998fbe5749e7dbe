"""``build_pack``: the units to put into an LLM prompt within a word budget, and why each is there.

The pipeline: ``candidates.gather`` (the learned engine at §, Absatz and Satz level plus one
citation hop), ``gain.expected`` (what each unit is expected to add, calibrated per task), then
``select.greedy`` (by expected gain per word, never a unit twice, never over the budget). Words are
the graph's ``words`` property, which is what ``legalkg.eval.metric`` counts as delivered words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pydantic import BaseModel, Field

from ..errors import UserError, short
from ..retrieve import Retriever, clean_query
from ..retrieve.learned import choose_task
from ..retrieve.request import parse_task
from ..vocab import RetrievalLevel
from . import gain as gainmod
from .candidates import CITED_PREFIX, Candidate, gather
from .select import Choice, Item, greedy

#: The largest budget accepted: far above any prompt (about 150,000 tokens of German statute text).
MAX_BUDGET = 100_000


class PackUnit(BaseModel):
    id: str
    citation: str
    text: str
    words: int
    why: str = Field(description="where retrieval found the unit and the gain expected of it")


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


def items(candidates: Sequence[Candidate], estimates: Sequence[gainmod.Estimate]) -> list[Item]:
    """The selection's view of the candidates, with their expected gains."""
    return [Item(c.id, c.words, gainmod.para_scope(c.id), gainmod.absatz_scope(c.id), e.para, e.absatz)
            for c, e in zip(candidates, estimates)]


def _found(where: str) -> str:
    source, _, rank = where.rpartition(" ")
    if source.startswith(CITED_PREFIX):
        return f"cited by the {source[len(CITED_PREFIX):]} hit ranked {rank}"
    return f"{source} hit ranked {rank}"


def why(c: Candidate, e: gainmod.Estimate, choice: Choice) -> str:
    """Where the unit was found, the evidence behind each part of its gain, and its words."""
    parts = [f"{_found(f'{c.source} {c.rank}')}; expected hits {choice.gain:.2f} (§ + Absatz depth) for {c.words} words"]
    if choice.para > 0:
        parts.append(f"its § {choice.para:.2f} (from the {_found(e.para_from)})")
    if choice.absatz > 0:
        parts.append(f"its Absatz {choice.absatz:.2f} (from the {_found(e.absatz_from)})")
    if choice.replaced:
        parts.append(f"replaces {len(choice.replaced)} smaller unit{'s' if len(choice.replaced) > 1 else ''} of it")
    return "; ".join(parts)


def select_units(candidates: Sequence[Candidate], budget: int, calibration: gainmod.Calibration) -> list[PackUnit]:
    """The pack's units from ready candidates (pure: the benchmark calls it with fold calibrations)."""
    estimates = gainmod.expected(candidates, calibration)
    by_id = {c.id: (c, e) for c, e in zip(candidates, estimates)}
    out = []
    for ch in greedy(items(candidates, estimates), budget):
        c, e = by_id[ch.item.id]
        out.append(PackUnit(id=c.id, citation=c.citation, text=c.text, words=c.words, why=why(c, e, ch)))
    return out


def build_pack(retriever: Retriever, query: str, budget: int, task: str | None = None, law: str | None = None,
               *, calibration: gainmod.Calibration | None = None,
               pools: Mapping[RetrievalLevel, int] | None = None) -> ContextPack:
    """The context pack of ``query``: at most ``budget`` words of units chosen by expected
    citation gain per word. ``task`` (lay / case) picks the predictor and the calibration (left
    out: by the query's length); ``law`` keeps one law's units; ``calibration`` replaces the
    shipped one (``legalkg/data/context-gain.json``)."""
    budget = check_budget(budget)
    text = clean_query(query)
    task = choose_task(text, parse_task(task))
    cal = calibration if calibration is not None else gainmod.shipped(task)
    candidates = gather(retriever, text, task, law, pools)
    return ContextPack(query=text, budget=budget, units=select_units(candidates, budget, cal))
