"""Train the fusion model that ``legalkg/data/rank_model.json`` ships (command: ``legalkg rank-train``).

    legalkg rank-train --out legalkg/data/rank_model.json

Trains on GerLayQA dev (or ``--questions PATH``), stores the 5-fold out-of-fold metrics of the
same configuration in the file (``cv``), and the weights of the model fitted on all questions.
Only the out-of-fold numbers are reported anywhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from .. import paths
from ..embed import embed_texts, get_embedder
from .features import FEATURES, Components, QueryVectors, build_features, one_blas_thread
from .learn import (
    N_FOLDS,
    SEED,
    Prepared,
    Question,
    apply_popularity,
    cross_validate,
    evaluate_ranking,
    fold_of,
    gold_counts,
    gold_id,
    load_questions,
    pop_vector,
    top_rows,
    zero_off,
)
from .model import MODEL_VERSION, RankModel, fit_logistic
from .resources import Resources, load_resources
from .text import split_question

DEFAULT_C = 1.0


def default_questions() -> Path:
    return paths.eval_dir() / "gerlayqa" / "dev.jsonl"


def question_vectors(questions: Sequence[Question], model_name: str = "usem3",
                     progress: bool = True) -> list[QueryVectors]:
    """Vectors of every question and its windows through the embedding cache (I/O)."""
    texts: list[str] = []
    spans = []
    for q in questions:
        windows = split_question(q.question)
        spans.append((len(texts), len(windows)))
        texts.append(q.question)
        texts.extend(windows)
    vecs = embed_texts(get_embedder(model_name), texts, progress=progress).vectors
    return [QueryVectors(vecs[s], vecs[s + 1:s + 1 + n]) for s, n in spans]


def all_popular_rows(golds: list[list[str]], res: Resources, comp: Components,
                     n_folds: int = N_FOLDS, seed: int = SEED) -> np.ndarray:
    """Rows that any fold's (or inner fold's, or the full data's) popularity list proposes."""
    n = len(golds)
    folds = fold_of(n, n_folds, seed)
    out: set[int] = set()
    masks = [np.ones(n, bool)] + [folds != f for f in range(n_folds)] + [
        (folds != f) & (folds != g) for f in range(n_folds) for g in range(n_folds) if f != g]
    for m in masks:
        v = pop_vector(gold_counts(golds, m), res.row, len(res.para_ids))
        out.update(top_rows(v, comp.popular_candidates).tolist())
    return np.array(sorted(out), dtype=np.int64)


def prepare(questions: Sequence[Question], res: Resources, vecs: Sequence[QueryVectors],
            comp: Components) -> list[Prepared]:
    """Candidates and labels of every question, popularity left for the fold to fill in."""
    golds = [[gold_id(g) for g in q.gold] for q in questions]
    extra = all_popular_rows(golds, res, comp) if comp.popularity else None
    base_comp = comp.off("popularity")
    out = []
    with one_blas_thread():
        for q, v, g in zip(questions, vecs, golds):
            out.append(_prepare_one(q, v, g, res, base_comp, extra))
    return out


def _prepare_one(q: Question, v: QueryVectors, g: list[str], res: Resources, base_comp: Components,
                 extra: np.ndarray | None) -> Prepared:
    """One question's candidates (popularity off, ``extra`` rows forced in) and 0/1 labels."""
    cand = build_features(q.question, res, v, base_comp, None, extra)
    gset = {res.row[x] for x in g if x in res.row}
    labels = np.array([r in gset for r in cand.rows], dtype=np.float64)
    return Prepared(cand=cand, labels=labels, gold=g)


def fit_final(prepared: list[Prepared], res: Resources, comp: Components, C: float = DEFAULT_C,
              n_folds: int = N_FOLDS, seed: int = SEED):
    """Weights on all questions; each row's popularity comes from the other folds (as in CV)."""
    golds = [p.gold for p in prepared]
    folds = fold_of(len(prepared), n_folds, seed)
    pops = {f: pop_vector(gold_counts(golds, folds != f), res.row, len(res.para_ids))
            for f in range(n_folds)}
    Xs, ys = [], []
    for i, p in enumerate(prepared):
        X, keep = apply_popularity(p, pops[folds[i]], comp)
        Xs.append(zero_off(X[keep], comp))
        ys.append(p.labels[keep])
    return fit_logistic(np.concatenate(Xs), np.concatenate(ys), C)


def train(questions_path: Path, comp: Components, C: float = DEFAULT_C, progress: bool = True,
          command: str = "") -> RankModel:
    """Cross-validate, then fit on all questions; ``command`` is recorded in the model file."""
    questions = load_questions(questions_path)
    res = load_resources(progress=progress)
    vecs = question_vectors(questions, res.model_name or "usem3", progress)
    prepared = prepare(questions, res, vecs, comp)
    ranked, _ = cross_validate(prepared, res.para_ids, res.row, comp, C)
    m = np.array([evaluate_ranking(r, p.gold) for r, p in zip(ranked, prepared)])
    mean, scale, coef, b = fit_final(prepared, res, comp, C)
    pop = gold_counts([p.gold for p in prepared], np.ones(len(prepared), bool))
    return RankModel(
        version=MODEL_VERSION, features=list(FEATURES), mean=[float(x) for x in mean],
        scale=[float(x) for x in scale], coef=[round(float(x), 6) for x in coef],
        intercept=round(b, 6), components=comp,
        popularity={k: int(v) for k, v in sorted(pop.items()) if k in res.row},
        trained_on=questions_path.name if questions_path == default_questions()
        else str(questions_path),
        n_questions=len(questions), command=command,
        cv={"recall10": round(float(m[:, 0].mean()), 4), "hit10": round(float(m[:, 1].mean()), 4),
            "recall100": round(float(m[:, 2].mean()), 4), "folds": N_FOLDS, "seed": SEED},
    )
