"""Candidates and per-candidate features for one question (pure given ``Resources`` and vectors).

Every component can be switched off (``Components``); its features are then 0 and it adds no
candidates, so the same learned model shape serves every ablation row. Scores are normalised
per question (BM25 divided by the question's best score, ranks as log1p) so a linear model can
compare questions of different length.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from pydantic import BaseModel
from threadpoolctl import ThreadpoolController

from ..fusion import RRF_K, add_reciprocal_ranks
from .citations import cited_paragraphs
from .graph import hop_candidates
from .resources import Resources
from .text import split_question, tokenize

#: Feature names, in column order; rank_model.json stores its weights in this order.
FEATURES: tuple[str, ...] = (
    "bm25", "bm25_rank", "dense", "dense_rel", "dense_rank",
    "win_bm25_max", "win_dense_max", "win_rrf",
    "abs_bm25_max", "abs_dense_max",
    "cited", "hop", "in_degree", "pagerank", "caselaw", "popularity", "log_words",
)
#: Which features each component owns (switching a component off zeroes them).
COMPONENT_FEATURES: dict[str, tuple[str, ...]] = {
    "bm25": ("bm25", "bm25_rank"),
    "dense": ("dense", "dense_rel", "dense_rank"),
    "windows": ("win_bm25_max", "win_dense_max", "win_rrf"),
    "absatz": ("abs_bm25_max", "abs_dense_max"),
    "citations": ("cited",),
    "graph_prior": ("in_degree", "pagerank"),
    "hops": ("hop",),
    "caselaw": ("caselaw",),
    "popularity": ("popularity",),
    "length": ("log_words",),
}
#: Candidate sources as bits, so an ablation can drop rows that only a switched-off part proposed.
SOURCE_BITS: dict[str, int] = {"bm25": 1, "dense": 2, "windows": 4, "abs_bm25": 8, "abs_dense": 16,
                               "citations": 32, "hops": 64}


def source_mask(comp: Components) -> int:
    """The source bits that ``comp`` has switched on."""
    on = {"bm25": comp.bm25, "dense": comp.dense, "windows": comp.windows,
          "abs_bm25": comp.absatz and comp.bm25, "abs_dense": comp.absatz and comp.dense,
          "citations": comp.citations, "hops": comp.hops}
    return sum(bit for name, bit in SOURCE_BITS.items() if on[name])


class Components(BaseModel):
    """Which retrieval components are on. The defaults are the shipped configuration."""

    bm25: bool = True
    dense: bool = True
    windows: bool = True
    absatz: bool = True
    citations: bool = True
    graph_prior: bool = True
    hops: bool = True
    caselaw: bool = True
    popularity: bool = True
    length: bool = True
    #: Candidates taken from each score list (BM25, dense, windows, Absatz).
    per_source: int = 100
    #: Top hits whose outgoing citations are followed, and how many of them must cite a §.
    hop_seeds: int = 20
    hop_min_sources: int = 2
    #: The most popular §§ (gold counts of the training questions) that join every candidate list.
    popular_candidates: int = 50

    def off(self, *names: str) -> Components:
        return self.model_copy(update={n: False for n in names})


@dataclass
class QueryVectors:
    """The question's own vector and one per window (None when dense retrieval is off)."""

    question: np.ndarray | None
    windows: np.ndarray | None


@dataclass
class Candidates:
    """Rows into ``Resources.para_ids`` and their feature matrix (len(rows) x len(FEATURES))."""

    rows: np.ndarray
    X: np.ndarray
    base: np.ndarray  # True where a retrieval component (not popularity) proposed the row
    sources: np.ndarray  # bit mask per row: which components proposed it (SOURCE_BITS)


def one_blas_thread():
    """Context that runs numpy's BLAS on one thread.

    Why: ranking does small matrix products (a few x 512 by 512 x 2,470); on a shared 2-core
    machine OpenBLAS threads spin-wait for each other, and one thread was many times faster
    (docs/retrieval-quality.md).
    """
    return _controller().limit(limits=1, user_api="blas")


@lru_cache(maxsize=1)
def _controller():
    """One threadpoolctl controller per process: building it scans the loaded libraries (slow),
    limiting through it afterwards only sets the thread count."""
    return ThreadpoolController()


def _log_rank(scores: np.ndarray) -> np.ndarray:
    order = np.argsort(-scores, kind="stable")
    ranks = np.empty(len(scores), dtype=np.float32)
    ranks[order] = np.arange(len(scores), dtype=np.float32)
    return np.log1p(ranks), order


def _top_k(scores: np.ndarray, k: int) -> np.ndarray:
    """Indices of the ``k`` best scores, best first (argpartition + a sort of k only)."""
    if k >= len(scores):
        return np.argsort(-scores, kind="stable")
    idx = np.argpartition(-scores, k)[:k]
    return idx[np.argsort(-scores[idx], kind="stable")]


def _bm25_norm(index, tokens: list[str], n: int) -> np.ndarray:
    if not tokens:
        return np.zeros(n, dtype=np.float32)
    s = np.asarray(index.get_scores(tokens), dtype=np.float32)
    top = float(s.max()) if len(s) else 0.0
    return s / top if top > 0 else s


def _abs_max(values: np.ndarray, abs_para: np.ndarray, n: int) -> np.ndarray:
    out = np.zeros(n, dtype=np.float32)
    np.maximum.at(out, abs_para, values.astype(np.float32))
    return out


def static_features(res: Resources) -> dict[str, np.ndarray]:
    """Question-independent feature columns (priors, length), computed once per ``Resources``."""
    cached = res.static_features
    if cached is None:
        g = res.graph
        cached = {
            "in_degree": np.array([g.log_in_degree(p) for p in res.para_ids], np.float32),
            "pagerank": np.array([g.scaled_pagerank(p) for p in res.para_ids], np.float32),
            "caselaw": np.array([math.log1p(res.caselaw.get(p, 0)) for p in res.para_ids],
                                np.float32),
            "log_words": np.log1p(res.para_words).astype(np.float32),
        }
        res.static_features = cached
    return cached


def popularity_score(count: float, total: float) -> float:
    """log1p of the per-mille share of gold labels: comparable between folds of other sizes."""
    return math.log1p(1000.0 * count / total) if total > 0 else 0.0


def build_features(question: str, res: Resources, vecs: QueryVectors, comp: Components,
                   popularity: dict[str, float] | None = None,
                   extra_rows: np.ndarray | None = None) -> Candidates:
    """Candidates for ``question`` with all features.

    ``popularity``: § id -> gold count (training questions only). ``extra_rows`` forces rows
    into the candidate list (training uses it to cover every fold's popular §§ in one pass).
    """
    n = len(res.para_ids)
    F = {name: np.zeros(n, dtype=np.float32) for name in FEATURES}
    sources = np.zeros(n, dtype=np.int64)
    k = comp.per_source
    fused = np.zeros(n, dtype=np.float32)  # RRF of the main lists: the seeds of the hop step

    def propose(scores: np.ndarray, source: str) -> None:
        idx = np.argpartition(-scores, min(k, n - 1))[:k]
        sources[idx] |= SOURCE_BITS[source]

    if comp.bm25:
        s = _bm25_norm(res.bm25_para, tokenize(question), n)
        F["bm25"] = s
        lr, order = _log_rank(s)
        F["bm25_rank"] = -lr
        add_reciprocal_ranks(fused, order[:k])
        propose(s, "bm25")
    use_dense = comp.dense and vecs.question is not None and res.para_vecs is not None
    win_cos = None
    if use_dense:
        # one matrix product for the question and all its windows (cheaper than one per vector)
        Q = vecs.question[None, :] if vecs.windows is None or not comp.windows \
            else np.vstack([vecs.question[None, :], vecs.windows])
        all_cos = Q @ res.para_vecs.T
        win_cos = all_cos[1:]
    if use_dense:
        cos = all_cos[0]
        F["dense"] = cos
        F["dense_rel"] = cos - cos.max()
        lr, order = _log_rank(cos)
        F["dense_rank"] = -lr
        add_reciprocal_ranks(fused, order[:k])
        propose(cos, "dense")
    if comp.windows:
        windows = split_question(question)
        wb = np.zeros(n, dtype=np.float32)
        wd = np.full(n, -1.0, dtype=np.float32) if win_cos is not None and len(win_cos) else None
        rrf = np.zeros(n, dtype=np.float32)
        for i, w in enumerate(windows):
            if comp.bm25:
                s = _bm25_norm(res.bm25_para, tokenize(w), n)
                np.maximum(wb, s, out=wb)
                add_reciprocal_ranks(rrf, _top_k(s, k))
            if wd is not None and i < len(win_cos):
                cos = win_cos[i]
                np.maximum(wd, cos, out=wd)
                add_reciprocal_ranks(rrf, _top_k(cos, k))
        F["win_bm25_max"] = wb
        if wd is not None:
            F["win_dense_max"] = wd
        F["win_rrf"] = rrf * RRF_K
        propose(rrf, "windows")
        fused += rrf / max(1, len(windows))
    if comp.absatz:
        if comp.bm25:
            s = _bm25_norm(res.bm25_abs, tokenize(question), len(res.abs_ids))
            F["abs_bm25_max"] = _abs_max(s, res.abs_para, n)
            propose(F["abs_bm25_max"], "abs_bm25")
        if use_dense:
            cos = res.abs_vecs @ vecs.question
            F["abs_dense_max"] = _abs_max(cos, res.abs_para, n)
            propose(F["abs_dense_max"], "abs_dense")
    if comp.citations:
        for pid, count in cited_paragraphs(question, "BGB", res.row).items():
            r = res.row[pid]
            F["cited"][r] = 1.0 + math.log(count)
            sources[r] |= SOURCE_BITS["citations"]
    if comp.hops and fused.any():
        seeds = [res.para_ids[i] for i in np.argsort(-fused, kind="stable")[: comp.hop_seeds]
                 if fused[i] > 0]
        for pid, count in hop_candidates(seeds, res.graph, comp.hop_min_sources).items():
            r = res.row.get(pid)
            if r is not None:
                F["hop"][r] = math.log1p(count)
                sources[r] |= SOURCE_BITS["hops"]
    static = static_features(res)
    for name, feats in (("graph_prior", ("in_degree", "pagerank")), ("caselaw", ("caselaw",)),
                        ("length", ("log_words",))):
        if getattr(comp, name):
            for f in feats:
                F[f] = static[f]
    proposed = sources != 0
    chosen = proposed.copy()
    if comp.popularity and popularity:
        total = float(sum(popularity.values()))
        pop = np.zeros(n, dtype=np.float32)
        for pid, c in popularity.items():
            r = res.row.get(pid)
            if r is not None:
                pop[r] = popularity_score(c, total)
        F["popularity"] = pop
        top = np.argsort(-pop, kind="stable")[: comp.popular_candidates]
        chosen[top[pop[top] > 0]] = True
    if extra_rows is not None:
        chosen[extra_rows] = True
    rows = np.flatnonzero(chosen)
    X = np.stack([F[name][rows] for name in FEATURES], axis=1)
    return Candidates(rows=rows, X=X, base=proposed[rows], sources=sources[rows])
