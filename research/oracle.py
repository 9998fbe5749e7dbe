"""Upper bounds of recall@k at § depth: what a run would score if its top k were gold units.

Why: ToER@k at § depth is recall@k at § depth divided by the level's W (words per unit), so a goal
on ToER is a goal on recall for a given level. A case cites more §§ than k units can reach (ler_courts:
about nine distinct §§ per decision against k = 5), so even a perfect ranker stays below recall 1. The
oracle answers each case with the k §§ that carry most of its distinct gold citations (any unit of a §
matches all its gold at § depth), which is the most hits k units of one § each can get; divided by
W it is the ToER ceiling of a level. Pure: gold in, counts out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from legalkg.model import Citation


def para_hits_at_k(gold: Iterable[Citation], k: int) -> int:
    """The most distinct gold citations with a § that ``k`` units hit at § depth."""
    counts = Counter((c.law, c.para) for c in dict.fromkeys(gold) if c.para)
    return sum(n for _, n in counts.most_common(k))


def oracle_recall(golds: Sequence[Sequence[Citation]], k: int) -> tuple[float, int, int]:
    """(micro recall at § depth of the oracle top ``k``, its hits, the distinct gold citations)."""
    hits = sum(para_hits_at_k(g, k) for g in golds)
    n_gold = sum(len(dict.fromkeys(g)) for g in golds)
    return (hits / n_gold if n_gold else float("nan")), hits, n_gold
