"""Run a dataset through retrieval configurations over a live graph -> the results table.

The runner is plan, ``Retriever.seeds``, expand, score: the hits it scores are those the engine
returns to ``legalkg search`` (tests/eval/test_eval_equals_search.py), so nothing of retrieval is
written twice. What it adds is the batching a grid of levels x expansions x modes over thousands of
queries needs:

* each query is embedded **once per model** (all indexes recorded with the same model share the
  vector), cached on disk, and the vector is reused in every cell;
* seeds depend on (level, mode) only: ``Retriever.seeds`` answers all queries of a level at once
  (the strategies' batched Cypher, 100 queries per round trip);
* each distinct seed's expansion context is read once per level (``expand.contexts``) and every
  expansion of the level is assembled from it (``expand.assemble``, as a search does);
* W (mean words per unit) and W^m (mean words delivered incl. expansion) come from the whole graph
  (``cypher/eval/mean_words``, ``cypher/eval/delivered_words``).

Gold is restricted to the laws in the graph (``datasets.restrict_to_laws``); coverage is reported.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

import numpy as np
import pandas as pd
from neo4j import Driver
from pydantic import BaseModel, ConfigDict, Field

from ..cases.decisions import graph_ids
from ..errors import UserError
from ..graph.cypher import labelled, query
from ..graph.vectors import law_ids
from ..predict import TrainingSet, load_examples, load_model
from ..predict.ranker import RANKER_FEATURES
from ..predict.rankfile import default_ranker_path
from ..retrieve import Hit, Retriever, auto, clean_query, expand as expansion, weights as shipped_weights
from ..retrieve.learned import weights_label
from ..vocab import Expansion, FoldRanker, Mode, RetrievalLevel, Task, parse_level
from . import datasets, ir, metric, results
from .datasets import Coverage, EvalCase, coverage, restrict_to_laws
from .folds import TRAINED_ON, Folds, Tuning, fold_retrievers, weights_over_all
from .grid import (
    BASELINE,
    Cell,
    compare_to_baseline,
    max_depth_of,
    ranked_unit_ids,
    score_seeds,
)
from .request import EvalRequest

Progress = Callable[[str, int], None]


def _noop(_what: str, _n: int) -> None:
    return None


# --- facts about the graph -----------------------------------------------------------------------

def law_keys(driver: Driver, db: str) -> list[str]:
    """Ids of the Gesetz nodes (the law segment of every unit id)."""
    return [r["id"] for r in driver.execute_query(query("eval/law_keys"), database_=db).records]


class LevelWords(BaseModel):
    """W and W^m of one level over the whole graph."""

    level: RetrievalLevel
    units: int
    W: float
    W_m: dict[str, float] = Field(description="expansion -> mean words delivered incl. context")


def level_words(driver: Driver, db: str, level: str,
                expansions: Sequence[str] = (Expansion.NONE,)) -> LevelWords:
    """W_l (``cypher/eval/mean_words``) and, for expanded cells, W^m_l (``cypher/eval/delivered_words``).

    Chunks are never expanded, so their W^m equals W for every expansion.
    """
    level = parse_level(level)
    if not level.indexed:  # auto: W is the run's own words per hit, set once the cell is scored
        rec = driver.execute_query(labelled("eval/mean_words", label=RetrievalLevel.PARAGRAPH),
                                   database_=db).records[0]
        return LevelWords(level=level, units=int(rec["units"] or 0), W=float("nan"), W_m={})
    rec = driver.execute_query(labelled("eval/mean_words", label=level), database_=db).records[0]
    if not rec["units"]:
        raise UserError(f"the graph has no {level} units with text: run `legalkg ingest` first")
    W = float(rec["mean"])
    W_m = {Expansion.NONE: W}
    # cocited, decisions: their context comes from cases, not the statute text; W^m is the run's (``cell_words``)
    wanted = [Expansion(e) for e in expansions if e != Expansion.NONE and not Expansion(e).from_cases]
    if wanted:
        if not level.expandable:
            W_m.update({e: W for e in wanted})
        else:
            d = driver.execute_query(labelled("eval/delivered_words", label=level), database_=db).records[0]
            W_m.update({e: float(d[e]) for e in wanted})
    return LevelWords(level=level, units=int(rec["units"]), W=W, W_m=W_m)


# --- retrieval through the engine ----------------------------------------------------------------

def _batches(items: Sequence, size: int):
    for start in range(0, len(items), size):
        yield items[start:start + size]


@dataclass
class Engines:
    """The engine of a run, and per case the engine of its CV fold (``--cv``) for the modes that
    ask the predictor."""

    main: Retriever
    folds: Mapping[str, Retriever] = field(default_factory=dict)

    def groups(self, mode: Mode, texts: Mapping[str, str]) -> list[tuple[Retriever, dict[str, str]]]:
        """The queries of ``texts`` by the engine that answers them in ``mode``, one batch each."""
        if not self.main.strategies[mode].uses_predictor:
            return [(self.main, dict(texts))]
        return self.by_fold(texts)

    def by_fold(self, texts: Mapping[str, str]) -> list[tuple[Retriever, dict[str, str]]]:
        """The queries of ``texts`` by the engine of their CV fold (the main one without ``--cv``)."""
        out: dict[int, tuple[Retriever, dict[str, str]]] = {}
        for q, text in texts.items():
            own = self.folds.get(q, self.main)
            out.setdefault(id(own), (own, {}))[1][q] = text
        return list(out.values())


def level_seeds(engines: Engines, level: RetrievalLevel, modes: Sequence[Mode], k: int, texts: dict[str, str],
                vectors: Mapping[str, np.ndarray] | None, task: Task,
                progress: Progress = _noop) -> dict[Mode, dict[str, list[Hit]]]:
    """mode -> query id -> the top-k seeds ``Retriever.seeds`` returns: the hits of ``legalkg search``."""
    out: dict[Mode, dict[str, list[Hit]]] = {}
    for mode in modes:
        seeds: dict[str, list[Hit]] = {}
        for engine, part in engines.groups(mode, texts):
            seeds.update(engine.seeds(part, level, k, mode, None, vectors, task))
        out[mode] = {q: seeds.get(q, []) for q in texts}
        progress(f"{mode} {level}", len(texts))
    return out


def seed_ids(seeds: Mapping[Mode, Mapping[str, Sequence[Hit]]], queries: Iterable[str] | None = None) -> list[str]:
    """The ids of every expandable seed of every mode (of ``queries`` only, when given)."""
    wanted = None if queries is None else set(queries)
    return [h.id for per_mode in seeds.values() for q, hits in per_mode.items() if wanted is None or q in wanted
            for h in hits if not h.covers]


def level_contexts(engines: Engines, seeds: Mapping[Mode, Mapping[str, Sequence[Hit]]], expansions: set[Expansion],
                   texts: Mapping[str, str], task: Task) -> dict[str, expansion.Context]:
    """query id -> hop -> seed id -> its context. The statute's hops are read once for every distinct
    seed of every mode; ``cocited`` once per engine that answers a query (its CV fold's, whose
    co-citation table holds only that fold's training cases), and ``decisions`` once per such part
    without the part's own decisions (a case is never expanded with its own citations)."""
    hops = {hop for how in expansions for hop in expansion.hops(how)}
    own_hops = sorted(h for h in hops if h.from_cases)
    shared = {hop: expansion.contexts(engines.main, seed_ids(seeds), hop) for hop in sorted(hops) if not hop.from_cases}
    if not own_hops:
        return dict.fromkeys(texts, shared)
    out: dict[str, expansion.Context] = {}
    for engine, part in engines.by_fold(texts):
        ids = seed_ids(seeds, part)
        mine = [uid for q in part for uid in graph_ids(q)]  # the part's own decisions, in either form
        own = {hop: expansion.contexts(engine, ids, hop, task, exclude=mine) for hop in own_hops}
        out.update(dict.fromkeys(part, {**shared, **own}))
    return out


# --- the run -------------------------------------------------------------------------------------

class EvalRun(BaseModel):
    """Everything one evaluation produced: the results table and what is needed to reproduce it."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    dataset: str
    k: int
    cells: list[Cell]
    results: pd.DataFrame
    paired: pd.DataFrame
    case_scores: pd.DataFrame
    coverage: Coverage
    n_cases_loaded: int
    n_cases: int
    max_depth: int
    words: dict[str, LevelWords]
    models: dict[str, dict]
    law_keys: list[str]
    timings: dict[str, float]
    started: str
    gold_count: str = "fixed"
    by_court: pd.DataFrame = Field(default_factory=pd.DataFrame, description="results per court (2+ courts)")
    fold_weights: list[dict[str, float]] = Field(default_factory=list,
                                                 description="the distinct fusion weights of the CV folds")
    fold_rankers: list[dict] = Field(default_factory=list,
                                     description="per CV fold with a ranker: its training and scored cases")
    tuned_all: dict = Field(default_factory=dict, description="task, level, k, weights chosen over all cases")
    gold_laws: list[str] | None = Field(None, description="the laws the gold was narrowed to (--gold-laws)")


def case_task(cases: Sequence[EvalCase]) -> Task:
    """The predictor task of a dataset: ``case`` for decisions (the LER form names a court),
    ``lay`` for questions."""
    return Task.CASE if any(c.meta.get("court") for c in cases) else Task.LAY


@dataclass
class Selection:
    """The cases a run scores: those with gold in the graph's laws (or in those of ``--gold-laws``)."""

    keys: list[str]
    coverage: Coverage
    scored: list[str]
    kept: list[EvalCase]
    texts: dict[str, str]
    max_depth: int

    @property
    def gold(self) -> dict[str, list]:
        return {c.id: c.gold for c in self.kept}


def select_cases(driver: Driver, db: str, cases: Sequence[EvalCase], gold_laws: Sequence[str] | None) -> Selection:
    """Gold outside the graph's laws is dropped (coverage reported). ``gold_laws`` narrows it further,
    for scoring and for the folds' training: two graphs, one with more laws, are then compared on
    the same gold, so the difference is what the added laws cost as distractors."""
    keys = law_keys(driver, db)
    if not keys:
        raise UserError("the graph holds no laws: run `legalkg ingest` first")
    scored = keys if gold_laws is None else sorted(set(keys) & set(gold_laws))
    kept = restrict_to_laws(cases, scored)
    if not kept:
        where = "a law of the graph" if gold_laws is None else "the laws of --gold-laws"
        raise UserError(f"no gold citation of the {len(cases)} cases is in {where} "
                        f"({', '.join(scored[:5])}{'…' if len(scored) > 5 else ''}): ingest the cited laws")
    texts: dict[str, str] = {}
    for c in kept:
        if c.id in texts:
            raise UserError(f"case id {c.id!r} occurs twice in the dataset: ids must be unique")
        texts[c.id] = clean_query(c.query)
    return Selection(keys, coverage(cases, keys), scored, kept, texts, max_depth_of(c.meta for c in kept))


class Timings(dict):
    """step -> seconds; ``with timings.step("embed_s"):`` adds the time of the block."""

    @contextmanager
    def step(self, name: str):
        start = time.perf_counter()
        try:
            yield
        finally:
            self[name] = self.get(name, 0.0) + time.perf_counter() - start


def cell_vectors(engine: Retriever, cells: Sequence[Cell], texts: dict[str, str],
                 progress: Progress) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict]]:
    """level -> query id -> vector for the cells that use them: the vector modes, and the learned
    mode where its level's index holds vectors; ``auto`` uses the § index's."""
    index_of = {c.level: c.level if c.level.indexed else auto.BASE_LEVEL for c in cells}
    wanted = list(dict.fromkeys(index_of[c.level] for c in cells if c.mode.uses_vectors or (
        c.mode is Mode.LEARNED and engine.graph.index_model(index_of[c.level]) is not None)))
    vectors, models = engine.queries.for_levels(texts, wanted, progress) if wanted else ({}, {})
    vectors.update({lv: vectors[ix] for lv, ix in index_of.items() if ix in vectors and lv not in vectors})
    return vectors, models


def learned_engines(driver: Driver, db: str, request: EvalRequest, engine: Retriever, sel: Selection,
                    vectors: Mapping[str, Mapping[str, np.ndarray]], extra: TrainingSet | None) -> tuple[Engines, dict]:
    """The engines of the learned cells, and the weights tuned over all cases (``--save-weights``).

    Without ``--cv`` the engine refuses cases its predictor was trained on (``check_unseen``); with
    it each case is answered by an engine trained on the other folds (``folds``), ``extra`` in every
    fold's training set, with the engine's run weights or, with ``--tune-weights``, those each
    fold's inner CV chose at the first learned level (nested CV), and, where a ranker is shipped
    for the task (``--fold-ranker shipped``, the default), a ranker stacked on the fold's
    training cases, as the shipped engine has one (then the inner CV's engines rank too, each
    with a ranker stacked on its inner training cases)."""
    levels = [c.level for c in request.cells() if c.mode is Mode.LEARNED]
    task = case_task(sel.kept)
    if not levels and not any(c.expansion.cocited for c in request.cells()):
        return Engines(engine), {}
    if not request.cv:
        engine.models.check_unseen(task, sel.texts)
        engines = Engines(engine)
    else:
        level = (levels[0] if levels[0].indexed else auto.BASE_LEVEL) if levels else auto.BASE_LEVEL
        tune = (Tuning(level, request.k, vectors=vectors.get(level), base=engine.models.weights)
                if request.tune_weights and levels else None)
        cases = [(c.id, sel.texts[c.id], c.gold) for c in sel.kept]
        ranked = request.fold_ranker is FoldRanker.SHIPPED and default_ranker_path(task).exists()
        features = RANKER_FEATURES.get(request.ranker_features)
        folds = Folds(request.cv, request.seed, ranked, features)
        engines = Engines(engine, fold_retrievers(driver, db, task, cases, folds, extra=extra,
                                                  weights=tune or engine.models.weights))
        if tune is not None and request.save_weights is not None:
            # the shipped weights fuse a ranked § run when a ranker ships: tune them over one
            chosen, recall = weights_over_all(driver, db, task, cases, replace(tune, ranked=ranked, features=features),
                                              extra, request.seed)
            return engines, {"task": task, "level": str(level), "k": request.k, "weights": chosen,
                             "inner_recall": recall}
    return engines, {}


def fold_rankers(engines: Engines, task: Task) -> list[dict]:
    """Per CV fold whose engine ranks with a ranker of its own: the cases its inner predictors were
    trained on and the cases the fold scores (disjoint, ``folds.fold_ranker``), inner folds, seed."""
    out = []
    for engine in {id(e): e for e in engines.folds.values()}.values():
        ranker = engine.models.ranker(task)
        if ranker is not None:
            out.append({"trained_on": len(ranker.meta.get(TRAINED_ON, ())),
                        "scored": sum(1 for e in engines.folds.values() if e is engine),
                        "inner_folds": ranker.meta.get("inner_folds"), "seed": ranker.meta.get("seed")})
    return out


def set_component_weights(engines: Engines, task: Task, weights: Mapping[str, float] | None) -> None:
    """``--predictor-weights``: every engine's predictor fuses its components with ``weights``."""
    if weights:
        for engine in {id(e): e for e in [*engines.folds.values(), engines.main]}.values():
            engine.models.predictor(task).set_weights(weights)


def score_cells(engines: Engines, request: EvalRequest, sel: Selection, vectors: Mapping, task: Task,
                timings: Timings, progress: Progress) -> tuple[dict[Cell, list], dict[tuple[str, str], dict]]:
    """Per cell the case scores, per (level, mode) the § IR metrics: seeds once per (level, mode),
    each distinct seed's context once per level, every expansion of a level from the same seeds."""
    cells, k = request.cells(), request.k
    scores: dict[Cell, list[metric.CaseScore]] = {}
    ir_rows: dict[tuple[str, str], dict[str, float]] = {}
    gold = sel.gold
    qrels = ir.qrels_from_gold(gold)
    for lv in dict.fromkeys(c.level for c in cells):
        lv_cells = [c for c in cells if c.level == lv]
        modes = list(dict.fromkeys(c.mode for c in lv_cells))
        with timings.step("retrieve_s"):
            seeds = level_seeds(engines, lv, modes, k, sel.texts, vectors.get(lv), task, progress)
        with timings.step("expand_s"):
            exps = {c.expansion for c in lv_cells} - {Expansion.NONE}
            context = level_contexts(engines, seeds, exps, sel.texts, task) if exps and lv.expandable else {}
        with timings.step("score_s"):
            for mode in modes:
                run = ir.run_from_hits({q: ranked_unit_ids(seeds[mode][q]) for q in sel.texts})
                ir_rows[(lv, mode)] = ir.evaluate(qrels, run, k) if qrels else {}
            for cell in lv_cells:
                per_q = seeds[cell.mode]
                scores[cell] = [score_seeds(q, gold[q], per_q[q],
                                            expansion.assemble(per_q[q], context.get(q, {}), cell.expansion),
                                            request.gold_count) for q in sel.texts]
    return scores, ir_rows


def cell_words(cell: Cell, words: LevelWords, scores: Sequence[metric.CaseScore]) -> tuple[float, float]:
    """(W, W^m) of a cell; under ``auto`` (units of several levels) the words the run delivered per hit,
    and for ``cocited`` and ``decisions`` (a context from cases, which the graph cannot average) W^m is
    the words the run delivered per hit, its expansion included."""
    if cell.level.indexed and cell.expansion.from_cases:
        return words.W, metric.delivered_words_per_hit(scores)
    if cell.level.indexed:
        return words.W, words.W_m.get(cell.expansion, words.W)
    W = metric.delivered_words_per_hit(scores)
    if not W > 0:
        raise UserError(f"--level auto, mode {cell.mode}: no case got a hit, so its words per hit "
                        "(the W of auto) are undefined: check the graph holds the dataset's laws")
    return W, W


def tabulate(request: EvalRequest, sel: Selection, words: Mapping[str, LevelWords], scores: Mapping[Cell, list],
             ir_rows: Mapping) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """(results, results per court, the paired test of each mode's best cell against the baseline)."""
    k = request.k
    frames, court_frames = [], []
    court_of = {c.id: c.meta.get("court") for c in sel.kept}
    W_m_of: dict[Cell, float] = {}
    for cell in request.cells():
        W, W_m_of[cell] = cell_words(cell, words[cell.level], scores[cell])
        labels = dict(dataset=request.dataset, level=cell.level, expansion=cell.expansion, mode=cell.mode, k=k,
                      max_depth=sel.max_depth, n_resamples=request.bootstrap, seed=request.seed,
                      gold_count=request.gold_count)
        df = results.results_frame(scores[cell], W, W_m_of[cell], **labels)
        court_frames.append(results.group_frames(scores[cell], court_of, W, W_m_of[cell], **labels))
        irm = ir_rows.get((cell.level, cell.mode), {})
        for column, key in (("recall_at_k", f"recall@{k}"), ("hit_at_k", f"hit@{k}"), ("ndcg_at_k", f"ndcg@{k}")):
            df[column] = irm.get(key, np.nan)
        df["n_ir_queries"] = irm.get("n_queries", 0)
        df["units"] = words[cell.level].units
        frames.append(df)
    table = pd.concat(frames, ignore_index=True)
    paired = compare_to_baseline(table, scores, W_m_of, max_depth=sel.max_depth, n_resamples=request.permutations,
                                 seed=request.seed)
    return table, pd.concat(court_frames, ignore_index=True), paired


def run_eval(driver: Driver, db: str, request: EvalRequest, progress: Progress = _noop,
             cases: Sequence[EvalCase] | None = None) -> EvalRun:
    """The evaluation ``request`` asks for: plan, ``Retriever.seeds``, expand, score.

    The files it names are read here (the dataset unless ``cases`` holds it already, ``--predictor``,
    ``--train-extra``) and ``--gold-laws`` is resolved against the graph."""
    started, timings, t0 = datetime.now(UTC).isoformat(timespec="seconds"), Timings(), time.perf_counter()
    cases = list(datasets.load_dataset(request.dataset) if cases is None else cases)[:request.limit]
    if not cases:
        raise UserError(f"dataset {request.dataset!r} has no cases")
    gold_laws = law_ids(driver, db, request.gold_laws, "--gold-laws") if request.gold_laws is not None else None
    model_file = load_model(request.predictor) if request.predictor is not None else None
    extra = load_examples(list(request.train_extra)) if request.train_extra else None
    engine = Retriever(driver, db, predictors={model_file.task: model_file} if model_file else None,
                       weights=shipped_weights.for_evaluation(request.run_weights(), model_file is not None))
    sel, cells = select_cases(driver, db, cases, gold_laws), request.cells()
    with timings.step("corpus_words_s"):
        words = {lv: level_words(driver, db, lv, [c.expansion for c in cells if c.level == lv])
                 for lv in dict.fromkeys(c.level for c in cells)}
    task = case_task(sel.kept)
    with timings.step("embed_s"):
        vectors, models = cell_vectors(engine, cells, sel.texts, progress)
    with timings.step("train_s"):
        engines, tuned_all = learned_engines(driver, db, request, engine, sel, vectors, extra)
    set_component_weights(engines, task, request.component_weights())
    scores, ir_rows = score_cells(engines, request, sel, vectors, task, timings, progress)
    with timings.step("statistics_s"):
        table, by_court, paired = tabulate(request, sel, words, scores, ir_rows)
    timings["total_s"] = time.perf_counter() - t0
    fold_weights = list({weights_label(r.models.weights): r.models.weights for r in engines.folds.values()}.values())
    rankers = fold_rankers(engines, task) if any(c.mode is Mode.LEARNED for c in cells) else []
    return EvalRun(dataset=request.dataset, k=request.k, cells=cells, results=table, paired=paired,
                   case_scores=case_score_frame(scores), coverage=sel.coverage, n_cases_loaded=len(cases),
                   n_cases=len(sel.kept), max_depth=sel.max_depth, words=words, models=models, law_keys=sel.keys,
                   gold_laws=None if gold_laws is None else sel.scored, timings=dict(timings), started=started,
                   gold_count=request.gold_count, by_court=by_court, fold_weights=fold_weights, tuned_all=tuned_all,
                   fold_rankers=rankers)


def case_score_frame(scores: dict[Cell, list[metric.CaseScore]]) -> pd.DataFrame:
    """Long per-case table (cell x case): n_gold, hits per depth, hits returned, delivered words.

    Written beside the results so paired tests between any two cells can be redone offline.
    """
    rows = []
    for cell, per_case in scores.items():
        for s in per_case:
            row = {"level": cell.level, "expansion": cell.expansion, "mode": cell.mode, "case_id": s.case_id,
                   "n_gold": s.n_gold, "n_hits": s.n_hits, "delivered_words": s.delivered_words}
            row.update({f"hits_{i + 1}": h for i, h in enumerate(s.hits)})
            if s.gold_by_depth is not None:  # gold not counted fixed: |G_d| per depth
                row.update({f"gold_{i + 1}": n for i, n in enumerate(s.gold_by_depth)})
            rows.append(row)
    return pd.DataFrame(rows)


__all__ = ["BASELINE", "EvalRun", "LevelWords", "case_task", "law_keys",
           "level_words", "run_eval"]
