"""The strategy contract: how one retrieval mode finds the seeds of many queries at one level.

Why batch-first: the evaluation asks thousands of queries per level, the search one. With one
``seeds`` for both, a single search is a batch of one, and what ``legalkg eval`` measures is the
code ``legalkg search`` runs. Each mode is one class in one file (``vector.py``, ``fulltext.py``,
``fusion.py``, ``learned.py``) and one line of ``engine.STRATEGIES``; a strategy reads the graph
only through the ``Retriever`` it is built with (its caches and readiness checks). A mode that
can fetch its seeds with their one-hop expansion in one statement says so in ``seeds_with_hops``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

import numpy as np

from ..vocab import Expansion, Mode, RetrievalLevel, Task
from .hits import Hit

#: query id -> query text (cleaned by ``request.clean_query``)
Texts = Mapping[str, str]
#: query id -> query vector of the level's model (missing ones are embedded on demand)
Vectors = Mapping[str, np.ndarray]


class GraphView(Protocol):
    """The graph's facts a strategy may read (``graphfacts.GraphFacts``), each read once."""

    def read(self, text: str, params: dict) -> list: ...
    def read_batched(self, text: str, base: dict, items: list[dict], via: Mode) -> dict[str, list[Hit]]: ...
    def readers(self) -> ThreadPoolExecutor: ...
    def check_ready(self) -> None: ...
    def check_level(self, label: RetrievalLevel) -> None: ...
    def index_model(self, label: RetrievalLevel) -> dict | None: ...
    def in_graph(self, ids: Sequence[str]) -> dict[str, bool]: ...
    def descendants(self, ids: list[str], label: RetrievalLevel) -> dict[str, list[str]]: ...


class ModelView(Protocol):
    """The models a strategy may use (``models.Models``), each loaded once."""

    def predictor(self, task: Task) -> Any: ...
    def ranker(self, task: Task) -> Any: ...
    def cocitation(self, task: Task | None) -> Any: ...
    def weights_for(self, task: Task) -> dict[str, float]: ...
    def law_registry(self) -> Any: ...
    def corpus(self) -> tuple[dict[str, str], Any]: ...


class QueryView(Protocol):
    """The one query embedder (``queryvec.QueryEmbedder``)."""

    def for_level(self, texts: Texts, level: RetrievalLevel, vectors: Vectors | None = None) -> dict: ...


class Engine(Protocol):
    """What a strategy may ask of its ``Retriever`` (``engine.py``): the graph's facts, its models
    and its query embedder. A protocol, so that no strategy imports the engine that maps to it."""

    graph: GraphView
    models: ModelView
    queries: QueryView


class Strategy(Protocol):
    """One retrieval mode. Built once per ``Retriever`` as ``Strategy(retriever)``."""

    #: Whether the mode asks the statute predictor: ``--level auto`` then also follows the predictor's
    #: deeper predictions, a result names the predictor as its model, and ``legalkg eval --cv`` answers
    #: each case with its fold's engine.
    uses_predictor: bool

    def __init__(self, engine: Engine) -> None: ...

    def seeds(self, texts: Texts, level: RetrievalLevel, k: int, law: str | None = None,
              vectors: Vectors | None = None, task: Task | None = None) -> dict[str, list[Hit]]:
        """query id -> its top-``k`` hits at ``level`` (an indexed level), best first, ranked from 1.

        ``law`` keeps one law's units; ``vectors`` are precomputed query vectors; ``task`` names the
        kind of query where a strategy cares (the learned mode's predictor), None: by its length.
        """
        ...

    def seeds_with_hops(self, text: str, level: RetrievalLevel, k: int, law: str | None,
                        vector: np.ndarray | None, how: Expansion) -> tuple[list[Hit], list[Hit]] | None:
        """One query's seeds and their ``how`` expansion in one round trip, the same hits as ``seeds``
        and ``expand.expand``; None where the mode cannot (the engine then runs both)."""
        ...
