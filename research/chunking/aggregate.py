"""Score propagation from retrieved units to the §§ they cover, and Recall@k (pure).

Why several rules: a unit that covers several §§ (a window, a cluster, a summary node) gives its
score to each of them. ``max`` (default, as in the paper) ranks a § by its best unit; ``sum``
rewards §§ hit by many units; ``rrf`` sums ``1 / (k + rank)`` so score scales do not matter.
Ties break by first appearance in the hit list, which keeps results deterministic.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from legalkg.fusion import RRF_K, reciprocal_rank, rrf_scores

AGGREGATIONS: tuple[str, ...] = ("max", "sum", "rrf")


def propagate(hits: Iterable[tuple[Sequence[str], float]], how: str = "max",
              rrf_k: int = RRF_K) -> dict[str, float]:
    """``hits``: (covered section ids, score) in rank order (best first) -> score per section."""
    if how not in AGGREGATIONS:
        raise ValueError(f"unknown aggregation {how!r}: choose one of {', '.join(AGGREGATIONS)}")
    scores: dict[str, float] = {}
    for rank, (sections, score) in enumerate(hits, 1):
        gain = reciprocal_rank(rank, rrf_k) if how == "rrf" else float(score)
        for sec in dict.fromkeys(sections):
            if sec not in scores:
                scores[sec] = gain
            elif how == "max":
                scores[sec] = max(scores[sec], gain)
            else:
                scores[sec] += gain
    return scores


def top_sections(scores: dict[str, float], k: int = 10) -> list[str]:
    """The ``k`` best sections (stable: equal scores keep first-seen order)."""
    order = {s: i for i, s in enumerate(scores)}
    return sorted(scores, key=lambda s: (-scores[s], order[s]))[:k]


def recall_at(retrieved: Sequence[str], gold: Iterable[str]) -> float:
    """Share of the gold sections found among ``retrieved`` (0.0 for empty gold)."""
    gold_set = set(gold)
    if not gold_set:
        return 0.0
    return len(gold_set & set(retrieved)) / len(gold_set)


def rrf_fuse(rankings: Sequence[Sequence[tuple[Sequence[str], float]]],
             rrf_k: int = RRF_K) -> list[tuple[tuple[str, ...], float]]:
    """Fuse unit rankings (e.g. vector and full-text) by reciprocal rank; units keyed by sections+
    position are not comparable across lists, so fusion runs on the section level: each ranking is
    first propagated with ``max`` and ranked, then the section ranks are fused."""
    fused = rrf_scores((top_sections(propagate(hits, "max"), k=10**9) for hits in rankings), rrf_k)
    return [((sec,), score) for sec, score in sorted(fused.items(), key=lambda kv: -kv[1])]
