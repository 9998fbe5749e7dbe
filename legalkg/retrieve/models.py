"""The models a search uses, each loaded once per ``Models`` and reused: the statute predictors,
their rankers and co-citation tables, the corpus over every § of the graph, the run weights and the
law registry.

Why here and not in the strategies: a CV fold's engine is the same engine with its fold's models
(``legalkg.eval.folds``), and a server loads each model once for every thread (``once_per_key``).
The § texts the models are fed come from the graph (``GraphFacts``), never from XML.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from .. import cite, paths
from ..errors import UserError
from ..lazy import once_per_key
from ..predict import Predictor, cocite, corpus as corpusmod, default_model_path, load_model
from ..predict.corpus import Corpus
from ..predict.ranker import TASK_FEATURES, Ranker, uses_graph
from ..predict.rankfile import shipped_ranker
from ..vocab import Task
from . import weights as fusion_weights
from .graphfacts import GraphFacts


class Models:
    """The models of one engine over the graph ``graph``."""

    def __init__(self, graph: GraphFacts, predictors: Mapping[str, Predictor | str | Path] | None = None,
                 weights: Mapping[str, float] | None = None,
                 rankers: Mapping[str, Ranker | None] | None = None) -> None:
        """``predictors``: task -> a loaded ``Predictor`` or a model file, for the learned mode
        (default: the shipped model of each task, loaded on first use); ``weights``: the learned
        mode's run weights (0 switches a run off; default: the shipped weights of the query's
        task, ``legalkg.retrieve.weights``); ``rankers``: task -> the ranker stacked on that task's
        predictor (a CV fold's, ``legalkg.eval.folds``), None for none (default: the shipped ranker
        beside the shipped predictor, none beside any other)."""
        self.graph = graph
        self._predictor_sources: dict[str, Predictor | str | Path] = dict(predictors or {})
        self._predictors: dict[str, Predictor] = {}
        self._rankers: dict[str, Ranker | None] = {}
        self._corpus: tuple[dict[str, str], Corpus] | None = None
        self._ranker_sources: dict[str, Ranker | None] = dict(rankers or {})
        self._cocitations: dict[str, cocite.CoCitation | None] = {}
        self._registry: cite.LawRegistry | None = None
        #: the explicit run weights, or None for each task's shipped ones (``weights_for``)
        self.weights: dict[str, float] | None = None if weights is None else dict(weights)
        self._shipped: dict[str, dict[str, float]] = {}

    @once_per_key
    def predictor(self, task: Task | str) -> Predictor:
        """The statute predictor of ``task``, loaded once per Retriever, its bridge fed with the
        § texts of its laws read from the graph (``paragraph_texts``), not from XML."""
        task = Task(task)
        if task not in self._predictors:
            source = self._predictor_sources.get(task) or default_model_path(task)
            pred = source if isinstance(source, Predictor) else load_model(source)
            # a ranker given with its predictor (a CV fold's, stacked on the fold's training cases);
            # else the shipped ranker, only beside the shipped predictor it was stacked on
            shipped = not isinstance(source, Predictor) and Path(source) == default_model_path(task)
            units: dict[str, str] = {}
            if pred.bridge_laws and pred.statutes is None:
                units = self.graph.bridge_texts(pred.bridge_laws, shipped and uses_graph(TASK_FEATURES[task]))
                if units:  # none of its laws in the graph: the bridge stays off, the rest still predicts
                    pred.attach_units(units)
            if task in self._ranker_sources:
                self._rankers[task] = self._ranker_sources[task]
            else:
                self._rankers[task] = shipped_ranker(task, pred, units, self.corpus) if shipped else None
            self._predictors[task] = pred
            self.graph.in_graph([uid for m in pred.levels.values() for uid in m.labels])
        return self._predictors[task]

    def corpus(self) -> tuple[dict[str, str], Corpus]:
        """Every § text of the graph (id -> "title\ntext", as the bridge reads them) and the corpus
        over them (``legalkg.predict.corpus``: BM25, vectors, the law router), read once per
        Retriever; the corpus comes from the cache where the same texts built it before."""
        if self._corpus is None:
            units = self.graph.paragraph_texts()
            self._corpus = (units, corpusmod.cached(units, paths.cache_dir() / "corpus"))
        return self._corpus

    def ranker(self, task: Task | str) -> Ranker | None:
        """The learned ranker that orders the ``task`` predictor's § run, if one is shipped."""
        self.predictor(task)
        return self._rankers.get(Task(task))

    def cocitation(self, task: Task | str | None) -> cocite.CoCitation | None:
        """The co-citation table of the ``task`` predictor's training cases (its § labels), made
        once per Retriever; None for no task or a predictor without § labels. The ``cocited``
        expansion reads it, so a CV fold's engine expands with its own fold's pairs (the graph's
        ``CO_CITED`` edges hold the shipped predictors' table only, so retrieval never reads them)."""
        if task is None:
            return None
        task = Task(task)
        if task not in self._cocitations:
            self._cocitations[task] = cocite.of_predictor(self.predictor(task))
        return self._cocitations[task]

    def check_unseen(self, task: Task, cases: Mapping[str, str]) -> None:
        """One line, and no answer, where the ``task`` predictor was trained on some of ``cases``
        (case id -> query text): by id, or by text under another id (``Predictor.seen_texts``).
        Every entry point that scores the learned mode on known cases (``legalkg eval``, the
        benchmarks) asks this one check."""
        pred = self.predictor(task)
        seen = pred.seen(list(cases)) or pred.seen_texts(cases)
        if seen:
            raise UserError(f"the {task} predictor was trained on {len(seen)} of these {len(cases)} cases "
                            f"(e.g. {seen[0]}), so its scores there would be a leak: pass --cv 5 to cross-validate, "
                            f"or --predictor with a model trained without them (legalkg train ... --out MODEL.npz)")

    def weights_for(self, task: Task | str) -> dict[str, float]:
        """The run weights for a query of ``task``: the explicit ones, else the shipped ones."""
        if self.weights is not None:
            return self.weights
        if task not in self._shipped:
            self._shipped[task] = fusion_weights.shipped(task)
        return self._shipped[task]

    def law_registry(self) -> cite.LawRegistry:
        if self._registry is None:
            self._registry = cite.LawRegistry.default()  # built (its grammar loaded) for a query that cites
        return self._registry
