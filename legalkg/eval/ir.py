"""Standard IR metrics beside ToER: Recall@k and nDCG@k over § relevance.

Why § relevance: the IR metrics need a binary relevance per ranked item that is comparable across
chunking levels. A retrieved unit is relevant when its (law, §) equals a gold (law, §); several
units of the same § collapse to that § at the rank of its first unit (so a § is not rewarded twice
for being split into Sätze). Queries whose gold holds no § are left out (reported as n_queries).

Backends: ``numpy`` (default, this module) and ``ranx``. ranx is the reference implementation
but costs 5-12 s to import and its numba kernels compile on first use (measured ~100 s cold,
~10 s with numba's cache) and it is only a dev dependency, so the runtime default is numpy; a
test checks both give the same numbers. Definitions (as ranx, binary relevance)::

    Recall@k = |relevant in top k| / |relevant|
    DCG@k    = sum_{i=1..k} rel_i / log2(i + 1)        nDCG@k = DCG@k / IDCG@k
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from ..model import Citation, decode_id


def para_key(citation: Citation) -> str | None:
    """'BGB/§433' for any citation inside § 433 BGB; None above the §."""
    return f"{citation.law}/{citation.para}" if citation.para else None


def qrels_from_gold(gold: Mapping[str, Iterable[Citation]]) -> dict[str, dict[str, int]]:
    """case id -> {§ key: 1}; cases without any § in their gold are dropped."""
    out: dict[str, dict[str, int]] = {}
    for case_id, cits in gold.items():
        rel = {k: 1 for k in (para_key(c) for c in cits) if k}
        if rel:
            out[case_id] = rel
    return out


def run_from_hits(hits: Mapping[str, Sequence[str]]) -> dict[str, dict[str, float]]:
    """case id -> {§ key: score} from ranked unit ids (best first); a § keeps its first rank."""
    out: dict[str, dict[str, float]] = {}
    for case_id, ids in hits.items():
        ranked: dict[str, None] = {}
        for uid in ids:
            key = para_key(decode_id(uid))
            if key:
                ranked.setdefault(key, None)
        n = len(ranked)
        out[case_id] = {key: float(n - i) for i, key in enumerate(ranked)}
    return out


def _ranked(run_q: Mapping[str, float]) -> list[str]:
    return [doc for doc, _ in sorted(run_q.items(), key=lambda kv: (-kv[1], kv[0]))]


def per_query(qrels: Mapping[str, Mapping[str, int]], run: Mapping[str, Mapping[str, float]],
              k: int) -> dict[str, np.ndarray]:
    """Recall@k, hit@k (some gold § in the top k) and nDCG@k per query of ``qrels`` (sorted ids),
    numpy backend."""
    if k < 1:
        raise ValueError("k must be >= 1")
    discounts = 1.0 / np.log2(np.arange(2, k + 2))
    ids = sorted(qrels)
    recall = np.zeros(len(ids))
    ndcg = np.zeros(len(ids))
    for j, q in enumerate(ids):
        rel = {d for d, r in qrels[q].items() if r > 0}
        top = _ranked(run.get(q, {}))[:k]
        gains = np.array([1.0 if d in rel else 0.0 for d in top])
        recall[j] = gains.sum() / len(rel)
        dcg = float(gains @ discounts[: len(gains)])
        idcg = float(discounts[: min(len(rel), k)].sum())
        ndcg[j] = dcg / idcg
    return {"query_ids": np.array(ids, dtype=object), f"recall@{k}": recall, f"hit@{k}": (recall > 0).astype(float),
            f"ndcg@{k}": ndcg}


def evaluate(qrels: Mapping[str, Mapping[str, int]], run: Mapping[str, Mapping[str, float]], k: int,
             backend: str = "numpy") -> dict[str, float]:
    """Mean Recall@k, hit@k and nDCG@k over the queries of ``qrels``; ``backend``: 'numpy' or 'ranx'."""
    if not qrels:
        raise ValueError("no query has a gold § to score")
    if backend == "numpy":
        pq = per_query(qrels, run, k)
        return {f"recall@{k}": float(pq[f"recall@{k}"].mean()), f"hit@{k}": float(pq[f"hit@{k}"].mean()),
                f"ndcg@{k}": float(pq[f"ndcg@{k}"].mean()), "n_queries": len(qrels)}
    if backend == "ranx":
        return _evaluate_ranx(qrels, run, k)
    raise ValueError(f"unknown backend {backend!r}: use 'numpy' or 'ranx'")


def _evaluate_ranx(qrels: Mapping[str, Mapping[str, int]], run: Mapping[str, Mapping[str, float]],
                   k: int) -> dict[str, float]:
    from ranx import Qrels, Run, evaluate as ranx_evaluate

    # ranx needs every query in the run; an empty ranking scores 0 as in the numpy backend.
    full_run = {q: dict(run.get(q) or {"__none__": 0.0}) for q in qrels}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = ranx_evaluate(Qrels.from_dict({q: dict(v) for q, v in qrels.items()}),
                            Run.from_dict(full_run), [f"recall@{k}", f"hit_rate@{k}", f"ndcg@{k}"])
    return {f"recall@{k}": float(res[f"recall@{k}"]), f"hit@{k}": float(res[f"hit_rate@{k}"]),
            f"ndcg@{k}": float(res[f"ndcg@{k}"]), "n_queries": len(qrels)}
