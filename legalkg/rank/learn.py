"""Training data, cross-validation and metrics for the fusion model.

Honesty rules (the numbers in docs/retrieval-quality.md come from here):
- Folds are over questions (each question is its own group), 5 of them, fixed seed.
- Out-of-fold predictions only: a question's ranking comes from a model that never saw it.
- The popularity prior is itself learned from gold labels, so it is nested: a test question in
  fold f sees counts from the other folds; a *training* question in fold g (while f is held
  out) sees counts from the folds other than f and g, so the model never learns from a
  popularity value that contains its own row's label.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from pydantic import BaseModel

from ..errors import UserError
from .features import COMPONENT_FEATURES, FEATURES, Candidates, Components, popularity_score, source_mask
from .model import fit_logistic

N_FOLDS = 5
SEED = 0
POP_COL = FEATURES.index("popularity")


class Question(BaseModel):
    """One evaluation question: the JSONL contract ``{id, question, gold}``."""

    id: str
    question: str
    gold: list[str]


def gold_id(citation: str) -> str:
    """'BGB § 573b' -> 'BGB/§573b' (the Paragraph id); 'Art. 3 GG' style is not in GerLayQA."""
    law, _, rest = citation.partition(" ")
    rest = rest.replace(" ", "")
    return f"{law}/{rest}"


def load_questions(path: Path) -> list[Question]:
    """Read a JSONL of {id, question, gold}; one clear UserError line for bad input (I/O)."""
    if not Path(path).exists():
        raise UserError(f"questions file {path} not found: pass --questions PATH to a JSONL file")
    out: list[Question] = []
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                out.append(Question.model_validate(json.loads(line)))
            except Exception as err:  # noqa: BLE001 - reported as one line
                raise UserError(f"{path}:{n}: not a {{id, question, gold}} JSON object "
                                f"({str(err).splitlines()[0]})") from None
    if not out:
        raise UserError(f"{path}: no questions: expected one {{id, question, gold}} per line")
    return out


def fold_of(n: int, n_folds: int = N_FOLDS, seed: int = SEED) -> np.ndarray:
    """Fold index per question (a seeded permutation, sizes differ by at most one)."""
    perm = np.random.default_rng(seed).permutation(n)
    folds = np.empty(n, dtype=np.int64)
    folds[perm] = np.arange(n) % n_folds
    return folds


def gold_counts(golds: list[list[str]], mask: np.ndarray) -> Counter:
    c: Counter = Counter()
    for g, m in zip(golds, mask):
        if m:
            c.update(set(g))
    return c


def pop_vector(counts: Counter, row: dict[str, int], n: int) -> np.ndarray:
    total = float(sum(counts.values()))
    v = np.zeros(n, dtype=np.float32)
    for pid, c in counts.items():
        r = row.get(pid)
        if r is not None:
            v[r] = popularity_score(c, total)
    return v


def top_rows(v: np.ndarray, k: int) -> np.ndarray:
    top = np.argsort(-v, kind="stable")[:k]
    return top[v[top] > 0]


@dataclass
class Prepared:
    """One question's candidates before the popularity column is filled in."""

    cand: Candidates
    labels: np.ndarray  # 1.0 where the row is a gold §
    gold: list[str]


def apply_popularity(p: Prepared, pop: np.ndarray | None, comp: Components) -> tuple[np.ndarray,
                                                                                     np.ndarray]:
    """(X, keep mask) for one question under one popularity vector, as ``build_features`` does."""
    X = p.cand.X.copy()
    keep = (p.cand.sources & source_mask(comp)) != 0
    if comp.popularity and pop is not None:
        X[:, POP_COL] = pop[p.cand.rows]
        top = set(top_rows(pop, comp.popular_candidates).tolist())
        keep |= np.array([r in top for r in p.cand.rows], dtype=bool)
    else:
        X[:, POP_COL] = 0.0
    return X, keep


def zero_off(X: np.ndarray, comp: Components) -> np.ndarray:
    for name, feats in COMPONENT_FEATURES.items():
        if not getattr(comp, name):
            for f in feats:
                X[:, FEATURES.index(f)] = 0.0
    return X


class Metrics(BaseModel):
    recall10: list[float]
    hit10: list[float]
    recall100: list[float]


def evaluate_ranking(ranked: list[str], gold: list[str]) -> tuple[float, float, float]:
    """(Recall@10, hit@10, Recall@100) over distinct gold §§."""
    g = set(gold)
    if not g:
        return 0.0, 0.0, 0.0
    top10 = set(ranked[:10])
    top100 = set(ranked[:100])
    h10 = len(g & top10)
    return h10 / len(g), float(h10 > 0), len(g & top100) / len(g)


def cross_validate(prepared: list[Prepared], para_ids: list[str], row: dict[str, int],
                   comp: Components, C: float = 1.0, n_folds: int = N_FOLDS,
                   seed: int = SEED) -> tuple[list[list[str]], list[np.ndarray]]:
    """Out-of-fold rankings (top 100 ids per question) and the per-fold coefficient vectors."""
    n = len(prepared)
    n_para = len(para_ids)
    folds = fold_of(n, n_folds, seed)
    golds = [p.gold for p in prepared]
    ranked: list[list[str]] = [[] for _ in range(n)]
    coefs = []
    for f in range(n_folds):
        test = folds == f
        pop_test = pop_vector(gold_counts(golds, ~test), row, n_para)
        inner = {g: pop_vector(gold_counts(golds, (folds != f) & (folds != g)), row, n_para)
                 for g in range(n_folds) if g != f}
        Xs, ys = [], []
        for i in np.flatnonzero(~test):
            X, keep = apply_popularity(prepared[i], inner[folds[i]], comp)
            Xs.append(zero_off(X[keep], comp))
            ys.append(prepared[i].labels[keep])
        mean, scale, coef, b = fit_logistic(np.concatenate(Xs), np.concatenate(ys), C)
        coefs.append(coef)
        for i in np.flatnonzero(test):
            X, keep = apply_popularity(prepared[i], pop_test, comp)
            X = zero_off(X[keep], comp)
            s = ((X - mean) / scale) @ coef + b
            rows = prepared[i].cand.rows[keep]
            order = np.argsort(-s, kind="stable")[:100]
            ranked[i] = [para_ids[r] for r in rows[order]]
    return ranked, coefs


def popularity_baseline(golds: list[list[str]], n_folds: int = N_FOLDS,
                        seed: int = SEED) -> list[list[str]]:
    """The same 100 most frequent gold §§ of the training folds for every test question."""
    n = len(golds)
    folds = fold_of(n, n_folds, seed)
    out: list[list[str]] = [[] for _ in range(n)]
    for f in range(n_folds):
        test = folds == f
        ranking = [pid for pid, _ in sorted(gold_counts(golds, ~test).items(),
                                            key=lambda kv: (-kv[1], kv[0]))][:100]
        for i in np.flatnonzero(test):
            out[i] = ranking
    return out
