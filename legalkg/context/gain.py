"""Expected citation gain of a candidate unit, calibrated from where the engine ranked it.

What is estimated. A pack is scored like a retrieval run (``legalkg.eval.metric``): at § depth a
delivered unit hits every gold citation inside its §, at Absatz depth every gold citation inside
its Absatz, and every one of its § that names no Absatz ("§ 433 BGB"; a whole § or a Satz of a §
without Absätze hits all of its §). So a unit's worth is two numbers (``observed``): what any
unit of its § would hit (``para``: the §'s gold at § depth, plus its gold without an Absatz at
Absatz depth) and what only units of its Absatz scope hit (``absatz``: the gold naming that
Absatz); a second unit of the same § or Absatz scope adds nothing there (``select``), and the
score the pack is measured by is exactly the sum of the two over the scopes it covers.

How. The engine gives no probabilities, only ranks. A ``Calibration`` maps (source, rank bucket)
to the mean of those two counts over training cases: source is the level a unit was ranked at
(``Paragraph``, ``Absatz``, ``Satz``) or the hop that reached it (``cited:Paragraph``), the rank
buckets are ``BUCKETS``. Each mean is shrunk towards its source's mean over all ranks
(``SHRINK`` pseudo-cases) and made non-increasing in rank. Honest use: the benchmark
(benchmarks/context_packs.py) fits one calibration per cross-validation fold on the other folds'
cases only, each retrieved by an engine that never saw it; the shipped file
(``legalkg/data/context-gain.json``, written by that benchmark with ``--save-calibration`` over all
cases) is what ``legalkg context`` uses. A task without a fitted table falls back to ``PRIOR``, a
rank prior (1 / (rank + 1)) that keeps the order of the engine.

Combining evidence: a § ranked 2nd at § level and its Absatz ranked 1st at Absatz level speak of
the same citations; each scope's expected count is the largest any candidate in it gets.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from pydantic import BaseModel, Field

from ..eval.metric import match_depth
from ..model import Citation, decode_id
from ..taskfile import read_entries, shipped_path, write_entry
from .candidates import Candidate

#: Upper rank of each bucket (1, 2, 3, 4-5, 6-10, 11-20, 21-50, 51-100, 101-200, beyond).
BUCKETS: tuple[int, ...] = (1, 2, 3, 5, 10, 20, 50, 100, 200, 1_000_000)
#: Pseudo-cases of the source mean added to every bucket (few cases reach the deep buckets).
SHRINK = 3.0
FILE = "context-gain.json"
#: Depth 2 is §, depth 3 is Absatz (``legalkg.model.DEPTHS``, 1-based).
PARA_DEPTH, ABSATZ_DEPTH = 2, 3


def bucket(rank: int) -> int:
    """Index of the rank bucket that holds ``rank`` (ranks start at 1)."""
    return min(bisect.bisect_left(BUCKETS, max(rank, 1)), len(BUCKETS) - 1)


def para_scope(uid: str) -> tuple[str, str | None]:
    """The § a unit lies in: what it hits at § depth."""
    c = decode_id(uid)
    return c.law, c.para


def absatz_scope(uid: str) -> tuple[str, str | None, str | None]:
    """The Absatz a unit lies in, or its § where it has no Absatz: what it hits at Absatz depth."""
    c = decode_id(uid)
    return c.law, c.para, c.absatz


def observed(uid: str, gold: Iterable[Citation]) -> tuple[int, int]:
    """(what any unit of the unit's § hits, what only units of its Absatz scope hit), as the
    metric credits them: the first counts the gold citations inside the § once at § depth and
    once more at Absatz depth where they name no Absatz ("§ 433 BGB" is hit at Absatz depth by any
    unit of § 433); the second counts those that name an Absatz and are hit at Absatz depth (for
    a whole §: every Absatz of it)."""
    cit = decode_id(uid)
    para = absatz = 0
    for g in dict.fromkeys(gold):
        d = match_depth(cit, g)
        if d >= PARA_DEPTH:
            para += 1 + (g.absatz is None and d >= ABSATZ_DEPTH)
            absatz += g.absatz is not None and d >= ABSATZ_DEPTH
    return para, absatz


class Estimate(NamedTuple):
    """Expected gold counts of a § scope and an Absatz scope (``observed``), and where each
    estimate came from (``"Paragraph 2"``: the unit ranked 2nd at § level)."""

    para: float
    absatz: float
    para_from: str = ""
    absatz_from: str = ""


class Table(BaseModel):
    """One source's calibrated means per rank bucket (``BUCKETS`` order) and the counts behind them."""

    para: list[float]
    absatz: list[float]
    n: list[int]


class Calibration(BaseModel):
    """(source, rank bucket) -> expected gold counts; empty = the rank prior for every source."""

    tables: dict[str, Table] = Field(default_factory=dict)
    cases: int = 0

    def estimate(self, source: str, rank: int) -> Estimate:
        table = self.tables.get(source)
        if table is None:
            return PRIOR(rank)
        b = bucket(rank)
        return Estimate(table.para[b], table.absatz[b])


def PRIOR(rank: int) -> Estimate:  # noqa: N802 - a constant-like rule, named as the docs name it
    """The fallback without a fitted table: the engine's order, 1 / (rank + 1)."""
    value = 1.0 / (max(rank, 1) + 1)
    return Estimate(value, value)


def _monotone(values: list[float]) -> list[float]:
    out, low = [], float("inf")
    for v in values:
        low = min(low, v)
        out.append(low)
    return out


def fit(cases: Sequence[tuple[Sequence[Candidate], Sequence[Citation]]]) -> Calibration:
    """The calibration from training cases: each case's candidates and its gold citations."""
    sums: dict[str, list[list[float]]] = defaultdict(lambda: [[0.0] * len(BUCKETS), [0.0] * len(BUCKETS),
                                                              [0] * len(BUCKETS)])
    for candidates, gold in cases:
        gold = list(gold)
        for c in candidates:
            p, a = observed(c.id, gold)
            s = sums[c.source]
            b = bucket(c.rank)
            s[0][b] += p
            s[1][b] += a
            s[2][b] += 1
    tables: dict[str, Table] = {}
    for source, (p_sum, a_sum, n) in sums.items():
        total = sum(n)
        if not total:
            continue
        p_mean, a_mean = sum(p_sum) / total, sum(a_sum) / total
        para = [(p_sum[i] + SHRINK * p_mean) / (n[i] + SHRINK) for i in range(len(BUCKETS))]
        absatz = [(a_sum[i] + SHRINK * a_mean) / (n[i] + SHRINK) for i in range(len(BUCKETS))]
        tables[source] = Table(para=_monotone(para), absatz=_monotone(absatz), n=n)
    return Calibration(tables=tables, cases=len(cases))


def expected(candidates: Sequence[Candidate], calibration: Calibration) -> list[Estimate]:
    """Each candidate's expected counts: the best estimate any candidate of its § (and of its
    Absatz scope) gets, so the strongest evidence for a scope counts wherever it came from."""
    best_para: dict[tuple, tuple[float, str]] = {}
    best_abs: dict[tuple, tuple[float, str]] = {}
    for c in candidates:
        e = calibration.estimate(c.source, c.rank)
        where = f"{c.source} {c.rank}"
        pk, ak = para_scope(c.id), absatz_scope(c.id)
        if pk not in best_para or e.para > best_para[pk][0]:
            best_para[pk] = (e.para, where)
        if ak not in best_abs or e.absatz > best_abs[ak][0]:
            best_abs[ak] = (e.absatz, where)
    out = []
    for c in candidates:
        (p, p_from), (a, a_from) = best_para[para_scope(c.id)], best_abs[absatz_scope(c.id)]
        out.append(Estimate(p, a, p_from, a_from))
    return out


WHAT = "context-gain"
FIX = "python benchmarks/context_packs.py --save-calibration"


def default_path() -> Path:
    return shipped_path(FILE)


def read(path: str | Path | None = None) -> dict:
    """The shipped file's entries (task -> {calibration, command, date}); {} where there is none."""
    return read_entries(path, FILE, WHAT, FIX)


def shipped(task: str, path: str | Path | None = None) -> Calibration:
    """The calibration of ``task`` from the shipped file, or an empty one (the rank prior)."""
    entry = read(path).get(task) or {}
    return Calibration.model_validate(entry.get("calibration") or {})


def save(path: str | Path, task: str, calibration: Calibration, command: str,
         extra: Mapping[str, object] | None = None) -> Path:
    """Write (or replace) ``task``'s entry, keeping the other tasks'."""
    return write_entry(path, task, {"calibration": calibration.model_dump(), "command": command,
                                    **dict(extra or {})}, FILE, WHAT, FIX, indent=1)
