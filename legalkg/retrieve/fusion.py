"""Fusion mode: reciprocal rank fusion (``legalkg.fusion.rrf``) of the vector and full-text rankings.

Ranks, not scores: cosine similarity and BM25 are on incomparable scales. Each ranking is fetched
``overfetch(k)`` deep, so agreement between them below the top k can still lift a unit into it.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from ..fusion import overfetch, rrf
from ..vocab import Expansion, Mode, RetrievalLevel, Task
from .base import Engine, Texts, Vectors
from .fulltext import FulltextStrategy
from .hits import Hit
from .vector import VectorStrategy


def fuse_hits(runs: dict[str, list[Hit]], k: int) -> list[Hit]:
    """The top ``k`` of ``legalkg.fusion.rrf`` over the runs' rankings, as fusion hits: each keeps
    its fields from the first run that has it, and every run's raw score in ``components``."""
    first: dict[str, Hit] = {}
    components: dict[str, dict[str, float]] = defaultdict(dict)
    for name, hits in runs.items():
        for h in hits:
            first.setdefault(h.id, h)
            components[h.id][name] = h.score or 0.0
    fused = rrf(([h.id for h in hits] for hits in runs.values()), k)
    return [first[uid].model_copy(update={"score": score, "rank": rank, "via": Mode.FUSION,
                                          "components": components[uid]})
            for rank, (uid, score) in enumerate(fused, 1)]


class FusionStrategy:
    uses_predictor = False

    def __init__(self, engine: Engine) -> None:
        self.vector = VectorStrategy(engine)
        self.fulltext = FulltextStrategy(engine)

    def seeds(self, texts: Texts, level: RetrievalLevel, k: int, law: str | None = None,
              vectors: Vectors | None = None, task: Task | None = None) -> dict[str, list[Hit]]:
        pool = overfetch(k)
        vec = self.vector.seeds(texts, level, pool, law, vectors)
        ft = self.fulltext.seeds(texts, level, pool, law)
        return {q: fuse_hits({Mode.VECTOR.value: vec.get(q, []), Mode.FULLTEXT.value: ft.get(q, [])}, k)
                for q in texts}

    def seeds_with_hops(self, text: str, level: RetrievalLevel, k: int, law: str | None,
                        vector: np.ndarray | None, how: Expansion) -> None:
        """Two look-ups fused: no single statement returns them with their hops."""
        return None
