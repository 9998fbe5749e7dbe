"""Which units a context pack holds, in which order and why: the pure core of a pack.

The pack follows the engine. Its §-level ranking is what ``legalkg search`` answers, so the pack
leads with the same §§ in the same order, each as the part of it that the engine ranks best for
the question, and then gives more of the first §§ (the rule that answers), what they cite, and the
§§ ranked after the first ``LEAD``. Rounds, each in the engine's order, until the budget is spent:

1. **lead**: each of the first ``LEAD`` ranked §§ once: the whole § where it fits its share of the
   budget (``FIRST_SHARE`` of it for the first §, ``SHARE`` for the others), else its best-ranked
   Absatz or Satz within that share, else its shortest unit that still fits the budget;
2. **rule**: more of the first ``DEEP`` §§: their next Absätze and Sätze in the engine's order, up
   to ``RULE_SHARE`` of the budget per §;
3. **cited**: the units that the lead §§ cite (one citation hop), each within ``SHARE``;
4. **next**: the §§ ranked after the first ``LEAD``, as in round 1;
5. **fill**: more of every ranked §, in order, while anything fits.

Rules in every round:
- the total words never exceed ``budget``; a unit that does not fit is passed over;
- never a unit twice: not the same id, nor a unit and one inside it (ids are citations, and an
  ancestor's id is a prefix of its descendants', ``legalkg.model``);
- never the same text twice (compared without case and spacing): a Satz such as "Eine zum Nachteil
  des Mieters abweichende Vereinbarung ist unwirksam." closes many §§ of tenancy law; such a shared
  text is also left out where a chosen unit (a whole §) already contains it;
- such *boilerplate* (a text that several §§ of the candidates share) is a §'s last choice, after
  its own wording;
- units without words (repealed: "(weggefallen)") are never delivered.

The units come out grouped by §, the §§ in the order they were first chosen (so the engine's), and
within a § in the order of the statute.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from ..model import decode_id
from ..vocab import PackReason, RetrievalLevel
from .candidates import CITED_PREFIX, Candidate

#: The ranked §§ the pack leads with (the engine's top 10, as ``legalkg search -k 10`` lists them).
LEAD = 10
#: The first §'s share of the budget in round 1, the other lead §§' share, and the share of each of
#: the first ``DEEP`` §§ in round 2 (fractions of the budget).
FIRST_SHARE, SHARE, RULE_SHARE = 0.25, 0.05, 0.2
DEEP = 3
PART_LEVELS = (str(RetrievalLevel.ABSATZ), str(RetrievalLevel.SATZ))


class Pick(NamedTuple):
    """A chosen candidate and why: the reason, the engine's rank of the § it stands for, and for
    ``PackReason.CITED`` the citation of the ranked unit that cites it."""

    candidate: Candidate
    reason: PackReason
    rank: int
    cited_by: str | None = None


def normalise(text: str) -> str:
    """Text compared for duplicates: lower case, single spaces, no closing full stop."""
    return " ".join(text.lower().split()).rstrip(".")


def para_of(uid: str) -> str:
    """The id of the § a unit lies in (``BGB/§573`` of ``BGB/§573/Abs2/S1``)."""
    c = decode_id(uid)
    return f"{c.law}/{c.para}" if c.para else uid


def related(a: str, b: str) -> bool:
    """Whether two ids are the same unit or one lies inside the other."""
    return a == b or a.startswith(b + "/") or b.startswith(a + "/")


def statute_order(uid: str) -> list:
    """Sort key in the order of the statute: numbers inside the id compared as numbers."""
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"(\d+)", uid)]


class _Pack:
    """The picks so far, the words left, and each ranked §'s parts in the engine's order."""

    def __init__(self, candidates: Sequence[Candidate], budget: int) -> None:
        self.left = budget
        self.boilerplate = boilerplate(candidates)
        self.parts: dict[str, list[Candidate]] = {}
        for c in sorted((c for c in candidates if c.source in PART_LEVELS),
                        key=lambda c: (c.rank, PART_LEVELS.index(c.source))):
            self.parts.setdefault(para_of(c.id), []).append(c)
        self.picks: list[Pick] = []
        self.texts: set[str] = set()
        self.words_in: Counter[str] = Counter()  # § id -> words chosen in it

    def fits(self, c: Candidate, cap: float | None = None) -> bool:
        key = normalise(c.text)
        if key in self.boilerplate and any(key in t for t in self.texts):
            return False
        return (0 < c.words <= self.left and (cap is None or c.words <= cap) and bool(key)
                and key not in self.texts and not any(related(c.id, p.candidate.id) for p in self.picks))

    def take(self, c: Candidate, reason: PackReason, rank: int, cited_by: str | None = None) -> None:
        self.picks.append(Pick(c, reason, rank, cited_by))
        self.texts.add(normalise(c.text))
        self.left -= c.words
        self.words_in[para_of(c.id)] += c.words

    def first(self, options: Sequence[Candidate], cap: float | None, shared: bool = False) -> Candidate | None:
        """The first option that fits, among the §'s own wording (or, with ``shared``, the boilerplate)."""
        for c in options:
            if (normalise(c.text) in self.boilerplate) == shared and self.fits(c, cap):
                return c
        return None

    def one(self, p: Candidate, cap: float) -> None:
        """Ranked § ``p`` once: whole within ``cap``, else its best part within ``cap``, else its
        shortest own wording that fits, else its shortest shared clause that fits."""
        own = self.parts.get(p.id, [])
        short = sorted([*own, p], key=lambda x: x.words)
        c = (self.first(([p] if p.words <= cap else []) + own, cap) or self.first(short, None)
             or self.first(short, None, shared=True))
        if c is not None:
            self.take(c, PackReason.RANKED if c.id == p.id else PackReason.PART, p.rank)

    def more(self, p: Candidate, cap: float) -> None:
        """Further parts of ranked § ``p`` in the engine's order while the § stays within ``cap`` words."""
        for c in self.parts.get(p.id, []):
            if self.words_in[p.id] + c.words <= cap and self.fits(c):
                self.take(c, PackReason.MORE, p.rank)


def boilerplate(candidates: Sequence[Candidate]) -> set[str]:
    """Texts that units of more than one § share."""
    paras: dict[str, set[str]] = {}
    for c in candidates:
        paras.setdefault(normalise(c.text), set()).add(para_of(c.id))
    return {t for t, ps in paras.items() if len(ps) > 1}


def choose(candidates: Sequence[Candidate], budget: int, lead: int = LEAD) -> list[Pick]:
    """The pack's picks from ready candidates (module docstring), grouped by § in the engine's order."""
    ranked = sorted((c for c in candidates if c.source == str(RetrievalLevel.PARAGRAPH)), key=lambda c: c.rank)
    pack = _Pack(candidates, budget)
    for i, p in enumerate(ranked[:lead]):
        pack.one(p, budget * (FIRST_SHARE if i == 0 else SHARE))
    for p in ranked[:DEEP]:
        pack.more(p, budget * RULE_SHARE)
    lead_ranks = {p.rank for p in ranked[:lead]}
    for c in sorted((c for c in candidates if c.source.startswith(CITED_PREFIX) and c.rank in lead_ranks),
                    key=lambda c: c.rank):
        if pack.fits(c, budget * SHARE):
            pack.take(c, PackReason.CITED, c.rank, c.seed)
    for p in ranked[lead:]:
        pack.one(p, budget * SHARE)
    for p in ranked:
        pack.more(p, budget)
    return grouped(pack.picks)


def grouped(picks: Sequence[Pick]) -> list[Pick]:
    """The picks grouped by §, the §§ in the order first chosen, each § in the statute's order."""
    first: dict[str, int] = {}
    for i, p in enumerate(picks):
        first.setdefault(para_of(p.candidate.id), i)
    return sorted(picks, key=lambda p: (first[para_of(p.candidate.id)], statute_order(p.candidate.id)))


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def why(pick: Pick, para_citation: str | None = None) -> str:
    """The reason in words: "ranked 1st for your question", "part of § 573 BGB, ranked 2nd for your
    question", "cited by § 573c BGB (ranked 5th for your question)"."""
    ranked = f"ranked {ordinal(pick.rank)} for your question"
    where = para_citation or "its §"
    if pick.reason is PackReason.RANKED:
        return ranked
    if pick.reason is PackReason.PART:
        return f"part of {where}, {ranked}"
    if pick.reason is PackReason.MORE:
        return f"more of {where}, {ranked}"
    return f"cited by {pick.cited_by or 'a unit'} ({ranked})"
