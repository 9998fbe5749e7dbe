"""The retrieval engine: the graph facts one ``Retriever`` caches, and the ``Mode -> Strategy`` map.

Design choices (docs/retrieval.md):
- A mode is a strategy (``base.Strategy``): one file, batch-first. ``Retriever.seeds``
  answers many queries at one level, and a single search is a batch of one, so ``legalkg eval``
  scores what ``legalkg search`` returns. Adding a mode is one file and one line of ``STRATEGIES``.
- ``Retriever.search`` runs a validated ``SearchRequest`` (``request.py``): user input is checked
  there, once. ``seeds`` and ``expand`` take the enums of ``legalkg.vocab``.
- ``k`` limits the *seeds*; expansion (``expand.py``) adds every parent / cited unit of those seeds.
- The query vector comes from the model recorded for the level's index, and that model's installed
  version must be the recorded one (``embedder_for``), on every path: a search can never compare
  vectors of two models.
- ``--level auto`` ranks at § level and refines each hit to the shortest unit inside it that
  carries it (``auto.refine``); ``--law auto`` asks the law router (``laws.py``) for the law.
- The facts a search needs (the graph is ready, a level has units, a law exists, the index's
  model, which ids the graph holds, the predictors and embedders) are read or loaded once per
  Retriever: a round trip per search doubled the latency (benchmarks/retrieval_latency.py).
- A graph that is not ready (no finished law, no index) is one ``UserError`` line, not a driver
  traceback or an empty answer with rc 0.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
from neo4j import READ_ACCESS, Driver
from neo4j.exceptions import ClientError

from .. import paths
from ..cite import LawRegistry
from ..embed import get_embedder
from ..errors import NotReady, UserError
from ..graph.cypher import labelled, query
from ..graph.vectors import recorded_model
from ..lazy import once_per_key
from ..predict import Predictor, cocite, corpus as corpusmod, default_model_path, load_model
from ..predict.corpus import Corpus
from ..predict.ranker import TASK_FEATURES, Ranker, uses_graph
from ..predict.rankfile import shipped_ranker
from ..vocab import DEFAULT_EXPANSION, DEFAULT_K, DEFAULT_LEVEL, DEFAULT_MODE, Expansion, Mode, RetrievalLevel, Task
from . import auto, expand as expansion, laws as law_router, learned as lm, textcache, weights as fusion_weights
from .base import Strategy, Texts, Vectors
from .fulltext import FulltextStrategy
from .fusion import FusionStrategy
from .hits import Hit, SearchResult, hit_level, ranked
from .learned import LearnedStrategy
from .request import SearchRequest, clean_query
from .vector import VectorStrategy

#: Mode -> the strategy that finds its seeds: a new mode is one file and one line here.
STRATEGIES: dict[Mode, type[Strategy]] = {
    Mode.VECTOR: VectorStrategy,
    Mode.FULLTEXT: FulltextStrategy,
    Mode.FUSION: FusionStrategy,
    Mode.LEARNED: LearnedStrategy,
}
#: Queries per round trip of a batched index look-up.
QUERY_BATCH = 100
#: Neo4j's message for a query naming an index the database lacks (ProcedureCallFailed).
_NO_INDEX = re.compile(r"no such (\w+) (?:schema )?index:? *[`'\"]?(\w+)", re.IGNORECASE)


def missing_index(message: str, database: str) -> UserError | None:
    """The one-line error for Neo4j's "no such index" failure, or None for any other error.

    Why: a fresh server, an interrupted import or an index being rebuilt leaves the graph without
    the full-text or vector index a search names, and the server answers ProcedureCallFailed,
    which the user can only fix by loading the graph (``legalkg ingest`` builds the schema).
    """
    m = _NO_INDEX.search(message or "")
    if m is None:
        return None
    kind = {"fulltext": "full-text"}.get(m[1].lower(), m[1].lower())
    return UserError(f"the graph in database {database!r} has no {kind} index {m[2]} (a fresh server, an "
                     "interrupted import, or an index being rebuilt): run `legalkg ingest`, which builds the "
                     "schema, and search again (`legalkg doctor` lists what is missing)")


def group_rows(records, via: Mode) -> dict[str, list[Hit]]:
    """query id -> its hits, best first, from the rows of a batched look-up (``qid`` per row)."""
    rows: dict[str, list] = defaultdict(list)
    for r in records:
        rows[r["qid"]].append(r)
    # The subquery already orders by score; a stable sort keeps that order and guards the driver.
    return {q: ranked(sorted(recs, key=lambda r: -float(r["score"])), via) for q, recs in rows.items()}


class Retriever:
    """Searches over one driver; reads each graph fact and loads each model once, and reuses them."""

    def __init__(self, driver: Driver, database: str = "neo4j", model: str | None = None,
                 predictors: Mapping[str, Predictor | str | Path] | None = None,
                 weights: Mapping[str, float] | None = None,
                 rankers: Mapping[str, Ranker | None] | None = None) -> None:
        """``predictors``: task -> a loaded ``Predictor`` or a model file, for the learned mode
        (default: the shipped model of each task, loaded on first use); ``weights``: the learned
        mode's run weights (0 switches a run off; default: the shipped weights of the query's
        task, ``legalkg.retrieve.weights``); ``rankers``: task -> the ranker stacked on that task's
        predictor (a CV fold's, ``legalkg.eval.folds``), None for none (default: the shipped ranker
        beside the shipped predictor, none beside any other)."""
        self.driver = driver
        self.db = database
        self.model = model
        self._embedders: dict[str, object] = {}
        self._models: dict[str, dict | None] = {}
        self._laws: set[str] = set()
        self._level_units: dict[str, int] = {}
        self._ready = False
        #: unit id -> whether the graph holds it (the predictor's labels, read once with the model)
        self._in_graph: dict[str, bool] = {}
        self._predictor_sources: dict[str, Predictor | str | Path] = dict(predictors or {})
        self._predictors: dict[str, Predictor] = {}
        self._rankers: dict[str, Ranker | None] = {}
        self._corpus: tuple[dict[str, str], Corpus] | None = None
        self._texts: dict[str, str] | None = None
        self._ranker_sources: dict[str, Ranker | None] = dict(rankers or {})
        self._cocitations: dict[str, cocite.CoCitation | None] = {}
        self._registry: LawRegistry | None = None
        #: the explicit run weights, or None for each task's shipped ones (``weights_for``)
        self.weights: dict[str, float] | None = None if weights is None else dict(weights)
        self._shipped: dict[str, dict[str, float]] = {}
        self._readers: ThreadPoolExecutor | None = None
        self.strategies: dict[Mode, Strategy] = {mode: make(self) for mode, make in STRATEGIES.items()}

    # --- reading the graph ---------------------------------------------------------------------

    def readers(self) -> ThreadPoolExecutor:
        """The threads that run the learned mode's index look-ups (started on first use). Two: the
        full-text and the vector look-up of one search at once; the driver is thread-safe and each
        look-up opens its own session."""
        if self._readers is None:
            self._readers = ThreadPoolExecutor(max_workers=len(lm.INDEX_RUNS), thread_name_prefix="legalkg-read")
        return self._readers

    def read(self, text: str, params: dict) -> list:
        """One auto-commit read: RUN + PULL in a single round trip. ``execute_query`` wraps each
        statement in a managed transaction (BEGIN ... COMMIT), one more exchange per search."""
        try:
            with self.driver.session(database=self.db, default_access_mode=READ_ACCESS) as session:
                return list(session.run(text, params))
        except ClientError as err:
            problem = missing_index(err.message or str(err), self.db)
            if problem is None:
                raise
            raise problem from None

    def read_batched(self, text: str, base: dict, items: list[dict], via: Mode) -> dict[str, list[Hit]]:
        """A batched look-up (``$queries``) in parts of ``QUERY_BATCH``, two at once when there are
        several (the server gets both cores while this process decodes the previous part)."""
        parts = [items[i:i + QUERY_BATCH] for i in range(0, len(items), QUERY_BATCH)]
        if len(parts) <= 1:
            return group_rows(self.read(text, {**base, "queries": items}), via) if items else {}
        with ThreadPoolExecutor(2) as pool:
            done = pool.map(lambda part: self.read(text, {**base, "queries": part}), parts)
            return {q: hits for recs in done for q, hits in group_rows(recs, via).items()}

    def check_ready(self) -> None:
        """A one-line error on a graph without a finished law (empty, or an interrupted ingest),
        checked once per Retriever: never answer from fragments, or with no hits and rc 0."""
        if self._ready:
            return
        rec = self.read(query("retrieve/graph_ready"), {})
        if not (rec and rec[0]["ready"]):
            raise NotReady(f"the graph in database {self.db!r} holds no finished law (it is empty, or an "
                            "ingest stopped before any law was complete): run `legalkg ingest`, which resumes "
                            "an interrupted load (or pass the --database that holds the graph)")
        self._ready = True

    def check_law(self, law: str | None) -> None:
        if law is None or law in self._laws:
            return
        rec = self.read(query("retrieve/law_exists"), {"law": law})
        if not rec[0]["exists"]:
            raise UserError(f"law {law!r} is not in the graph: use a law id such as BGB or 'SGB V' "
                            "(see `legalkg stats`), or ingest it with `legalkg ingest --codes ...`")
        self._laws.add(law)

    def check_level(self, label: RetrievalLevel) -> None:
        """A one-line error on a graph without units of ``label`` (an empty or other database)."""
        self.check_ready()
        if label not in self._level_units:
            rec = self.read(labelled("retrieve/level_units", label=label), {})
            self._level_units[label] = int(rec[0]["units"]) if rec else 0
        if not self._level_units[label]:
            raise UserError(f"the graph in database {self.db!r} holds no {label} units: run `legalkg ingest` "
                            "first (or pass the --database that holds them)")

    def index_model(self, label: RetrievalLevel) -> dict | None:
        """The model recorded for a level's index (name, version, dim), or None without vectors."""
        if label not in self._models:
            self._models[label] = recorded_model(self.driver, self.db, label)
        return self._models[label]

    def in_graph(self, ids: Sequence[str]) -> dict[str, bool]:
        """Which of ``ids`` the graph holds, one query for those not known yet: the learned mode
        drops predicted units of laws not ingested, and looking 100 ids up per search cost as much
        as reading their texts (4 ms, ad-hoc profile on the 58 codes)."""
        new = list(dict.fromkeys(u for u in ids if u not in self._in_graph))
        if new:
            found = {r["id"] for r in self.read(query("retrieve/present_ids"), {"ids": new})}
            self._in_graph.update({u: u in found for u in new})
        return {u: self._in_graph[u] for u in ids}

    def descendants(self, ids: list[str], label: RetrievalLevel) -> dict[str, list[str]]:
        """id -> its units at ``label`` in document order (``cypher/retrieve/descendants``)."""
        out: dict[str, list[str]] = defaultdict(list)
        if ids:
            for r in self.read(labelled("retrieve/descendants", label=label), {"ids": ids}):
                out[r["parent"]].append(r["id"])
                self._in_graph[r["id"]] = True
        return dict(out)

    # --- models ----------------------------------------------------------------------------------

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
                units = self.bridge_texts(pred.bridge_laws, shipped and uses_graph(TASK_FEATURES[task]))
                if units:  # none of its laws in the graph: the bridge stays off, the rest still predicts
                    pred.attach_units(units)
            if task in self._ranker_sources:
                self._rankers[task] = self._ranker_sources[task]
            else:
                self._rankers[task] = shipped_ranker(task, pred, units, self.corpus) if shipped else None
            self._predictors[task] = pred
            self.in_graph([uid for m in pred.levels.values() for uid in m.labels])
        return self._predictors[task]

    def paragraph_texts(self) -> dict[str, str]:
        """§ id -> "title\ntext" of every § in force of the graph, read once per Retriever, from the
        disk cache where the graph's laws are unchanged (``textcache``)."""
        if self._texts is None:
            folder = paths.cache_dir() / "corpus"
            digest = textcache.key((r["id"], r["hash"]) for r in self.read(query("retrieve/law_hashes"), {}))
            self._texts = textcache.load(folder, digest) if digest else None
            if self._texts is None:
                self._texts = self.read_texts(None)
                if digest:
                    textcache.save(folder, digest, self._texts)
        return self._texts

    def read_texts(self, laws: list[str] | None) -> dict[str, str]:
        """§ id -> "title\ntext" of every § in force of ``laws`` (None: every law), from the graph."""
        recs = self.read(query("retrieve/corpus_texts"), {"laws": laws})
        return {r["id"]: f"{r['title']}\n{r['text']}" if r["title"] else r["text"] for r in recs}

    def bridge_texts(self, laws: Iterable[str], graph_ranker: bool) -> dict[str, str]:
        """The § texts of a predictor's bridge ``laws``: cut from every § text where a ranker over the
        whole graph will read those anyway (one read instead of two), else read for ``laws`` alone."""
        if not graph_ranker and self._texts is None:
            return self.read_texts(list(laws))
        wanted = set(laws)
        return {uid: text for uid, text in self.paragraph_texts().items() if lm.law_of(uid) in wanted}

    def corpus(self) -> tuple[dict[str, str], Corpus]:
        """Every § text of the graph (id -> "title\ntext", as the bridge reads them) and the corpus
        over them (``legalkg.predict.corpus``: BM25, vectors, the law router), read once per
        Retriever; the corpus comes from the cache where the same texts built it before."""
        if self._corpus is None:
            units = self.paragraph_texts()
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

    def law_registry(self) -> LawRegistry:
        if self._registry is None:
            self._registry = LawRegistry.default()
        return self._registry

    @once_per_key
    def embedder_for(self, label: RetrievalLevel | str, model: str | None = None):
        """The embedder of the model recorded for ``label``'s index, loaded once; a one-line error
        where the installed version of that model is not the recorded one, or where ``model``
        (default: the Retriever's) is not the index's model."""
        label = RetrievalLevel(label)
        model = model or self.model
        rec = self.index_model(label)
        if rec is None:
            raise UserError(f"the graph has no {label} vectors: run `legalkg ingest` (without --no-embed), "
                            "or use --mode fulltext")
        if model and model.lower() != rec["name"].lower():
            raise UserError(f"the {label} index holds '{rec['name']}' vectors but --model is '{model}': "
                            f"drop --model or re-embed with `legalkg ingest --model {model} --reembed`")
        name = rec["name"]
        if name not in self._embedders:
            self._embedders[name] = get_embedder(name)
        embedder = self._embedders[name]
        if rec.get("version") and rec["version"] != embedder.version:
            raise UserError(f"the {label} vectors were made with {rec['version']!r}, the installed {name} is "
                            f"{embedder.version!r}: re-embed with `legalkg ingest --reembed`")
        return embedder

    def embed_query(self, text: str, level: RetrievalLevel | str, model: str | None = None) -> np.ndarray:
        return self.embedder_for(level, model).embed_query(clean_query(text))

    def query_vectors(self, texts: Texts, level: RetrievalLevel, vectors: Vectors | None = None) -> dict:
        """query id -> its vector for ``level``'s index: the given ones, the others embedded."""
        out = dict(vectors or {})
        missing = [q for q in texts if q not in out]
        if len(missing) == 1:
            out[missing[0]] = self.embed_query(texts[missing[0]], level)
        elif missing:
            matrix = self.embedder_for(level).embed_queries([clean_query(texts[q]) for q in missing])
            out.update(zip(missing, matrix))
        return out

    # --- searching -------------------------------------------------------------------------------

    def seeds(self, texts: Texts, level: RetrievalLevel, k: int, mode: Mode, law: str | None = None,
              vectors: Vectors | None = None, task: Task | None = None) -> dict[str, list[Hit]]:
        """query id -> the top-``k`` seeds of ``mode`` at ``level`` (``auto``: ranked at § level,
        each hit refined by ``auto.refine``); texts already cleaned."""
        self.check_ready()
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
        self.check_ready()
        if law == law_router.AUTO_LAW:
            routed = law_router.route_laws(self, req.query, law_router.AUTO_LAWS, req.task)
            law = routed[0] if routed else None  # no signal at all: search every law
        self.check_law(law)
        ranked_at = label if label.indexed else auto.BASE_LEVEL
        strategy = self.strategies[mode]
        uses_predictor = strategy.uses_predictor
        if req.model and (mode.uses_vectors or uses_predictor and self.index_model(ranked_at)):
            self.embedder_for(ranked_at, req.model)  # the --model asked is the index's
        with lm.explaining(req.explain):
            seeds, expanded = self.seeds_and_expansion(req, label, k, mode, how, law, vector)
        for h in (*seeds, *expanded):
            if h.level is None:
                h.level = hit_level(h)
        return SearchResult(query=req.query, level=label, mode=mode, expand=how, k=k, law=law, seeds=seeds,
                            expanded=expanded, model=self.model_label(req, ranked_at, uses_predictor))

    def seeds_and_expansion(self, req: SearchRequest, label: RetrievalLevel, k: int, mode: Mode, how: Expansion,
                            law: str | None, vector: np.ndarray | None) -> tuple[list[Hit], list[Hit]]:
        """One query's seeds and their expansion (in one round trip where ``expand.one_trip`` can)."""
        if expansion.one_trip_applies(label, mode, how, law):
            return expansion.one_trip(self, req.query, label, k, mode, law, vector, how)
        vectors = None if vector is None else {"q": vector}
        seeds = self.seeds({"q": req.query}, label, k, mode, law, vectors, req.task)["q"]
        return seeds, self.expand(seeds, how, lm.choose_task(req.query, req.task) if how.cocited else None)

    def model_label(self, req: SearchRequest, level: RetrievalLevel, uses_predictor: bool) -> str | None:
        """What a result names as its model: the index's, and the predictor of the query's task."""
        model = None
        if req.mode.uses_vectors or uses_predictor:
            rec = self.index_model(level)
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
