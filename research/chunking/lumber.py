"""Lumber-style chunking without an LLM: grow a group to a token budget, cut where the topic
shifts most (pure).

LumberChunker (Duarte et al. 2024) gives an LLM the units that fit a budget and asks where the
content changes. The offline stand-in: the cut goes before the unit whose similarity to its
predecessor is lowest. The candidate positions are 1..n, where position n (the first unit after
the group) means "keep the whole group", so a group whose biggest drop is at its end stays whole.
A configured LLM can replace the choice (``boundary_fn``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np


def lumber_boundary(sims: Sequence[float]) -> int:
    """How many units the chunk takes: ``sims[j]`` is the similarity between unit j and j+1 of the
    group (the last value links the group's last unit to the next unit after the group, or is
    ``-inf`` at the end of the text). Returns ``argmin + 1`` (first minimum on ties), at least 1."""
    if len(sims) == 0:
        raise ValueError("a group needs at least one unit")
    return int(np.argmin(np.asarray(sims, dtype=np.float64))) + 1


def lumber_groups(n_tokens: Sequence[int], vectors: np.ndarray, budget: int,
                  boundary_fn: Callable[[int, int], int] | None = None) -> list[tuple[int, int]]:
    """Chunks as (start, end) unit ranges over a stream of units in document order.

    ``n_tokens`` per unit, ``vectors`` unit-normalised rows. From the current start, units join
    while the sum stays within ``budget`` (a single over-long unit forms its own group); then the
    boundary is chosen by similarity (or ``boundary_fn(start, end) -> units to take``).
    """
    n = len(n_tokens)
    neighbour = np.full(n, -np.inf)
    if n > 1:
        neighbour[:-1] = np.einsum("ij,ij->i", vectors[:-1], vectors[1:])
    out: list[tuple[int, int]] = []
    start = 0
    while start < n:
        end, total = start, 0
        while end < n and (end == start or total + n_tokens[end] <= budget):
            total += n_tokens[end]
            end += 1
        take = boundary_fn(start, end) if boundary_fn else lumber_boundary(neighbour[start:end])
        take = max(1, min(take, end - start))
        out.append((start, start + take))
        start += take
    return out
