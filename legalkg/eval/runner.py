"""Run a dataset through retrieval configurations over a live graph -> the results table.

Why a batch runner beside ``legalkg.retrieve.Retriever``: the grid is levels x expansions x modes
for thousands of queries. Done one ``Retriever.search`` at a time, that is ~10 round trips per
query and cell. Here:

* each query is embedded **once per model** (all indexes recorded with the same model share the
  vector) and the vector is reused in every cell;
* seeds depend on (level, mode) only: they are fetched once, for many queries per round trip
  (``cypher/eval/*_batch.cypher``, the batch form of ``cypher/retrieve/*.cypher`` with the same
  over-fetch), and fusion is computed from the vector and full-text pools like ``Retriever``;
* the learned mode runs the engine itself (``Retriever.learned_hits``), query by query, with the
  query vectors computed here; a shipped predictor is never scored on cases it was trained on;
* expansion contexts are fetched once per distinct seed with the retrieval module's own
  ``retrieve/expand_parent`` / ``retrieve/expand_citation`` queries;
* W (mean words per unit) and W^m (mean words delivered incl. expansion) come from the whole graph
  (``cypher/eval/mean_words``, ``cypher/eval/delivered_words``).

The integration test checks that the seeds equal ``Retriever.search`` for the same vector.
Gold is restricted to the laws in the graph (``datasets.restrict_to_laws``); coverage is reported.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime

import numpy as np
import pandas as pd
from neo4j import Driver
from pydantic import BaseModel, ConfigDict, Field

from .. import paths
from ..embed import EmbeddingCache, text_key
from ..errors import UserError
from ..graph.cypher import labelled, query
from ..graph.vectors import law_ids
from ..predict import TrainingSet, load_examples, load_model
from ..retrieve import Hit, Retriever, clean_query, expand as expansion, weights as shipped_weights
from ..retrieve.learned import weights_label
from ..vocab import Expansion, Mode, RetrievalLevel, Task, check_k, parse_level
from . import datasets, ir, metric, results, stats
from .datasets import Coverage, EvalCase, coverage, restrict_to_laws
from .folds import Tuning, fold_retrievers, weights_over_all
from .grid import (
    BASELINE,
    Cell,
    compare_to_baseline,
    make_cell,
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
    wanted = [Expansion(e) for e in expansions if e != Expansion.NONE]
    if wanted:
        if not level.expandable:
            W_m.update({e: W for e in wanted})
        else:
            d = driver.execute_query(labelled("eval/delivered_words", label=level), database_=db).records[0]
            W_m.update({e: float(d[e]) for e in wanted})
    return LevelWords(level=level, units=int(rec["units"]), W=W, W_m=W_m)


def recorded_models(driver: Driver, db: str) -> dict[str, dict]:
    """Vector index label -> the model recorded for it (name, version, dim)."""
    return {r["level"] or r["index"].removeprefix("vector_"): r.data()
            for r in driver.execute_query(query("embedding_models"), database_=db).records}


# --- retrieval through the engine ----------------------------------------------------------------

def _batches(items: Sequence, size: int):
    for start in range(0, len(items), size):
        yield items[start:start + size]


def level_seeds(engine: Retriever, folds: Mapping[str, Retriever], level: RetrievalLevel, modes: Sequence[Mode],
                k: int, texts: dict[str, str], vectors: Mapping[str, np.ndarray] | None, task: Task,
                progress: Progress = _noop) -> dict[Mode, dict[str, list[Hit]]]:
    """mode -> query id -> the top-k seeds ``engine.seeds`` returns: the hits of ``legalkg search``.

    A learned mode asks each case's fold engine (``folds``, ``--cv``) where there is one: the
    queries of one engine go as one batch."""
    out: dict[Mode, dict[str, list[Hit]]] = {}
    for mode in modes:
        groups: dict[int, tuple[Retriever, dict[str, str]]] = {}
        for q, text in texts.items():
            own = folds.get(q, engine) if getattr(engine.strategies[mode], "uses_predictor", False) else engine
            groups.setdefault(id(own), (own, {}))[1][q] = text
        seeds: dict[str, list[Hit]] = {}
        for own, part in groups.values():
            seeds.update(own.seeds(part, level, k, mode, None, vectors, task))
        out[mode] = {q: seeds.get(q, []) for q in texts}
        progress(f"{mode} {level}", len(texts))
    return out


def level_context(engine: Retriever, seeds: Mapping[Mode, Mapping[str, Sequence[Hit]]],
                  expansions: set[Expansion]) -> expansion.Context:
    """hop -> seed id -> its context, read once for every distinct seed of every mode."""
    ids = [h.id for per_mode in seeds.values() for hits in per_mode.values() for h in hits if not h.covers]
    hops = {hop for how in expansions for hop in expansion.hops(how)}
    return {hop: expansion.contexts(engine, ids, hop) for hop in sorted(hops)}


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
    tuned_all: dict = Field(default_factory=dict, description="task, level, k, weights chosen over all cases")
    gold_laws: list[str] | None = Field(None, description="the laws the gold was narrowed to (--gold-laws)")


def query_cache(embedder):
    """The on-disk cache of *query* vectors: ``<cache_dir>/eval-queries/<model>/`` (kept apart from the
    document cache, as asymmetric models embed queries differently)."""
    return EmbeddingCache.for_embedder(embedder, root=paths.cache_dir() / "eval-queries")


def _embed_cached(embedder, texts: list[str], what: str, progress: Progress) -> np.ndarray:
    """Query vectors for ``texts``, from the query cache where present; new ones are stored."""
    keys = [text_key(t) for t in texts]
    distinct = list(dict.fromkeys(keys))
    first = {key: i for i, key in reversed(list(enumerate(keys)))}  # key -> first text with it
    with query_cache(embedder) as cache:
        have = cache.get_many(distinct)
        todo = [key for key in distinct if key not in have]
        progress(what, len(distinct) - len(todo))
        for part in _batches(todo, 64):
            vecs = embedder.embed_queries([texts[first[key]] for key in part])
            have.update(zip(part, vecs))
            cache.put_many(zip(part, vecs))
            progress(what, len(part))
    out = np.empty((len(texts), embedder.dim), dtype=np.float32)
    for i, key in enumerate(keys):
        out[i] = have[key]
    return out


def embed_queries(engine: Retriever, texts: dict[str, str], levels: Sequence[RetrievalLevel],
                  progress: Progress = _noop, cache: bool = True) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict]]:
    """level -> query id -> vector; each query is embedded once per distinct recorded model, with
    the embedder the engine checks and loads (``Retriever.embedder_for``: the recorded version).

    With ``cache`` the vectors are kept on disk (``query_cache``), so a rerun of a grid embeds nothing.
    """
    models = {lv: engine.index_model(lv) for lv in levels}
    missing = [lv for lv in levels if models[lv] is None]
    if missing:
        raise UserError(f"the graph has no {', '.join(missing)} vectors: run `legalkg ingest` "
                        "(without --no-embed), or use --mode fulltext")
    by_model: dict[str, list[RetrievalLevel]] = defaultdict(list)
    for lv in levels:
        by_model[models[lv]["name"]].append(lv)
    ids = list(texts)
    out: dict[str, dict[str, np.ndarray]] = {}
    for name, lvs in by_model.items():
        embedder = engine.embedder_for(lvs[0])
        for lv in lvs[1:]:
            engine.embedder_for(lv)  # the version check of each level's index
        ordered = [texts[q] for q in ids]
        if cache:
            matrix = _embed_cached(embedder, ordered, f"embed {name}", progress)
        else:
            parts = []
            for part in _batches(ordered, 64):
                parts.append(embedder.embed_queries(part))
                progress(f"embed {name}", len(part))
            matrix = np.concatenate(parts) if parts else np.empty((0, embedder.dim), dtype=np.float32)
        per_query = {q: matrix[i] for i, q in enumerate(ids)}
        for lv in lvs:
            out[lv] = per_query
    return out, {lv: models[lv] for lv in levels}


def case_task(cases: Sequence[EvalCase]) -> Task:
    """The predictor task of a dataset: ``case`` for decisions (the LER form names a court),
    ``lay`` for questions."""
    return Task.CASE if any(c.meta.get("court") for c in cases) else Task.LAY


def run_eval(driver: Driver, db: str, request: EvalRequest, progress: Progress = _noop,
             cases: Sequence[EvalCase] | None = None) -> EvalRun:
    """The evaluation ``request`` asks for: its dataset scored in every cell over the graph.

    The files it names are read here (the dataset unless ``cases`` holds it already, ``--predictor``,
    ``--train-extra``) and ``--gold-laws`` is resolved against the graph; ``score_run`` does the rest."""
    cases = datasets.load_dataset(request.dataset) if cases is None else cases
    if request.limit is not None:
        cases = cases[:request.limit]
    if not cases:
        raise UserError(f"dataset {request.dataset!r} has no cases")
    gold_laws = law_ids(driver, db, request.gold_laws, "--gold-laws") if request.gold_laws is not None else None
    model_file = load_model(request.predictor) if request.predictor is not None else None
    extra = load_examples(list(request.train_extra)) if request.train_extra else None
    retriever = Retriever(driver, db, predictors={model_file.task: model_file} if model_file else None,
                          weights=shipped_weights.for_evaluation(request.run_weights(), model_file is not None))
    return score_run(driver, db, cases, request.cells(), dataset=request.dataset, k=request.k,
                     n_resamples=request.bootstrap, seed=request.seed, n_permutations=request.permutations,
                     progress=progress, gold_count=request.gold_count, retriever=retriever, cv_folds=request.cv,
                     train_extra=extra, tune_weights=request.tune_weights,
                     weights_over_all_cases=request.save_weights is not None,
                     predictor_weights=request.component_weights(), gold_laws=gold_laws)


def score_run(driver: Driver, db: str, cases: Sequence[EvalCase], cells: Sequence[Cell], *, dataset: str,
             k: int = 5, n_resamples: int = stats.DEFAULT_RESAMPLES, seed: int = stats.DEFAULT_SEED,
             n_permutations: int = 10_000, progress: Progress = _noop, gold_count: str = "fixed",
             retriever: Retriever | None = None, cv_folds: int | None = None,
             train_extra: TrainingSet | None = None, tune_weights: bool = False,
             weights_over_all_cases: bool = False,
             predictor_weights: Mapping[str, float] | None = None,
             gold_laws: Sequence[str] | None = None) -> EvalRun:
    """Score ``cases`` in every cell (``run_eval``'s work on its resolved request); gold outside
    the graph's laws is dropped (coverage reported).

    ``gold_laws`` (law ids) narrows the gold further, for scoring and for the folds' training: two
    graphs, one with more laws, are then compared on the same gold citations, so the difference is
    what the added laws cost as distractors, not a different, harder set of gold.

    Learned cells use ``retriever`` (default: a fresh one with the shipped predictors) and refuse
    to run where its predictor was trained on any of the cases (``Retriever.check_unseen``); with
    ``cv_folds`` each case is answered by an engine trained on the other folds
    (``legalkg.eval.folds``, grouped by case, fold seed ``seed``), ``train_extra``'s examples
    added to every fold's training set (never scored), and ``retriever``'s run weights, or with
    ``tune_weights`` the weights each fold's inner CV chose at the first learned level (nested CV);
    ``weights_over_all_cases`` also chooses weights by that inner CV over all cases (the ones to
    ship: ``EvalRun.tuned_all``, no score is given for them). ``predictor_weights`` fuses the
    predictor's components (``nb``, ``knn``, ``bridge``, ``pop``) with these weights in every
    engine (the ablation; ``pop`` alone is the popularity baseline of the training folds)."""
    started = datetime.now(UTC).isoformat(timespec="seconds")
    t0 = time.perf_counter()
    metric.check_gold_count(gold_count)
    check_k(k)
    cells = [make_cell(*c) for c in cells]
    keys = law_keys(driver, db)
    if not keys:
        raise UserError("the graph holds no laws: run `legalkg ingest` first")
    cov = coverage(cases, keys)
    scored = keys if gold_laws is None else sorted(set(keys) & set(gold_laws))
    kept = restrict_to_laws(cases, scored)
    if not kept:
        where = "a law of the graph" if gold_laws is None else "the laws of --gold-laws"
        raise UserError(f"no gold citation of the {len(cases)} cases is in {where} "
                        f"({', '.join(scored[:5])}{'…' if len(scored) > 5 else ''}): ingest the cited laws")
    max_depth = max_depth_of(c.meta for c in kept)
    texts: dict[str, str] = {}
    for c in kept:
        if c.id in texts:
            raise UserError(f"case id {c.id!r} occurs twice in the dataset: ids must be unique")
        texts[c.id] = clean_query(c.query)
    gold = {c.id: c.gold for c in kept}
    levels = list(dict.fromkeys(c.level for c in cells))
    timings: dict[str, float] = {}

    t = time.perf_counter()
    words = {lv: level_words(driver, db, lv, [c.expansion for c in cells if c.level == lv]) for lv in levels}
    timings["corpus_words_s"] = time.perf_counter() - t

    task = case_task(kept)
    retriever = retriever or Retriever(driver, db)
    folds: dict[str, Retriever] = {}
    learned_levels = [c.level for c in cells if c.mode is Mode.LEARNED]
    tuned_all: dict = {}
    if learned_levels and not cv_folds:
        if train_extra is not None or tune_weights:
            raise UserError("--train-extra and --tune-weights need --cv N: they act inside each fold")
        retriever.check_unseen(task, texts)
    if predictor_weights and tune_weights:
        raise UserError("--predictor-weights and --tune-weights: choose one (the inner CV tunes with the "
                        "predictor's own component weights)")

    t = time.perf_counter()
    # the learned mode uses a level's vectors where it has them (embedded here, once per model)
    with_vectors = set(recorded_models(driver, db)) if learned_levels else set()
    index_of = {lv: lv if lv.indexed else RetrievalLevel.PARAGRAPH for lv in levels}  # auto: the § index
    vector_levels = list(dict.fromkeys(index_of[lv] for lv in levels if any(c.level == lv and (
        c.mode.uses_vectors or (c.mode is Mode.LEARNED and index_of[lv] in with_vectors)) for c in cells)))
    vectors, models = embed_queries(retriever, texts, vector_levels, progress) if vector_levels else ({}, {})
    vectors.update({lv: vectors[index_of[lv]] for lv in levels if index_of[lv] in vectors and lv not in vectors})
    timings["embed_s"] = time.perf_counter() - t

    if learned_levels and cv_folds:
        t = time.perf_counter()
        tune_level = index_of[learned_levels[0]]
        tune = Tuning(tune_level, k, vectors=vectors.get(tune_level)) if tune_weights else None
        folds = fold_retrievers(driver, db, task, [(c.id, texts[c.id], c.gold) for c in kept], cv_folds, seed,
                                extra=train_extra, weights=retriever.weights, tune=tune)
        if tune is not None and weights_over_all_cases:
            chosen, inner_recall = weights_over_all(driver, db, task, [(c.id, texts[c.id], c.gold) for c in kept],
                                                    tune, train_extra, retriever.weights, seed)
            tuned_all = {"task": task, "level": str(tune.level), "k": k, "weights": chosen,
                         "inner_recall": inner_recall}
        timings["train_s"] = time.perf_counter() - t
    fold_weights = list({weights_label(r.weights): r.weights for r in folds.values()}.values())
    if learned_levels and predictor_weights:
        engines = list({id(r): r for r in folds.values()}.values()) if folds else [retriever]
        for engine in engines:
            engine.predictor(task).set_weights(predictor_weights)

    scores: dict[Cell, list[metric.CaseScore]] = {}
    ir_rows: dict[tuple[str, str], dict[str, float]] = {}
    qrels = ir.qrels_from_gold(gold)
    timings["retrieve_s"] = timings["expand_s"] = timings["score_s"] = 0.0
    for lv in levels:
        lv_cells = [c for c in cells if c.level == lv]
        modes = list(dict.fromkeys(c.mode for c in lv_cells))
        t = time.perf_counter()
        seeds = level_seeds(retriever, folds, lv, modes, k, texts, vectors.get(lv), task, progress)
        timings["retrieve_s"] += time.perf_counter() - t
        t = time.perf_counter()
        exps = {c.expansion for c in lv_cells} - {Expansion.NONE}
        context = level_context(retriever, seeds, exps) if exps and lv.expandable else {}
        timings["expand_s"] += time.perf_counter() - t
        t = time.perf_counter()
        for mode in modes:
            run = ir.run_from_hits({q: ranked_unit_ids(seeds[mode].get(q, [])) for q in texts})
            ir_rows[(lv, mode)] = ir.evaluate(qrels, run, k) if qrels else {}
        for cell in lv_cells:
            per_q = seeds[cell.mode]
            scores[cell] = [score_seeds(q, gold[q], per_q.get(q, []),
                                        expansion.assemble(per_q.get(q, []), context, cell.expansion),
                                        gold_count) for q in texts]
        timings["score_s"] += time.perf_counter() - t

    t = time.perf_counter()
    frames, court_frames = [], []
    court_of = {c.id: c.meta.get("court") for c in kept}
    W_m_of: dict[Cell, float] = {}
    for cell in cells:
        lw = words[cell.level]
        if cell.level.indexed:
            W, W_m_of[cell] = lw.W, lw.W_m.get(cell.expansion, lw.W)
        else:  # auto returns units of several levels: W (and W^m) is the words the run delivered per hit
            W = W_m_of[cell] = metric.delivered_words_per_hit(scores[cell])
            if not W > 0:
                raise UserError(f"--level auto, mode {cell.mode}: no case got a hit, so its words per hit "
                                "(the W of auto) are undefined: check the graph holds the dataset's laws")
        row_args = dict(dataset=dataset, level=cell.level, expansion=cell.expansion, mode=cell.mode, k=k,
                        max_depth=max_depth, n_resamples=n_resamples, seed=seed, gold_count=gold_count)
        df = results.results_frame(scores[cell], W, W_m_of[cell], **row_args)
        court_frames.append(results.group_frames(scores[cell], court_of, W, W_m_of[cell], **row_args))
        irm = ir_rows.get((cell.level, cell.mode), {})
        df["recall_at_k"] = irm.get(f"recall@{k}", np.nan)
        df["hit_at_k"] = irm.get(f"hit@{k}", np.nan)
        df["ndcg_at_k"] = irm.get(f"ndcg@{k}", np.nan)
        df["n_ir_queries"] = irm.get("n_queries", 0)
        df["units"] = lw.units
        frames.append(df)
    table = pd.concat(frames, ignore_index=True)
    paired = compare_to_baseline(table, scores, W_m_of, max_depth=max_depth, n_resamples=n_permutations,
                                 seed=seed)
    timings["statistics_s"] = time.perf_counter() - t
    timings["total_s"] = time.perf_counter() - t0
    return EvalRun(dataset=dataset, k=k, cells=list(cells), results=table, paired=paired,
                   case_scores=case_score_frame(scores), coverage=cov, n_cases_loaded=len(cases),
                   n_cases=len(kept), max_depth=max_depth, words=words, models=models, law_keys=keys,
                   gold_laws=None if gold_laws is None else scored,
                   timings=timings, started=started, gold_count=gold_count,
                   by_court=pd.concat(court_frames, ignore_index=True), fold_weights=fold_weights,
                   tuned_all=tuned_all)


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


__all__ = ["BASELINE", "EvalRun", "LevelWords", "case_task", "embed_queries", "law_keys",
           "level_words", "run_eval", "score_run"]
