"""Greedy choice of units within a word budget: the pure core of a context pack.

Why greedy by gain per word: filling a word budget with the most expected citations is a knapsack
problem whose items interact (two units of one § share its citations). The ratio greedy with
re-evaluated marginal gains is the standard answer for such coverage objectives; because a plain
unit's gain can only fall as scopes get covered, it is evaluated lazily (a heap of stale upper
bounds).

Rules:
- the total words never exceed ``budget``; a unit that does not fit is passed over and smaller
  ones are still tried;
- never a unit twice: an id, or any ancestor/descendant pair (a Satz and its own Absatz or §),
  since ids are citations and an ancestor's id is a prefix of its descendants' (``legalkg.model``);
- the value of a set of units is the sum, over the §§ they lie in, of each §'s expected
  citations, plus the sum over their Absatz scopes of each scope's (``gain``); a unit adds what
  its scopes add that the chosen units did not cover yet, and a unit that adds nothing is not
  delivered (it would only spend words);
- an **upgrade**: a unit that contains chosen units (a § holding a chosen Satz) may replace them,
  for the gain and the words that the exchange adds. A cheap Satz is often the best first pick
  for a §, and a larger budget can later afford the whole §, which also covers its other Absätze;
  without upgrades the Satz would keep the § out for good;
- ties go to the larger gain, then the smaller id, so the choice is deterministic.
"""

from __future__ import annotations

import heapq
from collections import Counter
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
    """A chosen item, the gain it added when chosen (split by depth) and the ids it replaced."""

    item: Item
    gain: float
    para: float
    absatz: float
    replaced: tuple[str, ...] = ()


def ancestors(uid: str) -> list[str]:
    """The proper ancestors' ids of a unit id (its prefixes below the law: ``BGB/§433`` of
    ``BGB/§433/Abs1``)."""
    parts = uid.split("/")
    return ["/".join(parts[:i]) for i in range(2, len(parts))]


def related(a: str, b: str) -> bool:
    """Whether two ids are the same unit or one lies inside the other."""
    return a == b or a.startswith(b + "/") or b.startswith(a + "/")


class _State:
    """The chosen units and the scopes they cover (counted, so an upgrade can take units out)."""

    def __init__(self, items: Sequence[Item]) -> None:
        self.items = items
        self.para_value: dict[Hashable, float] = {}
        self.abs_value: dict[Hashable, float] = {}
        for it in items:
            self.para_value[it.para_scope] = max(self.para_value.get(it.para_scope, 0.0), it.para_gain)
            self.abs_value[it.absatz_scope] = max(self.abs_value.get(it.absatz_scope, 0.0), it.absatz_gain)
        self.chosen: dict[str, Choice] = {}
        self.para = Counter()
        self.absatz = Counter()
        self.inside = Counter()  # proper ancestors of chosen ids
        self.in_para: dict[Hashable, set[str]] = {}  # § scope -> chosen ids in it
        self.version = Counter()  # § scope -> changes, for cached upgrade values

    def blocked(self, uid: str) -> bool:
        """Chosen already, or inside a chosen unit: permanent, since no unit is ever taken out
        except by one that contains it."""
        return uid in self.chosen or any(a in self.chosen for a in ancestors(uid))

    def plain_gain(self, it: Item) -> tuple[float, float]:
        p = 0.0 if self.para[it.para_scope] else self.para_value[it.para_scope]
        a = 0.0 if self.absatz[it.absatz_scope] else self.abs_value[it.absatz_scope]
        return p, a

    def upgrade(self, it: Item) -> tuple[float, float, int, list[Choice]]:
        """(§ gain, Absatz gain, extra words, replaced choices) of ``it`` replacing the chosen
        units inside it. Only units of its own § can lie inside it or share its scopes."""
        prefix = it.id + "/"
        out = [self.chosen[cid] for cid in sorted(self.in_para.get(it.para_scope, ())) if cid.startswith(prefix)]
        out_p = Counter(ch.item.para_scope for ch in out)
        out_a = Counter(ch.item.absatz_scope for ch in out)
        lost_p = sum(self.para_value[s] for s, n in out_p.items() if self.para[s] == n)
        lost_a = sum(self.abs_value[s] for s, n in out_a.items() if self.absatz[s] == n)
        p = (0.0 if self.para[it.para_scope] - out_p[it.para_scope] else self.para_value[it.para_scope]) - lost_p
        a = (0.0 if self.absatz[it.absatz_scope] - out_a[it.absatz_scope] else self.abs_value[it.absatz_scope]) - lost_a
        return p, a, it.words - sum(ch.item.words for ch in out), out

    def _count(self, it: Item, step: int) -> None:
        self.para[it.para_scope] += step
        self.absatz[it.absatz_scope] += step
        self.version[it.para_scope] += 1
        ids = self.in_para.setdefault(it.para_scope, set())
        if step > 0:
            ids.add(it.id)
            self.inside.update(ancestors(it.id))
        else:
            ids.discard(it.id)
            self.inside.subtract(ancestors(it.id))

    def take(self, it: Item, p: float, a: float, replaced: Sequence[Choice] = ()) -> None:
        for ch in replaced:
            del self.chosen[ch.item.id]
            self._count(ch.item, -1)
        self.chosen[it.id] = Choice(it, p + a, p, a, tuple(ch.item.id for ch in replaced))
        self._count(it, 1)


def _ratio(gain: float, words: int) -> float:
    return gain / words if words > 0 else float("inf")


#: a plain candidate: (gain per word, gain, id, § gain, Absatz gain)
_Plain = tuple[float, float, str, float, float]
#: an upgrade candidate: the same and the choices it replaces
_Upgrade = tuple[float, float, str, float, float, list[Choice]]


def greedy(items: Sequence[Item], budget: int) -> list[Choice]:
    """The chosen items in the order chosen (an upgrade after the units it replaced are gone;
    module docstring)."""
    state = _State(items)
    by_id = {it.id: it for it in items}
    left = budget
    heap: list[tuple[float, float, str]] = []
    for it in by_id.values():
        g = it.para_gain + it.absatz_gain
        if it.words > 0 and g > EPS:
            heap.append((-g / it.words, -g, it.id))
    heapq.heapify(heap)
    upgrades: set[str] = set()  # candidates that contain chosen units
    cached: dict[str, tuple[int, tuple[float, float, int, list[Choice]]]] = {}
    while left > 0:
        best_plain = _best_plain(heap, by_id, state, left, upgrades)
        best_up = _best_upgrade(upgrades, by_id, state, left, cached)
        if best_plain is None and best_up is None:
            break
        if best_up is not None and (best_plain is None or (best_up[0], best_up[1]) > (best_plain[0], best_plain[1])):
            _, _, uid, p, a, out = best_up
            left -= by_id[uid].words - sum(ch.item.words for ch in out)
            state.take(by_id[uid], p, a, out)
            upgrades.discard(uid)
        else:
            assert best_plain is not None
            _, _, uid, p, a = best_plain
            heapq.heappop(heap)
            left -= by_id[uid].words
            state.take(by_id[uid], p, a)
        upgrades.update(a for a in ancestors(uid) if a in by_id and not state.blocked(a))
    return list(state.chosen.values())


def _best_plain(heap: list[tuple[float, float, str]], by_id: dict[str, Item], state: _State, left: int,
                upgrades: set[str]) -> _Plain | None:
    """The best plain unit that fits, left on top of the heap. Units that can never be chosen
    again are popped on the way, and units that contain chosen ones move to ``upgrades``."""
    while heap:
        neg_ratio, _, uid = heap[0]
        it = by_id[uid]
        if it.words > left or state.blocked(uid):
            heapq.heappop(heap)  # permanent: the budget only shrinks
            continue
        if state.inside[uid] > 0:
            heapq.heappop(heap)
            upgrades.add(uid)
            continue
        p, a = state.plain_gain(it)
        g = p + a
        if g <= EPS:
            heapq.heappop(heap)  # gains of plain units never rise
            continue
        if g / it.words < -neg_ratio - EPS:
            heapq.heapreplace(heap, (-g / it.words, -g, uid))  # stale bound: re-queue at its value
            continue
        return g / it.words, g, uid, p, a
    return None


def _best_upgrade(upgrades: set[str], by_id: dict[str, Item], state: _State, left: int,
                  cached: dict[str, tuple[int, tuple[float, float, int, list[Choice]]]]) -> _Upgrade | None:
    """The best upgrade that fits; its value is cached until its § changes."""
    best_up: _Upgrade | None = None
    for uid in sorted(upgrades):
        it = by_id[uid]
        if state.blocked(uid) or state.inside[uid] <= 0:
            continue
        version = state.version[it.para_scope]
        if uid not in cached or cached[uid][0] != version:
            cached[uid] = (version, state.upgrade(it))
        p, a, words, out = cached[uid][1]
        g = p + a
        if g <= EPS or words > left:
            continue
        if best_up is None or (_ratio(g, words), g) > (best_up[0], best_up[1]):
            best_up = (_ratio(g, words), g, uid, p, a, out)
    return best_up
