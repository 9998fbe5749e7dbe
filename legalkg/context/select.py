"""Greedy choice of units within a word budget: the pure core of a context pack.

Why greedy by gain per word: filling a word budget with the most expected citations is a knapsack
problem whose items interact (two units of one § share its citations). The ratio greedy with
re-evaluated marginal gains is the standard answer for such coverage objectives; because a gain
can only fall as scopes get covered, it is evaluated lazily (a heap of stale upper bounds).

Rules:
- the total words never exceed ``budget``; a unit that does not fit is passed over and smaller
  ones are still tried;
- never a unit twice: an id, or any ancestor/descendant pair (a Satz and its own Absatz or §),
  since ids are citations and an ancestor's id is a prefix of its descendants' (``legalkg.model``);
- the marginal gain of a unit is its § estimate if no chosen unit lies in its § yet, plus its
  Absatz estimate if none lies in its Absatz scope (``gain``); a unit with no gain left is not
  delivered (it would only spend words);
- ties go to the larger gain, then the smaller id, so the choice is deterministic.
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable, Sequence
from typing import NamedTuple

EPS = 1e-12


class Item(NamedTuple):
    """What the selection needs of a candidate: its words, its two scopes and their estimates."""

    id: str
    words: int
    para_scope: Hashable
    absatz_scope: Hashable
    para_gain: float
    absatz_gain: float


class Choice(NamedTuple):
    """A chosen item and the marginal gain it had when it was chosen."""

    item: Item
    gain: float
    para: float
    absatz: float


def ancestors(uid: str) -> list[str]:
    """The proper ancestors' ids of a unit id (its prefixes below the law: ``BGB/§433`` of
    ``BGB/§433/Abs1``)."""
    parts = uid.split("/")
    return ["/".join(parts[:i]) for i in range(2, len(parts))]


def related(a: str, b: str) -> bool:
    """Whether two ids are the same unit or one lies inside the other."""
    return a == b or a.startswith(b + "/") or b.startswith(a + "/")


def greedy(items: Sequence[Item], budget: int) -> list[Choice]:
    """The chosen items in the order chosen (module docstring)."""
    chosen: list[Choice] = []
    taken: set[str] = set()
    inside: set[str] = set()  # proper ancestors of taken ids
    para_done: set = set()
    abs_done: set = set()
    left = budget

    def marginal(it: Item) -> tuple[float, float]:
        p = 0.0 if it.para_scope in para_done else it.para_gain
        a = 0.0 if it.absatz_scope in abs_done else it.absatz_gain
        return p, a

    heap: list[tuple[float, float, str, int]] = []
    for i, it in enumerate(items):
        g = it.para_gain + it.absatz_gain
        if it.words > 0 and g > EPS:
            heap.append((-g / it.words, -g, it.id, i))
    heapq.heapify(heap)
    while heap and left > 0:
        neg_ratio, _, uid, i = heapq.heappop(heap)
        it = items[i]
        if it.words > left or uid in taken or uid in inside or any(a in taken for a in ancestors(uid)):
            continue  # permanent: the budget only shrinks and the taken set only grows
        p, a = marginal(it)
        g = p + a
        if g <= EPS:
            continue
        if g / it.words < -neg_ratio - EPS:
            heapq.heappush(heap, (-g / it.words, -g, uid, i))  # stale bound: re-queue at its true value
            continue
        chosen.append(Choice(it, g, p, a))
        taken.add(uid)
        inside.update(ancestors(uid))
        para_done.add(it.para_scope)
        abs_done.add(it.absatz_scope)
        left -= it.words
    return chosen
