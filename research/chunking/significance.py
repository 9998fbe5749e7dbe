"""Each strategy against a reference strategy on the same questions, Holm-corrected (pure).

Why paired tests: every strategy answers the same questions, so the per-question differences carry
the comparison and the question-to-question spread (hard vs easy questions, long vs short query
plans) cancels out. Why Holm: one reference is compared with many strategies, so some raw p-values
fall under 0.05 by chance; Holm's step-down correction controls the family-wise error rate.

The same function serves Recall@k (per-question recall) and latency (per-question milliseconds):
the paper tests both against section retrieval with Holm-corrected paired permutation tests and
paired bootstrap 95 % intervals. ``method="wilcoxon"`` swaps the permutation test for the
Wilcoxon signed-rank test, which looks at ranks only and so is less moved by a few slow outliers
(latencies are right-skewed: garbage collection, a page-cache miss).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

import numpy as np
from scipy.stats import wilcoxon

from legalkg.eval import stats

METHODS: tuple[str, ...] = ("permutation", "wilcoxon")


class Comparison(NamedTuple):
    """``diff`` = mean(strategy - reference) over questions with its paired bootstrap CI; ``p`` raw,
    ``p_holm`` corrected over all strategies compared with the same reference."""

    diff: float
    ci_low: float
    ci_high: float
    p: float
    p_holm: float


def _wilcoxon_p(d: np.ndarray) -> float:
    """Two-sided signed-rank p; 1.0 when every difference is zero (nothing to rank)."""
    if not np.any(d != 0):
        return 1.0
    return float(wilcoxon(d, zero_method="wilcox", alternative="two-sided").pvalue)


def compare_to_reference(per_question: Mapping[str, Sequence[float]], reference: str, *,
                         method: str = "permutation", n_resamples: int = 10_000,
                         seed: int = stats.DEFAULT_SEED) -> dict[str, Comparison]:
    """Paired test of every other entry of ``per_question`` against ``reference``.

    ``per_question``: strategy name -> one value per question, all in the same question order.
    Returns one :class:`Comparison` per non-reference strategy (input order); empty if the
    reference is absent or there is nothing to compare.
    """
    if method not in METHODS:
        raise ValueError(f"unknown test {method!r}: choose one of {', '.join(METHODS)}")
    if reference not in per_question:
        return {}
    ref = np.asarray(per_question[reference], dtype=np.float64)
    raw: dict[str, tuple[float, float, float, float]] = {}
    for name, values in per_question.items():
        if name == reference:
            continue
        a = np.asarray(values, dtype=np.float64)
        if a.shape != ref.shape:
            raise ValueError(f"{name}: {a.size} values, but {reference} has {ref.size}: "
                             "compare strategies on the same questions")
        pt = stats.paired_test(a, ref, n_resamples=n_resamples, seed=seed)
        p = float(pt.p_value) if method == "permutation" else _wilcoxon_p(a - ref)
        raw[name] = (float(pt.diff), float(pt.ci_low), float(pt.ci_high), p)
    if not raw:
        return {}
    adjusted = stats.holm([v[3] for v in raw.values()])
    return {name: Comparison(*v, p_holm=float(h)) for (name, v), h in zip(raw.items(), adjusted)}
