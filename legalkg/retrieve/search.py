"""Top-k retrieval at one level (vector, fulltext, fusion or learned) and one-hop expansion, over one driver.

Design choices (docs/retrieval.md):
- ``Retriever.search`` runs a validated ``SearchRequest`` (``request.py``): user input is checked
  there, once. The lower-level methods (``seeds``, ``expand``, ...) take the enums of
  ``legalkg.vocab`` or their spellings, for the evaluation runner and the benchmarks.
- ``k`` limits the *seeds*; expansion adds every parent / cited unit of those seeds.
- Index look-ups over-fetch (``legalkg.fusion.overfetch``: ``max(4k, 50)`` candidates) because
  HNSW is approximate and the optional law filter runs after the index.
- Fusion is reciprocal rank fusion (``legalkg.fusion.rrf``) of the vector and full-text rankings,
  each fetched with the over-fetch: robust to the incomparable score scales.
- The query vector comes from the model recorded for the level's index, so a search can never
  compare vectors of two models.
- The learned mode (``learned_hits``) is the one engine: the statute predictor (``legalkg.predict``,
  loaded once per Retriever, its bridge texts read from the graph), full-text, vector and the
  query's own citations, fused by ``legalkg.fusion.weighted_rrf``; its rules are ``learned.py``.
- The learned mode's full-text and vector look-ups run in two reader threads while the calling
  thread embeds the query and runs the predictor: over all laws the look-ups are server time
  (the socket wait releases the GIL), so they overlap the Python work instead of adding to it
  (eval/search-latency/README.md).
- ``--level auto`` ranks at § level and refines each hit to the shortest unit inside it that
  carries it (``auto_hits``; the rule is ``auto.py``), so the evaluation scores the same units.
- ``--law auto`` (``law="auto"``) asks the law router (``law_runs`` reads its signals, the rule is
  ``laws.py``) for the query's law and searches inside it; ``SearchResult.law`` names it.
- A graph that is not ready (no finished law, no index) is one ``UserError`` line, not a driver
  traceback or an empty answer with rc 0.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Literal

import numpy as np
from neo4j import READ_ACCESS, Driver
from neo4j.exceptions import ClientError
from pydantic import BaseModel, Field

from ..cite import LawRegistry
from ..embed import get_embedder
from ..errors import UserError
from ..fusion import overfetch, rrf, weighted_rrf
from ..graph.cypher import labelled, query
from ..graph.vectors import recorded_model
from ..model import Level, level_of_id
from ..predict import Predictor, default_model_path, load_model
from ..predict.ranker import Ranker
from ..predict.rankfile import shipped_ranker
from ..vocab import Expansion, Mode, RetrievalLevel, parse_level
from . import auto, laws as law_router, learned as lm, weights as fusion_weights
from .request import SearchRequest, clean_query, parse_task

MAX_LUCENE_TERMS = 200

_LUCENE_SPECIAL = re.compile(r'([+\-!(){}\[\]^"~*?:\\/&|])')
#: Neo4j's message for a query naming an index the database lacks (ProcedureCallFailed).
_NO_INDEX = re.compile(r"no such (\w+) (?:schema )?index:? *[`'\"]?(\w+)", re.IGNORECASE)
#: Expansion -> the Cypher files of its hops, parent first.
EXPANSION_QUERIES: dict[Expansion, tuple[str, ...]] = {
    Expansion.NONE: (),
    Expansion.PARENT: ("retrieve/expand_parent",),
    Expansion.CITATION: ("retrieve/expand_citation",),
    Expansion.HYBRID: ("retrieve/expand_parent", "retrieve/expand_citation"),
}


def lucene_query(text: str) -> str:
    """User text -> a safe Lucene query: every special character escaped, operators lower-cased,
    at most MAX_LUCENE_TERMS terms (OR-combined, Lucene's default)."""
    terms = []
    for raw in text.split():
        term = _LUCENE_SPECIAL.sub(r"\\\1", raw)
        if raw in ("AND", "OR", "NOT", "TO"):
            term = raw.lower()
        if term.strip("\\"):
            terms.append(term)
        if len(terms) >= MAX_LUCENE_TERMS:
            break
    return " ".join(terms)


def _floats(vector) -> list[float]:
    """A query vector as the list of Python floats the driver sends (``tolist`` is one C call)."""
    return vector.tolist() if isinstance(vector, np.ndarray) else [float(x) for x in vector]


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


class Hit(BaseModel):
    id: str
    citation: str | None = None
    text: str = ""
    title: str | None = None
    words: int = 0
    score: float | None = None
    rank: int | None = None
    via: Mode | Literal[Expansion.PARENT, Expansion.CITATION] = Field(
        description="the mode that found a seed, or the hop that reached an expansion node")
    seed: str | None = Field(None, description="for expansion nodes: the seed they were reached from")
    covers: list[str] | None = Field(None, description="for Chunk hits: the unit ids the chunk overlaps")
    level: str | None = Field(None, description="the hit's level (Paragraph ... Doppelbuchstabe, Chunk); "
                                                "under --level auto each hit's own")
    components: dict[str, float] = Field(default_factory=dict,
                                         description="per-mode scores of a fusion hit; per-component "
                                                     "score shares of a ranked hit (--explain)")


def _hit(r, via: str, rank: int | None = None, seed: str | None = None) -> Hit:
    """A Hit from a record (or map) of the graph's own fields, whose types ingest fixed: built
    without validation, which cost about as much per hit as reading the hit (ad-hoc profile)."""
    score = r.get("score")
    covers = r.get("covers")
    return Hit.model_construct(id=r["id"], citation=r["citation"] or r["id"], text=r["text"] or "",
                               title=r["title"], words=r["words"] or 0,
                               score=None if score is None else float(score), rank=rank, via=via,
                               seed=seed, covers=list(covers) if covers else None, components={})


class SearchResult(BaseModel):
    query: str
    level: RetrievalLevel
    mode: Mode
    expand: Expansion
    k: int
    model: str | None = None
    law: str | None = Field(None, description="the law searched in (under --law auto: the routed one)")
    seeds: list[Hit]
    expanded: list[Hit] = Field(default_factory=list)

    def unit_ids(self) -> list[str]:
        """Ids whose citations count as retrieved (chunks contribute the units they cover)."""
        out: list[str] = []
        for h in self.seeds:
            out.extend(h.covers if h.covers else [h.id])
        out.extend(h.id for h in self.expanded)
        return out

    def delivered_words(self) -> int:
        seen: set[str] = set()
        total = 0
        for h in [*self.seeds, *self.expanded]:
            if h.id not in seen:
                seen.add(h.id)
                total += h.words or 0
        return total


def hit_level(hit: Hit) -> str | None:
    """A hit's level: ``Chunk`` for a window, else the level its id denotes (None for a foreign id)."""
    if hit.covers is not None:
        return RetrievalLevel.CHUNK.value
    try:
        return level_of_id(hit.id).value
    except ValueError:
        return None


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


class Retriever:
    """Searches over one driver; loads each level's embedding model once and reuses it."""

    def __init__(self, driver: Driver, database: str = "neo4j", model: str | None = None,
                 predictors: Mapping[str, Predictor | str | Path] | None = None,
                 weights: Mapping[str, float] | None = None) -> None:
        """``predictors``: task -> a loaded ``Predictor`` or a model file, for the learned mode
        (default: the shipped model of each task, loaded on first use); ``weights``: the learned
        mode's run weights (0 switches a run off; default: the shipped weights of the query's
        task, ``legalkg.retrieve.weights``)."""
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
        #: task -> the shipped ranker, only beside the shipped predictor it was stacked on
        self._rankers: dict[str, Ranker | None] = {}
        self._registry: LawRegistry | None = None
        #: the explicit run weights, or None for each task's shipped ones (``weights_for``)
        self.weights: dict[str, float] | None = None if weights is None else dict(weights)
        self._shipped: dict[str, dict[str, float]] = {}
        self._readers: ThreadPoolExecutor | None = None

    def readers(self) -> ThreadPoolExecutor:
        """The threads that run the learned mode's index look-ups (started on first use). Two: the
        full-text and the vector look-up of one search at once; the driver is thread-safe and each
        look-up opens its own session."""
        if self._readers is None:
            self._readers = ThreadPoolExecutor(max_workers=len(lm.INDEX_RUNS), thread_name_prefix="legalkg-read")
        return self._readers

    def _read(self, text: str, params: dict) -> list:
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

    def check_ready(self) -> None:
        """A one-line error on a graph without a finished law (empty, or an interrupted ingest),
        checked once per Retriever: never answer from fragments, or with no hits and rc 0."""
        if self._ready:
            return
        rec = self._read(query("retrieve/graph_ready"), {})
        if not (rec and rec[0]["ready"]):
            raise UserError(f"the graph in database {self.db!r} holds no finished law (it is empty, or an "
                            "ingest stopped before any law was complete): run `legalkg ingest`, which resumes "
                            "an interrupted load (or pass the --database that holds the graph)")
        self._ready = True

    def index_model(self, label: RetrievalLevel) -> dict | None:
        """The model of a level's index, looked up once per Retriever (a round trip per search
        doubled the latency in benchmarks/retrieval_latency.py)."""
        if label not in self._models:
            self._models[label] = recorded_model(self.driver, self.db, label)
        return self._models[label]

    def _check_law(self, law: str | None) -> None:
        if law is None or law in self._laws:
            return
        rec = self.driver.execute_query(query("retrieve/law_exists"), {"law": law}, database_=self.db).records
        if not rec[0]["exists"]:
            raise UserError(f"law {law!r} is not in the graph: use a law id such as BGB or 'SGB V' "
                            "(see `legalkg stats`), or ingest it with `legalkg ingest --codes ...`")
        self._laws.add(law)

    def check_level(self, label: RetrievalLevel) -> None:
        """A one-line error on a graph without units of ``label`` (an empty or other database)."""
        self.check_ready()
        if label not in self._level_units:
            rec = self._read(labelled("retrieve/level_units", label=label), {})
            self._level_units[label] = int(rec[0]["units"]) if rec else 0
        if not self._level_units[label]:
            raise UserError(f"the graph in database {self.db!r} holds no {label} units: run `legalkg ingest` "
                            "first (or pass the --database that holds them)")

    def predictor(self, task: str) -> Predictor:
        """The statute predictor of ``task``, loaded once per Retriever, its bridge fed with the
        § texts of its laws read from the graph (``cypher/retrieve/unit_texts``), not from XML."""
        task = parse_task(task) or "lay"
        if task not in self._predictors:
            source = self._predictor_sources.get(task) or default_model_path(task)
            pred = source if isinstance(source, Predictor) else load_model(source)
            units: dict[str, str] = {}
            if pred.bridge_laws and pred.statutes is None:
                recs = self._read(query("retrieve/unit_texts"), {"laws": list(pred.bridge_laws)})
                units = {r["id"]: f"{r['title']}\n{r['text']}" if r["title"] else r["text"] for r in recs}
                if units:  # none of its laws in the graph: the bridge stays off, the rest still predicts
                    pred.attach_units(units)
            shipped = not isinstance(source, Predictor) and Path(source) == default_model_path(task)
            self._rankers[task] = shipped_ranker(task, pred, units) if shipped else None
            self._predictors[task] = pred
            self._look_up([uid for m in pred.levels.values() for uid in m.labels])
        return self._predictors[task]

    def _look_up(self, ids: Sequence[str]) -> None:
        """Record which of ``ids`` the graph holds, one query for those not known yet: the learned
        mode drops predicted units of laws not ingested, and looking 100 ids up per search cost as
        much as reading their texts (4 ms, ad-hoc profile on the 58 codes)."""
        new = list(dict.fromkeys(u for u in ids if u not in self._in_graph))
        if new:
            found = {r["id"] for r in self._read(query("retrieve/present_ids"), {"ids": new})}
            self._in_graph.update({u: u in found for u in new})

    def weights_for(self, task: str) -> dict[str, float]:
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

    def descendants(self, ids: list[str], label: RetrievalLevel) -> dict[str, list[str]]:
        """id -> its units at ``label`` in document order (``cypher/retrieve/descendants``)."""
        out: dict[str, list[str]] = defaultdict(list)
        if ids:
            for r in self._read(labelled("retrieve/descendants", label=label), {"ids": ids}):
                out[r["parent"]].append(r["id"])
                self._in_graph[r["id"]] = True
        return dict(out)

    def embedder_for(self, label: str, model: str | None = None):
        """The embedder of the model recorded for ``label``'s index; ``model`` (default: the
        Retriever's) only checks that the index holds that model's vectors."""
        label = parse_level(label)
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
        return self._embedders[name]

    def embed_query(self, text: str, level: str, model: str | None = None) -> np.ndarray:
        return self.embedder_for(level, model).embed_query(clean_query(text))

    def _rows(self, name: str, params: dict, via: Mode) -> list[Hit]:
        recs = self._read(query(name), params)
        return [_hit(r, via, rank=i + 1) for i, r in enumerate(recs)]

    def vector_hits(self, label: RetrievalLevel, vector: np.ndarray, k: int, law: str | None) -> list[Hit]:
        if law is not None:
            recs = self._read(labelled("retrieve/vector_law", label=label),
                              {"law": law, "k": k, "vector": _floats(vector)})
            return [_hit(r, Mode.VECTOR, rank=i + 1) for i, r in enumerate(recs)]
        return self._rows("retrieve/vector", {"index": f"vector_{label}", "fetch": overfetch(k), "k": k,
                                              "vector": _floats(vector), "law": law}, Mode.VECTOR)

    def fulltext_hits(self, label: RetrievalLevel, text: str, k: int, law: str | None) -> list[Hit]:
        q = lucene_query(text)
        if not q:
            return []
        return self._rows("retrieve/fulltext", {"index": f"fulltext_{label}", "q": q, "fetch": overfetch(k),
                                                "k": k, "law": law}, Mode.FULLTEXT)

    def seeds(self, text: str, label: str, k: int, mode: str, law: str | None,
              vector: np.ndarray | None, model: str | None = None, task: str | None = None) -> list[Hit]:
        """The top-k seeds of one mode (``text`` already cleaned, ``label`` / ``mode`` as the
        vocabulary's values or their spellings)."""
        label, mode = parse_level(label), Mode(mode)
        if mode is Mode.FULLTEXT:
            return self.fulltext_hits(label, text, k, law)
        if mode is Mode.LEARNED:
            return self.learned_hits(text, label, k, law, task, vector, model)
        vec = vector if vector is not None else self.embed_query(text, label, model)
        if mode is Mode.VECTOR:
            return self.vector_hits(label, vec, k, law)
        pool = overfetch(k)
        runs = {Mode.VECTOR.value: self.vector_hits(label, vec, pool, law),
                Mode.FULLTEXT.value: self.fulltext_hits(label, text, pool, law)}
        return fuse_hits(runs, k)

    def learned_hits(self, text: str, label: str, k: int, law: str | None = None, task: str | None = None,
                     vector: np.ndarray | None = None, model: str | None = None) -> list[Hit]:
        """The learned mode: the predictor, full-text, vector (where the level has vectors) and
        the query's own citations at ``label``, fused by weighted RRF (rules: ``learned.py``).
        Each hit's ``components`` holds every run's share, the predictor's split into its parts."""
        task = lm.choose_task(text, task)
        rankings, known, inner = self.learned_runs(text, label, k, law, task, vector, model)
        fused = weighted_rrf(rankings, lm.run_weights(self.weights_for(task), label), k)
        missing = [uid for uid, _, _ in fused if uid not in known]
        if missing:  # texts of the predicted and cited units, for the top k only
            recs = self._read(query("retrieve/units_by_id"), {"ids": missing})
            known = {**known, **{r["id"]: _hit(r, Mode.LEARNED) for r in recs}}
        fused = [row for row in fused if row[0] in known]  # a unit deleted since it was looked up
        return [known[uid].model_copy(update={"score": score, "rank": rank, "via": Mode.LEARNED,
                                              "components": lm.explain_components(shares, lm.inherited(uid, inner))})
                for rank, (uid, score, shares) in enumerate(fused, 1)]

    def learned_runs(self, text: str, label: str, k: int, law: str | None = None, task: str | None = None,
                     vector: np.ndarray | None = None, model: str | None = None,
                     ) -> tuple[dict[str, list[str]], dict[str, Hit], dict[str, dict[str, float]]]:
        """The learned mode's runs before fusion: (run -> unit ids at ``label``, id -> the hit of each
        unit the index runs found, id -> the predictor's component shares). Apart from
        ``learned_hits`` so that weights can be chosen by fusing the same runs many times
        (``legalkg.retrieve.folds``). Units the graph lacks are dropped from every run.

        A run switched off (weight 0) is not computed: the predictor anywhere, an index run at §
        level, where nothing is shallower than the level, so its ranking orders no descendants."""
        label = parse_level(label)
        self.check_level(label)
        task = lm.choose_task(text, task)
        weights = lm.run_weights(self.weights_for(task), label)
        needed = {r: label is not RetrievalLevel.PARAGRAPH or weights.get(r, 0.0) > 0 for r in lm.INDEX_RUNS}
        pool = overfetch(k)
        # The index look-ups wait on the server; they run in this Retriever's reader threads while
        # this thread embeds the query and runs the predictor (module docstring).
        pending: dict[str, Future] = {}
        if needed["fulltext"]:
            pending["fulltext"] = self.readers().submit(self.fulltext_hits, label, text, pool, law)
        if needed["vector"] and (vector is not None or self.index_model(label) is not None):
            vec = vector if vector is not None else self.embed_query(text, label, model)
            pending["vector"] = self.readers().submit(self.vector_hits, label, vec, pool, law)
        inner: dict[str, dict[str, float]] = {}
        if label.expandable:
            predicted, inner = self._predicted(text, label, law, task) if weights.get("predictor") else ([], {})
            cited = lm.cited_ids(text, law, self.law_registry())
        index_runs = {name: future.result() for name, future in pending.items()}
        rankings = {name: [h.id for h in hits] for name, hits in index_runs.items()}
        if label.expandable:
            index_rank = {uid: r for r, (uid, _) in enumerate(rrf(rankings.values()))}
            children = self.descendants(lm.shallower(predicted + cited, label), label)
            rankings["predictor"] = lm.to_level(predicted, label, children, index_rank)
            rankings["cited"] = lm.to_level(cited, label, children, index_rank)
        known = {h.id: h for hits in index_runs.values() for h in hits}
        self._look_up([u for name in ("predictor", "cited") for u in rankings.get(name, []) if u not in known])
        rankings = {name: [u for u in ids if u in known or self._in_graph[u]] for name, ids in rankings.items()}
        return rankings, known, inner

    def law_runs(self, text: str, task: str | None = None,
                 predictor: Predictor | None = None) -> dict[str, list[str]]:
        """The law router's signals for a query: signal -> law ids, best first (rule: ``laws.py``).
        ``predictor``: a model to ask instead of the task's (the benchmark's out-of-fold ones); the
        predictor signal is left out where the task's run weights switch the predictor off."""
        self.check_ready()
        runs = {"cited": law_router.cited_laws(text, self.law_registry())}
        q = lucene_query(text)
        recs = self._read(query("retrieve/law_route"), {"index": f"fulltext_{auto.BASE_LEVEL}", "q": q,
                                                        "fetch": law_router.FULLTEXT_HITS}) if q else []
        runs["fulltext"] = law_router.laws_of(r["law"] for r in recs)
        task = lm.choose_task(text, task)
        if predictor is None and self.weights_for(task).get("predictor"):
            predictor = self.predictor(task)
        if predictor is not None:
            rows = predictor.predict([text], law_router.PREDICTOR_HITS, auto.BASE_LEVEL)[0]
            runs["predictor"] = law_router.laws_of(lm.law_of(uid) for uid, _ in rows)
        return runs

    def route_laws(self, text: str, k: int = law_router.AUTO_LAWS, task: str | None = None) -> list[str]:
        """The ``k`` laws the query most likely concerns (``laws.route`` over ``law_runs``)."""
        return law_router.routed_laws(self.law_runs(text, task), k)

    def _predicted(self, text: str, label: RetrievalLevel, law: str | None,
                   task: str | None) -> tuple[list[str], dict[str, dict[str, float]]]:
        """The predictor's ids for ``label`` (at its own level, or the deepest level above it) and
        each id's component shares."""
        pred = self.predictor(lm.choose_task(text, task))
        source = lm.source_level(pred.levels, label)
        if source is None:
            return [], {}
        ranker = self._rankers.get(pred.task) if source == Level.PARAGRAPH.value else None
        rows = (ranker.explain(pred, [text], lm.PREDICTOR_POOL) if ranker else
                pred.explain([text], lm.PREDICTOR_POOL, source))[0]
        rows = [r for r in rows if law is None or lm.law_of(r[0]) == law]
        return [uid for uid, _, _ in rows], {uid: parts for uid, _, parts in rows}

    def auto_hits(self, text: str, hits: Sequence[Hit], task: str | None = None, law: str | None = None,
                  learned: bool = True) -> list[Hit]:
        """``--level auto``: for each hit of a § search, best first, the shortest unit inside it
        that carries it (the rules: ``legalkg.retrieve.auto``), keeping the hit's rank, score,
        ``via`` and ``components``; each hit's ``level`` names its unit's level.

        ``hits``: § hits of any mode (``seeds(text, "Paragraph", k, mode, ...)`` or
        ``learned_hits(text, "Paragraph", k, law, task, vector)``); chunk hits pass unchanged.
        ``learned``: also follow the predictor's own deeper predictions (the learned mode's).
        The batch evaluation calls this on the learned § hits of each case, so ``legalkg eval
        --level auto`` scores what ``legalkg search --level auto`` returns.
        """
        roots = {h.id: (h.words or 0, h.text or "") for h in hits if h.covers is None}
        recs = self._read(query("retrieve/subtree"), {"ids": list(roots)}) if roots else []
        tree = auto.build_tree(roots, ((r["id"], r["parent"], r["words"], r["text"]) for r in recs))
        found = {r["id"]: r for r in recs}
        pinned = [lm.cited_ids(text, law, self.law_registry())]
        if learned and roots:
            pinned.extend(self._deeper_predictions(text, law, task))
        words = auto.query_terms(text)
        out: list[Hit] = []
        for h in hits:
            uid = h.id if h.covers is not None else auto.carrier(h.id, tree, words, pinned)
            hit = h if uid == h.id else _hit(found[uid], h.via, rank=h.rank).model_copy(
                update={"score": h.score, "components": h.components})
            out.append(hit.model_copy(update={"level": hit_level(hit)}))
        return out

    def _deeper_predictions(self, text: str, law: str | None, task: str | None) -> list[list[str]]:
        """The predictor's rankings at its label levels below §, shallow to deep (the case model:
        Absatz, Satz, Nummer; the lay model has none), for ``auto_hits``."""
        task = lm.choose_task(text, task)
        if not self.weights_for(task).get("predictor"):
            return []
        pred = self.predictor(task)
        deeper = sorted((lv for lv in pred.levels if lm.depth(lv) > lm.depth(auto.BASE_LEVEL)), key=lm.depth)
        return [[uid for uid, _ in pred.predict([text], lm.PREDICTOR_POOL, lv)[0]
                 if law is None or lm.law_of(uid) == law] for lv in deeper]

    def expand(self, seeds: list[Hit], how: str) -> list[Hit]:
        how = Expansion(how)
        if how is Expansion.NONE or not seeds:
            return []
        ids = [h.id for h in seeds if not h.covers]
        seen = {h.id for h in seeds}
        out: list[Hit] = []
        for name in EXPANSION_QUERIES[how]:
            for r in self._read(query(name), {"ids": ids}):
                if r["id"] in seen:
                    continue
                seen.add(r["id"])
                out.append(_hit(r, Expansion(r["via"]), seed=r["seed"]))
        return out

    def seeds_expanded(self, text: str, label: str, k: int, mode: str, law: str | None,
                       vector: np.ndarray | None, how: str,
                       model: str | None = None) -> tuple[list[Hit], list[Hit]]:
        """Seeds and their expansion in one statement (``*_expand.cypher``): the same hits as
        :meth:`seeds` + :meth:`expand`, one round trip instead of two or three. Vector (without a
        law) and fulltext modes only: fusion and ranked seeds are computed outside Cypher."""
        label, mode, how = parse_level(label), Mode(mode), Expansion(how)
        params: dict = {"k": k, "fetch": overfetch(k), "parent": how.parent, "citation": how.citation}
        if mode is Mode.VECTOR:
            vec = vector if vector is not None else self.embed_query(text, label, model)
            name = "retrieve/vector_expand"
            params.update(index=f"vector_{label}", vector=_floats(vec))
        else:
            q = lucene_query(text)
            if not q:
                return [], []
            name = "retrieve/fulltext_expand"
            params.update(index=f"fulltext_{label}", q=q, law=law)
        recs = self._read(query(name), params)
        seeds = [_hit(r, mode, rank=i + 1) for i, r in enumerate(recs)]
        seen = {h.id for h in seeds}
        expanded: list[Hit] = []
        for key, via in (("parents", Expansion.PARENT), ("cited", Expansion.CITATION)):
            for r in recs:
                if r["covers"]:
                    continue  # chunks are not tree nodes: never expanded (as in expand())
                for m in r[key]:
                    if m["id"] in seen:
                        continue
                    seen.add(m["id"])
                    expanded.append(_hit(m, via, seed=r["id"]))
        return seeds, expanded

    def search(self, request: SearchRequest | str, level: str = RetrievalLevel.SATZ, k: int = 5,
               mode: str = Mode.VECTOR, expand: str = Expansion.NONE, law: str | None = None,
               vector: np.ndarray | None = None, task: str | None = None) -> SearchResult:
        """Run one search: a ``SearchRequest``, or its fields as arguments (query text first).

        ``vector``: a precomputed query vector for the level's model, to skip embedding.
        """
        req = request if isinstance(request, SearchRequest) else SearchRequest(
            query=request, level=level, k=k, mode=mode, expand=expand, law=law, model=self.model, task=task)
        label, mode, expand, k, law = req.level, req.mode, req.expand, req.k, req.law
        self.check_ready()
        if law == law_router.AUTO_LAW:
            routed = self.route_laws(req.query, law_router.AUTO_LAWS, req.task)
            law = routed[0] if routed else None  # no signal at all: search every law
        self._check_law(law)
        ranked_at = label if label.indexed else auto.BASE_LEVEL
        one_trip = label.indexed and expand is not Expansion.NONE and (mode is Mode.VECTOR and law is None
                                                                       or mode is Mode.FULLTEXT)
        if one_trip:
            seeds, expanded = self.seeds_expanded(req.query, label, k, mode, law, vector, expand, req.model)
        else:
            seeds = self.seeds(req.query, ranked_at, k, mode, law, vector, req.model, req.task)
            if not label.indexed:
                seeds = self.auto_hits(req.query, seeds, req.task, law, learned=mode is Mode.LEARNED)
            expanded = self.expand(seeds, expand)
        for h in (*seeds, *expanded):
            if h.level is None:
                h.level = hit_level(h)
        model = None
        if mode.uses_vectors or mode is Mode.LEARNED:
            rec = self.index_model(ranked_at)
            model = rec["name"] if rec else None
        if mode is Mode.LEARNED:
            task = lm.choose_task(req.query, req.task)
            model = f"predictor {task}" + (f" + {model}" if model else "")
        return SearchResult(query=req.query, level=label, mode=mode, expand=expand, k=k, model=model, law=law,
                            seeds=seeds, expanded=expanded)


def search(driver: Driver, database: str, text: str, level: str = RetrievalLevel.SATZ, k: int = 5,
           mode: str = Mode.VECTOR, expand: str = Expansion.NONE, law: str | None = None,
           model: str | None = None, task: str | None = None) -> SearchResult:
    """One search with a fresh ``Retriever`` (reuse a ``Retriever`` for many queries)."""
    request = SearchRequest(query=text, level=level, k=k, mode=mode, expand=expand, law=law, model=model,
                            task=task)
    return Retriever(driver, database, model=model).search(request)
