"""Vector mode: the nearest units to the query vector in the level's index.

The query vector comes from the model recorded for the level's index (``QueryEmbedder.for_level``),
so a search can never compare vectors of two models. The index is approximate (HNSW) and widens its
search with the fetch size, so it is asked for ``legalkg.fusion.overfetch(k)`` candidates; inside
one law the search is exact instead (``cypher/retrieve/vector_law``): the index returns the best of
the whole graph, and a filter after it can miss every unit of a small law.
"""

from __future__ import annotations

import numpy as np

from ..fusion import overfetch
from ..graph.cypher import labelled, query
from ..vocab import Expansion, Mode, RetrievalLevel, Task
from . import expand
from .base import Engine, Texts, Vectors
from .hits import Hit


def floats(vector) -> list[float]:
    """A query vector as the list of Python floats the driver sends (``tolist`` is one C call)."""
    return vector.tolist() if isinstance(vector, np.ndarray) else [float(x) for x in vector]


class VectorStrategy:
    uses_predictor = False

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def seeds(self, texts: Texts, level: RetrievalLevel, k: int, law: str | None = None,
              vectors: Vectors | None = None, task: Task | None = None) -> dict[str, list[Hit]]:
        vecs = self.engine.queries.for_level(texts, level, vectors)
        items = [{"qid": q, "vector": floats(vecs[q])} for q in texts]
        if law is not None:
            return self.engine.graph.read_batched(labelled("retrieve/vector_law", label=level),
                                                  {"law": law, "k": k}, items, Mode.VECTOR)
        return self.engine.graph.read_batched(query("retrieve/vector"),
                                              {"index": f"vector_{level}", "fetch": overfetch(k), "k": k}, items,
                                              Mode.VECTOR)

    def seeds_with_hops(self, text: str, level: RetrievalLevel, k: int, law: str | None,
                        vector: np.ndarray | None, how: Expansion) -> tuple[list[Hit], list[Hit]] | None:
        """The seeds and their parent / citation hops in one statement, where the search is one index
        look-up: no law (inside a law it is exact, ``vector_law``) and no hop from cases."""
        if law is not None or how.from_cases:
            return None
        vec = self.engine.queries.for_level({"q": text}, level, None if vector is None else {"q": vector})["q"]
        params = {**expand.trip_params(k, how), "index": f"vector_{level}", "vector": floats(vec)}
        return expand.one_trip(self.engine, "retrieve/vector_expand", params, Mode.VECTOR, how)
