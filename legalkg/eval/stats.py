"""Uncertainty and significance for per-case scores: bootstrap CIs, paired tests, Holm, Friedman.

Why resample *cases*: the cases are the random sample (gold citations within a case are not
independent), so every resampling draws whole cases and recomputes the statistic. For micro
recall the statistic is a ratio of sums (total hits / total gold), so numerator and denominator
are resampled together. Everything is vectorised numpy with a fixed seed: the same inputs and seed
give the same interval on every machine. Work is done in blocks of resamples so memory stays at
about ``block * n_cases`` numbers even for 12,000 cases.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

import numpy as np

DEFAULT_RESAMPLES = 1000
DEFAULT_SEED = 0
_BLOCK = 100


class Interval(NamedTuple):
    point: np.ndarray | float
    low: np.ndarray | float
    high: np.ndarray | float


def _as_2d(values: np.ndarray) -> tuple[np.ndarray, bool]:
    arr = np.asarray(values, dtype=np.float64)
    if arr.ndim == 1:
        return arr[:, None], True
    if arr.ndim != 2:
        raise ValueError("values must be 1-d (cases) or 2-d (cases x columns)")
    return arr, False


def _unwrap(x: np.ndarray, squeeze: bool) -> np.ndarray | float:
    return float(x[0]) if squeeze else x


def _resample_weights(n: int, n_resamples: int, rng: np.random.Generator):
    """Yield blocks of bootstrap case counts (how often each case is drawn), shape (b, n)."""
    pvals = np.full(n, 1.0 / n)
    done = 0
    while done < n_resamples:
        b = min(_BLOCK, n_resamples - done)
        yield rng.multinomial(n, pvals, size=b).astype(np.float64)
        done += b


#: Largest resample matrix (resamples x cases) kept in memory for reuse (~96 MB of float64).
_CACHE_LIMIT = 12_100_000


@lru_cache(maxsize=8)  # a run over all cases and up to 7 courts (ler_courts: 6)
def _weight_matrix(n: int, n_resamples: int, seed: int) -> np.ndarray:
    """All bootstrap case counts for (n, n_resamples, seed), read-only.

    Why cache: a grid evaluates dozens of configurations on the *same* cases with the same seed, so
    every cell would draw the identical multinomial counts again (the slow part: ~0.7 s per call at
    2,000 cases). The blocks are drawn in the same order as without the cache, so intervals do
    not change.
    """
    rng = np.random.default_rng(seed)
    w = np.concatenate(list(_resample_weights(n, n_resamples, rng)))
    w.setflags(write=False)
    return w


def _weight_blocks(n: int, n_resamples: int, seed: int):
    if n * n_resamples <= _CACHE_LIMIT:
        w = _weight_matrix(n, n_resamples, seed)
        for start in range(0, n_resamples, _BLOCK):
            yield w[start:start + _BLOCK]
    else:
        yield from _resample_weights(n, n_resamples, np.random.default_rng(seed))


def bootstrap_ci(numerators: np.ndarray, denominators: np.ndarray | None = None, *,
                 n_resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
                 confidence: float = 0.95) -> Interval:
    """Percentile bootstrap CI of a ratio of sums (micro) or of a mean (macro) over cases.

    ``numerators``: (n_cases,) or (n_cases, n_columns), e.g. hits per depth. With
    ``denominators`` (n_cases,), or one per case and column (n_cases, n_columns) when each column
    counts its own gold (``metric.GOLD_COUNTS``), the statistic is ``sum(num) / sum(den)`` (micro
    recall); without, it is ``mean(num)`` (macro recall: pass per-case recalls). Returns
    (point, low, high), arrays per column or floats for 1-d input.
    """
    num, squeeze = _as_2d(numerators)
    n = num.shape[0]
    if n == 0:
        raise ValueError("no cases to bootstrap")
    den = None if denominators is None else np.asarray(denominators, dtype=np.float64)
    if den is not None and den.shape not in ((n,), num.shape):
        raise ValueError("denominators must have one value per case (or per case and column)")

    def stat(weights: np.ndarray) -> np.ndarray:  # weights (b, n) -> (b, cols)
        s = weights @ num
        if den is None:
            return s / n
        d = weights @ den
        with np.errstate(invalid="ignore", divide="ignore"):
            return s / (d[:, None] if d.ndim == 1 else d)

    point = stat(np.ones((1, n)))[0]
    boots = np.concatenate([stat(w) for w in _weight_blocks(n, n_resamples, seed)])
    alpha = (1.0 - confidence) / 2.0
    with warnings.catch_warnings():  # a column without gold (NaN in every resample) stays NaN
        warnings.simplefilter("ignore", RuntimeWarning)
        low, high = np.nanquantile(boots, [alpha, 1.0 - alpha], axis=0)
    return Interval(_unwrap(point, squeeze), _unwrap(low, squeeze), _unwrap(high, squeeze))


class PairedResult(NamedTuple):
    """Difference A - B of the statistic, its bootstrap CI and the two-sided p-value."""

    diff: np.ndarray | float
    ci_low: np.ndarray | float
    ci_high: np.ndarray | float
    p_value: np.ndarray | float


def paired_test(a: np.ndarray, b: np.ndarray, denominators: np.ndarray | None = None, *,
                n_resamples: int = 10_000, seed: int = DEFAULT_SEED,
                confidence: float = 0.95) -> PairedResult:
    """Two configurations on the same cases: paired permutation (sign-flip) test + paired bootstrap CI.

    ``a``, ``b``: per-case numerators, (n_cases,) or (n_cases, n_columns) (e.g. hits per depth of
    two retrievers). The statistic is ``sum(a - b) / sum(denominators)`` (difference in micro
    recall; ``denominators`` (n_cases,) or (n_cases, n_columns)) or ``mean(a - b)`` without
    denominators. Under H0 (no difference) the two
    configurations are exchangeable within each case, so each case's difference flips sign with
    probability 1/2; p = (1 + #{|T*| >= |T|}) / (1 + n_resamples). Identical inputs give p = 1.
    A column whose denominators sum to zero gets NaN.
    """
    da, squeeze = _as_2d(a)
    db, _ = _as_2d(b)
    if da.shape != db.shape:
        raise ValueError("a and b must score the same cases (same shape)")
    d = da - db
    n = d.shape[0]
    if n == 0:
        raise ValueError("no cases to compare")
    if denominators is None:
        scale = np.full(d.shape[1], float(n))
    else:
        den = np.asarray(denominators, dtype=np.float64)
        scale = np.broadcast_to(den.sum(axis=0), (d.shape[1],)).astype(np.float64)
    if not (scale > 0).any():
        raise ValueError("denominators sum to zero")
    empty = scale <= 0
    scale = np.where(empty, 1.0, scale)
    observed = d.sum(axis=0) / scale
    rng = np.random.default_rng(seed)
    extreme = np.zeros(d.shape[1])
    done = 0
    tol = 1e-12 * np.maximum(1.0, np.abs(d).sum() / scale)
    while done < n_resamples:
        blk = min(_BLOCK, n_resamples - done)
        signs = rng.choice(np.array([-1.0, 1.0]), size=(blk, n))
        perm = signs @ d / scale
        extreme += (np.abs(perm) >= np.abs(observed) - tol).sum(axis=0)
        done += blk
    p = (1.0 + extreme) / (1.0 + n_resamples)
    observed, p = np.where(empty, np.nan, observed), np.where(empty, np.nan, p)
    ci = bootstrap_ci(d, denominators, n_resamples=min(n_resamples, 2000), seed=seed,
                      confidence=confidence)
    low, high = np.atleast_1d(ci.low), np.atleast_1d(ci.high)
    return PairedResult(_unwrap(observed, squeeze), _unwrap(low, squeeze), _unwrap(high, squeeze),
                        _unwrap(p, squeeze))


def holm(p_values: Sequence[float] | np.ndarray) -> np.ndarray:
    """Holm-Bonferroni adjusted p-values (same order as given; monotone; capped at 1)."""
    p = np.asarray(p_values, dtype=np.float64)
    m = p.size
    order = np.argsort(p, kind="stable")
    adjusted_sorted = np.maximum.accumulate((m - np.arange(m)) * p[order])
    out = np.empty(m)
    out[order] = np.minimum(adjusted_sorted, 1.0)
    return out


class FriedmanResult(NamedTuple):
    statistic: float
    p_value: float
    n_cases: int
    n_configs: int


def friedman(scores: np.ndarray) -> FriedmanResult:
    """Friedman omnibus test over configurations: ``scores`` has shape (n_cases, n_configs >= 3).

    Use it before pairwise tests when comparing several chunking levels on the same cases; a thin
    wrapper over ``scipy.stats.friedmanchisquare`` that checks the shape.
    """
    from scipy.stats import friedmanchisquare

    arr = np.asarray(scores, dtype=np.float64)
    if arr.ndim != 2 or arr.shape[1] < 3:
        raise ValueError("Friedman needs a (cases x configurations) matrix with at least 3 configurations")
    if arr.shape[0] < 2:
        raise ValueError("Friedman needs at least 2 cases")
    res = friedmanchisquare(*arr.T)
    return FriedmanResult(float(res.statistic), float(res.pvalue), arr.shape[0], arr.shape[1])
