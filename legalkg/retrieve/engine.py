"""The retrieval engine: a thin ``Retriever`` over the graph's facts (``graphfacts.py``), the models
(``models.py``) and the one query embedder (``queryvec.py``), and the ``Mode -> Strategy`` map.

Design choices (docs/retrieval.md):
- A mode is a strategy (``base.Strategy``): one file, batch-first. ``Retriever.seeds``
  answers many queries at one level, and a single search is a batch of one, so ``legalkg eval``
  scores what ``legalkg search`` returns. Adding a mode is one file and one line of ``STRATEGIES``.
- ``Retriever.search`` runs a validated ``SearchRequest`` (``request.py``): user input is checked
  there, once. ``seeds`` and ``expand`` take the enums of ``legalkg.vocab``.
- ``k`` limits the *seeds*; expansion (``expand.py``) adds every parent / cited unit of those seeds.
- The query vector comes from the model recorded for the level's index, and that model's installed
  version must be the recorded one (``QueryEmbedder.embedder_for``), on every path: a search can
  never compare vectors of two models.
- ``--level auto`` ranks at § level and refines each hit to the shortest unit inside it that
  carries it (``auto.refine``); ``--law auto`` asks the law router (``laws.py``) for the law.
- ``expand`` adds the hops in a second round trip, unless the mode's strategy can return its seeds
  with their hops in one (``Strategy.seeds_with_hops``).
- The facts a search needs and the models it uses are read or loaded once per Retriever
  (``GraphFacts``, ``Models``, ``QueryEmbedder``), so that many searches share them.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np
from neo4j import Driver

from ..predict import Predictor
from ..predict.ranker import Ranker
from ..vocab import DEFAULT_EXPANSION, DEFAULT_K, DEFAULT_LEVEL, DEFAULT_MODE, Expansion, Mode, RetrievalLevel, Task
from . import auto, expand as expansion, laws as law_router, learned as lm
from .base import Strategy, Texts, Vectors
from .fulltext import FulltextStrategy
from .fusion import FusionStrategy
from .graphfacts import GraphFacts
from .hits import Hit, SearchResult, hit_level
from .learned import LearnedStrategy
from .models import Models
from .queryvec import QueryEmbedder
from .request import SearchRequest
from .vector import VectorStrategy

#: Mode -> the strategy that finds its seeds: a new mode is one file and one line here.
STRATEGIES: dict[Mode, type[Strategy]] = {
    Mode.VECTOR: VectorStrategy,
    Mode.FULLTEXT: FulltextStrategy,
    Mode.FUSION: FusionStrategy,
    Mode.LEARNED: LearnedStrategy,
}

class Retriever:
    """Searches over one driver: the graph's facts, the models and the query embedder, each read or
    loaded once and reused, and one strategy per mode."""

    def __init__(self, driver: Driver, database: str = "neo4j", model: str | None = None,
                 predictors: Mapping[str, Predictor | str | Path] | None = None,
                 weights: Mapping[str, float] | None = None,
                 rankers: Mapping[str, Ranker | None] | None = None) -> None:
        """``model``: the embedding model a user named (checked against each index's);
        ``predictors``, ``weights``, ``rankers``: as ``Models`` takes them (a CV fold's)."""
        self.model = model
        self.graph = GraphFacts(driver, database)
        self.models = Models(self.graph, predictors, weights, rankers)
        self.queries = QueryEmbedder(self.graph, model)
        self.strategies: dict[Mode, Strategy] = {mode: make(self) for mode, make in STRATEGIES.items()}

    # --- searching -------------------------------------------------------------------------------

    def seeds(self, texts: Texts, level: RetrievalLevel, k: int, mode: Mode, law: str | None = None,
              vectors: Vectors | None = None, task: Task | None = None) -> dict[str, list[Hit]]:
        """query id -> the top-``k`` seeds of ``mode`` at ``level`` (``auto``: ranked at § level,
        each hit refined by ``auto.refine``); texts already cleaned."""
        self.graph.check_ready()
        level, strategy = RetrievalLevel(level), self.strategies[Mode(mode)]
        if level.indexed:
            return strategy.seeds(texts, level, k, law, vectors, task)
        found = strategy.seeds(texts, auto.BASE_LEVEL, k, law, vectors, task)
        return {q: auto.refine(self, texts[q], found.get(q, []), task, law, strategy.uses_predictor) for q in texts}

    def expand(self, seeds: list[Hit], how: Expansion | str, task: Task | None = None) -> list[Hit]:
        """The expansion of one query's seeds (``expand.py``; ``task``: whose co-citation table
        ``cocited`` reads)."""
        how = Expansion(how)
        if how is Expansion.NONE or not seeds:
            return []
        return expansion.expand(self, {"q": seeds}, how, task)["q"]

    def search(self, request: SearchRequest | str, level: str = DEFAULT_LEVEL, k: int = DEFAULT_K,
               mode: str = DEFAULT_MODE, expand: str = DEFAULT_EXPANSION, law: str | None = None,
               vector: np.ndarray | None = None, task: str | None = None) -> SearchResult:
        """Run one search: a ``SearchRequest``, or its fields as arguments (query text first).

        ``vector``: a precomputed query vector for the level's model, to skip embedding.
        """
        req = request if isinstance(request, SearchRequest) else SearchRequest(
            query=request, level=level, k=k, mode=mode, expand=expand, law=law, model=self.model, task=task)
        label, mode, how, k, law = req.level, req.mode, req.expand, req.k, req.law
        self.graph.check_ready()
        if law == law_router.AUTO_LAW:
            routed = law_router.route_laws(self, req.query, law_router.AUTO_LAWS, req.task)
            law = routed[0] if routed else None  # no signal at all: search every law
        self.graph.check_law(law)
        ranked_at = label if label.indexed else auto.BASE_LEVEL
        strategy = self.strategies[mode]
        uses_predictor = strategy.uses_predictor
        if req.model and (mode.uses_vectors or uses_predictor and self.graph.index_model(ranked_at)):
            self.queries.embedder_for(ranked_at, req.model)  # the --model asked is the index's
        with lm.explaining(req.explain):
            seeds, expanded = self.seeds_and_expansion(req, label, k, mode, how, law, vector)
        for h in (*seeds, *expanded):
            if h.level is None:
                h.level = hit_level(h)
        return SearchResult(query=req.query, level=label, mode=mode, expand=how, k=k, law=law, seeds=seeds,
                            expanded=expanded, model=self.model_label(req, ranked_at, uses_predictor))

    def seeds_and_expansion(self, req: SearchRequest, label: RetrievalLevel, k: int, mode: Mode, how: Expansion,
                            law: str | None, vector: np.ndarray | None) -> tuple[list[Hit], list[Hit]]:
        """One query's seeds and their expansion: in one round trip where the mode's strategy can
        (``seeds_with_hops``), else the seeds and then ``expand``."""
        if label.indexed and how is not Expansion.NONE:
            both = self.strategies[mode].seeds_with_hops(req.query, label, k, law, vector, how)
            if both is not None:
                return both
        vectors = None if vector is None else {"q": vector}
        seeds = self.seeds({"q": req.query}, label, k, mode, law, vectors, req.task)["q"]
        return seeds, self.expand(seeds, how, lm.choose_task(req.query, req.task) if how.cocited else None)

    def model_label(self, req: SearchRequest, level: RetrievalLevel, uses_predictor: bool) -> str | None:
        """What a result names as its model: the index's, and the predictor of the query's task."""
        model = None
        if req.mode.uses_vectors or uses_predictor:
            rec = self.graph.index_model(level)
            model = rec["name"] if rec else None
        if uses_predictor:
            task = lm.choose_task(req.query, req.task)
            model = f"predictor {task}" + (f" + {model}" if model else "")
        return model


def search(driver: Driver, database: str, text: str, **options) -> SearchResult:
    """One search with a fresh ``Retriever`` (reuse a ``Retriever`` for many queries); ``options``
    are the other fields of ``SearchRequest`` (level, k, mode, expand, law, model, task)."""
    request = SearchRequest(query=text, **options)
    return Retriever(driver, database, model=request.model).search(request)
