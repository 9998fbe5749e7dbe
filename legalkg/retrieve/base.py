"""The strategy contract: how one retrieval mode finds the seeds of many queries at one level.

Why batch-first: the evaluation asks thousands of queries per level, the search one. With one
``seeds`` for both, a single search is a batch of one, and what ``legalkg eval`` measures is the
code ``legalkg search`` runs. Each mode is one class in one file (``vector.py``, ``fulltext.py``,
``fusion.py``, ``learned.py``) and one line of ``engine.STRATEGIES``; a strategy reads the graph
only through the ``Retriever`` it is built with (its caches and readiness checks).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

import numpy as np

from ..vocab import RetrievalLevel, Task
from .hits import Hit

if TYPE_CHECKING:
    from .engine import Retriever

#: query id -> query text (cleaned by ``request.clean_query``)
Texts = Mapping[str, str]
#: query id -> query vector of the level's model (missing ones are embedded on demand)
Vectors = Mapping[str, np.ndarray]


class Strategy(Protocol):
    """One retrieval mode. Built once per ``Retriever`` as ``Strategy(retriever)``."""

    def __init__(self, engine: Retriever) -> None: ...

    def seeds(self, texts: Texts, level: RetrievalLevel, k: int, law: str | None = None,
              vectors: Vectors | None = None, task: Task | None = None) -> dict[str, list[Hit]]:
        """query id -> its top-``k`` hits at ``level`` (an indexed level), best first, ranked from 1.

        ``law`` keeps one law's units; ``vectors`` are precomputed query vectors; ``task`` names the
        kind of query where a strategy cares (the learned mode's predictor), None: by its length.
        """
        ...
