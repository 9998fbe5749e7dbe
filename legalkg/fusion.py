"""Reciprocal rank fusion and the over-fetch rule: the one copy every room uses (pure).

Reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009) scores an item by its ranks alone::

    score(d) = sum over the rankings r that contain d of  1 / (RRF_K + rank_r(d))

with ranks counted from 1. Ranks, not scores, because the rankings fused here (cosine similarity,
Lucene BM25, per-window lists) have scores on incomparable scales. ``RRF_K = 60`` is the constant
of that paper: it damps the head, so one list's first place cannot outweigh agreement between lists.

Why one module at the top of the package: search (its fusion and learned modes), the evaluation
grid, the chunking study and the statute predictor's component fusion all fuse rankings, and one
formula in one file keeps their numbers comparable; no one of those rooms owns it. ``rrf`` /
``rrf_scores`` are the form over keys, ``weighted_rrf`` the same sum with a weight per ranking and
each ranking's share kept (the learned mode fuses runs of unequal strength and explains its hits by
those shares).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from typing import TypeVar

from .errors import UserError

#: The RRF constant k of the formula above.
RRF_K = 60
#: Candidates fetched per index look-up never fall below this (see :func:`overfetch`).
MIN_FETCH = 50

K = TypeVar("K", bound=Hashable)


def overfetch(k: int) -> int:
    """How many candidates to ask an index for when ``k`` are wanted: ``max(4k, 50)``.

    HNSW is approximate and its search widens with the requested size, so asking for more than k
    improves the top k; the optional law filter also runs after the index; and fusion needs pools
    deeper than k from each ranking for agreement between them to show.
    """
    return max(4 * k, MIN_FETCH)


def reciprocal_rank(rank: int, rrf_k: int = RRF_K) -> float:
    """One term of the sum: ``1 / (rrf_k + rank)``, rank counted from 1."""
    return 1.0 / (rrf_k + rank)


def rrf_scores(rankings: Iterable[Iterable[K]], rrf_k: int = RRF_K) -> dict[K, float]:
    """Key -> fused score, in first-seen order (rankings in the order given, each best first).

    A key listed twice in one ranking counts at each of its ranks.
    """
    scores: dict[K, float] = {}
    for ranking in rankings:
        for rank, key in enumerate(ranking, 1):
            scores[key] = scores.get(key, 0.0) + reciprocal_rank(rank, rrf_k)
    return scores


def rrf(rankings: Iterable[Iterable[K]], k: int | None = None, rrf_k: int = RRF_K) -> list[tuple[K, float]]:
    """The fused ranking: (key, score), best first, ties broken by the key itself, top ``k``
    (all with ``k=None``). Keys must be orderable (ids are strings)."""
    fused = sorted(rrf_scores(rankings, rrf_k).items(), key=lambda kv: (-kv[1], kv[0]))
    return fused if k is None else fused[:k]


def weighted_rrf(rankings: Mapping[str, Iterable[K]], weights: Mapping[str, float], k: int | None = None,
                 rrf_k: float = RRF_K) -> list[tuple[K, float, dict[str, float]]]:
    """Weighted RRF: ``score(d) = sum_r weights[r] / (rrf_k + rank_r(d))`` over the named rankings.

    Returns (key, score, {ranking name: its share of the score}), best first, ties broken by the
    key, top ``k``. A ranking whose weight is 0 or missing is left out, so one switch turns a
    component off; with every weight 1 the keys and scores are those of :func:`rrf`.
    """
    shares: dict[K, dict[str, float]] = {}
    for name, ranking in rankings.items():
        weight = float(weights.get(name, 0.0))
        if weight <= 0:
            continue
        for rank, key in enumerate(ranking, 1):
            part = shares.setdefault(key, {})
            part[name] = part.get(name, 0.0) + weight * reciprocal_rank(rank, rrf_k)
    fused = sorted(((key, sum(p.values()), p) for key, p in shares.items()), key=lambda t: (-t[1], t[0]))
    return fused if k is None else fused[:k]



def parse_weight_spec(spec: str | None, base: Mapping[str, float], names: Iterable[str], what: str,
                      example: str, flag: str) -> dict[str, float]:
    """``base`` with the entries named in ``spec`` ("knn=0,pop=0.3") set to the values given; one line
    for an unknown name, a bad number or every weight at 0.

    Why one parser: the run weights of the learned mode (``--weights``) and the predictor's component
    weights (``--predictor-weights``) are both weights of a weighted RRF, written the same way, and
    their errors should read alike. ``what`` names the entries in messages ("run", "predictor
    component")."""
    known = list(names)
    token = what.split()[-1].upper()  # RUN, COMPONENT: the placeholder of the message
    weights = dict(base)
    for item in (spec or "").split(","):
        if not item.strip():
            continue
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep or name not in known:
            raise UserError(f"bad {what} weight {item.strip()!r}: write {token}=WEIGHT, comma-separated, "
                            f"{token} one of "
                            f"{', '.join(known)} (e.g. {example})")
        try:
            weight = float(value)
        except ValueError:
            weight = -1.0
        if not weight >= 0 or weight == float("inf"):
            raise UserError(f"bad {what} weight {item.strip()!r}: the weight must be a number >= 0 "
                            f"(0 switches it off)")
        weights[name] = weight
    if not any(w > 0 for w in weights.values()):
        raise UserError(f"every {what}'s weight is 0: keep at least one above 0 (see {flag})")
    return weights
