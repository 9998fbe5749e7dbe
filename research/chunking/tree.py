"""Semantic clustering and RAPTOR trees over unit vectors (pure: numpy + scikit-learn, seeded).

Why KMeans with a fixed seed and ``n_init=1``: the study compares strategies, so the clustering
must be reproducible, and one initialisation (not scikit-learn's several) keeps a rebuild of every
cluster and RAPTOR strategy affordable on 2 cores (build times: docs/benchmarks/chunking.md). A
cluster's vector is the mean of its members, renormalised to unit length, and it
covers all its members' §§.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from sklearn.cluster import KMeans


def _unit_rows(x: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    return (x / np.where(norms == 0, 1.0, norms)).astype(np.float32)


def kmeans_labels(vectors: np.ndarray, n_clusters: int, seed: int = 0) -> np.ndarray:
    """Cluster label per row (KMeans, seeded; ``n_clusters`` is capped at the number of rows)."""
    k = max(1, min(int(n_clusters), len(vectors)))
    if k == 1:
        return np.zeros(len(vectors), dtype=np.int64)
    return KMeans(n_clusters=k, n_init=1, max_iter=100, random_state=seed).fit_predict(vectors)


def pool(vectors: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, list[list[int]]]:
    """(pooled unit vectors, member indices) per non-empty cluster, in label order."""
    members = [np.flatnonzero(labels == c).tolist() for c in np.unique(labels)]
    pooled = np.stack([vectors[m].mean(axis=0) for m in members])
    return _unit_rows(pooled), members


def covered_sections(members: Sequence[int], sections: Sequence[str]) -> tuple[str, ...]:
    """The distinct §§ of the member units, in first-seen order."""
    return tuple(dict.fromkeys(sections[i] for i in members))


class TreeNode(NamedTuple):
    """One RAPTOR node: ``level`` 0 = leaf; ``leaves`` = indices of the base units below it."""

    level: int
    children: tuple[int, ...]  # node indices one level down (empty for leaves)
    leaves: tuple[int, ...]


def raptor_tree(vectors: np.ndarray, branching: int = 10, top: int | None = None,
                seed: int = 0) -> tuple[list[TreeNode], np.ndarray]:
    """Bottom-up tree: cluster each level into ``n // branching`` groups until ``top`` nodes remain.

    Returns (nodes, node vectors); the first ``len(vectors)`` nodes are the leaves. A summary
    node's vector here is its pooled children; the study replaces it with the embedding of the
    node's summary text. ``top`` defaults to ``branching``.
    """
    top = branching if top is None else top
    nodes = [TreeNode(0, (), (i,)) for i in range(len(vectors))]
    node_vecs = [v for v in _unit_rows(np.asarray(vectors, dtype=np.float32))]
    level_ids = list(range(len(vectors)))
    level = 0
    while len(level_ids) > top:
        level += 1
        x = np.stack([node_vecs[i] for i in level_ids])
        labels = kmeans_labels(x, max(1, len(level_ids) // branching), seed=seed + level)
        pooled, members = pool(x, labels)
        new_ids = []
        for vec, group in zip(pooled, members):
            kids = tuple(level_ids[g] for g in group)
            leaves = tuple(sorted({leaf for k in kids for leaf in nodes[k].leaves}))
            nodes.append(TreeNode(level, kids, leaves))
            node_vecs.append(vec)
            new_ids.append(len(nodes) - 1)
        if len(new_ids) == len(level_ids):  # no progress (all singletons): stop
            break
        level_ids = new_ids
    return nodes, np.stack(node_vecs)


def extractive_summary(leaf_vectors: np.ndarray, leaf_texts: Sequence[str], leaves: Sequence[int],
                       n: int = 3) -> str:
    """The ``n`` member texts closest to the members' centroid, in document order (no LLM)."""
    idx = np.asarray(leaves)
    centroid = leaf_vectors[idx].mean(axis=0)
    best = idx[np.argsort(-(leaf_vectors[idx] @ centroid), kind="stable")[:n]]
    return " ".join(leaf_texts[i] for i in sorted(best.tolist()))
