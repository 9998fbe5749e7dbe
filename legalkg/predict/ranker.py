"""The learned ranker: LightGBM LambdaRank over the predictor's § candidates, and its model file.

Why LambdaRank: it optimises the order of each query's list (nDCG) directly from the features of
``rankfeatures.py``, so a unit that two components like moderately can pass one that a single
component likes a lot, which rank fusion cannot express. Its training rows must be out-of-fold: the
features of a case come from a predictor that never saw the case (``fit_stacked``), as they will at
search time, or the ranker learns to trust components that memorised their training cases.

Parameters are fixed (``PARAMS``), not tuned: the cross-validation of eval/ranker/ decides only whether the
ranker is shipped. ``explain`` gives every feature's contribution to a unit's score (LightGBM's
``pred_contrib``, SHAP values of the trees), which ``legalkg search --explain`` shows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import lightgbm as lgb
import numpy as np

from ..errors import UserError
from ..model import Level
from . import cocite as cocitemod
from .cv import grouped_folds
from .examples import TrainingSet
from .predictor import Predictor
from .rankfeatures import DEFAULT_FEATURES, FEATURES, Candidates, Context, UnitFacts, assemble, law_shares

FORMAT = "legalkg-ranker"
FORMAT_VERSION = 1
#: (A file names its features; any subset of ``rankfeatures.FEATURES`` loads, so the files written
#: before ``TEXT_FEATURES`` existed still do: their feature set did not change.)
PARAMS: dict = {"objective": "lambdarank", "n_estimators": 100, "learning_rate": 0.1, "num_leaves": 31,
                "min_child_samples": 50, "subsample": 0.8, "subsample_freq": 1, "colsample_bytree": 0.8,
                "lambdarank_truncation_level": 20, "verbose": -1, "n_jobs": 1}
#: (n_jobs 1: under load, OpenMP worker threads that spin cost far more than they give.)
#: Queries scored per feature batch (bounds the dense (queries x units) score matrices).
BATCH = 128
PARA = Level.PARAGRAPH.value
#: Hits per query whose feature contributions are computed (``Ranker.explain``).
EXPLAINED = 10
#: The part every ranked row carries (value 0): the ranker, not the components' RRF, ordered it.
RANKED = "ranker"


def para_labels(data: TrainingSet) -> list[list[str]]:
    """Each example's § labels (the ranker's relevance and the co-citation counts)."""
    return [[lab for lab in e.labels if lab.count("/") == 1] for e in data.examples]


def candidates(pred: Predictor, texts: Sequence[str], cocite: cocitemod.CoCitation | None,
               facts: UnitFacts) -> list[Candidates]:
    """Feature rows of every query's § candidates under ``pred`` (in batches of ``BATCH``)."""
    para = pred.levels.get(PARA)
    share = law_shares(dict(zip(para.labels, para.popularity)) if para else {}, 0)
    ctx = Context(facts, share, cocite)
    out: list[Candidates] = []
    for start in range(0, len(texts), BATCH):
        batch = list(texts[start:start + BATCH])
        parts = pred.component_scores(batch, PARA)
        if pred.statutes is not None and pred.statutes.ids:
            lex = (pred.statutes.vectoriser.transform(batch) @ pred.statutes.cols).toarray()
            parts["lex"] = (pred.statutes.ids, np.asarray(lex, dtype=np.float32))
        fused = pred.fuse({k: v for k, v in parts.items() if k != "lex"}, len(batch), pred.config.candidates)
        out.extend(assemble(parts, [[(u, s) for u, s, _ in row] for row in fused], batch, ctx))
    return out


@dataclass
class Ranker:
    task: str
    booster: lgb.Booster
    cocite: cocitemod.CoCitation | None
    meta: dict = field(default_factory=dict)
    facts: UnitFacts | None = None
    #: § id -> (cited by, cites) §§, from the laws it was trained on (``units.cites_degrees``)
    degrees: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    #: the features its trees read, columns of ``rankfeatures.FEATURES``
    features: tuple[str, ...] = DEFAULT_FEATURES

    @property
    def columns(self) -> np.ndarray:
        return feature_columns(self.features)

    def attach_units(self, units: Mapping[str, str], ids: Sequence[str]) -> Ranker:
        """Unit facts of ``ids`` (length, title and, where its features need them, the BM25 and
        vector matchers) from their texts, the same texts the bridge reads, with the citation
        degrees stored in the ranker."""
        self.facts = UnitFacts.build(units, ids, self.degrees, matchers=uses_text(self.features))
        return self

    def explain(self, pred: Predictor, texts: Sequence[str], k: int = 10, contributions: bool = True,
                ) -> list[list[tuple[str, float, dict[str, float]]]]:
        """Per text the ``k`` best § ids, their ranker score and their parts: ``RANKED`` (the mark
        that the ranker ordered them) and, with ``contributions``, for the first ``EXPLAINED`` each
        feature's contribution, named ``ranker.<feature>`` as ``legalkg search --explain`` shows
        them (they cost thirty times the scores, so only the hits a reader sees get them, and only
        when asked)."""
        facts = self.facts or UnitFacts({}, {})
        cols, names = self.columns, [f"ranker.{f}" for f in self.features]
        out = []
        for cand in candidates(pred, texts, self.cocite, facts):
            if not cand.ids:
                out.append([])
                continue
            x = cand.x[:, cols]
            score = self.booster.predict(x, num_threads=1)
            order = np.lexsort((np.array(cand.ids), -score))[:k]
            shown = order[:EXPLAINED] if contributions else order[:0]
            contrib = self.booster.predict(x[shown], pred_contrib=True, num_threads=1) if len(shown) else ()
            out.append([(cand.ids[j], float(score[j]),
                         {RANKED: 0.0, **(dict(zip(names, map(float, contrib[n, :-1]))) if n < len(contrib) else {})})
                        for n, j in enumerate(order)])
        return out

    def rank(self, pred: Predictor, texts: Sequence[str], k: int = 10) -> list[list[tuple[str, float]]]:
        return [[(u, s) for u, s, _ in row] for row in self.explain(pred, texts, k, contributions=False)]


def feature_columns(features: Sequence[str]) -> np.ndarray:
    """The columns of ``features`` in the rows ``rankfeatures.assemble`` builds."""
    at = {f: j for j, f in enumerate(FEATURES)}
    return np.array([at[f] for f in features], dtype=np.int64)


def uses_text(features: Sequence[str]) -> bool:
    """Whether ``features`` need the BM25 or vector matchers (``UnitFacts.build(matchers=True)``)."""
    return any(f.startswith(("bm25_", "vec_")) for f in features)


def fit_booster(cands: Sequence[Candidates], golds: Sequence[set[str]], seed: int = 0,
                features: Sequence[str] = DEFAULT_FEATURES) -> lgb.Booster:
    """LambdaRank on the candidates' ``features`` columns (relevance 1 for a gold §); queries without
    a gold candidate teach nothing to a listwise loss and are left out."""
    keep = [i for i, (c, g) in enumerate(zip(cands, golds)) if g & set(c.ids)]
    if not keep:
        raise UserError("no training case has a gold § among its candidates: the ranker cannot learn")
    x = np.vstack([cands[i].x for i in keep])[:, feature_columns(features)]
    y = np.concatenate([[1 if u in golds[i] else 0 for u in cands[i].ids] for i in keep])
    model = lgb.LGBMRanker(**PARAMS, random_state=seed)
    model.fit(x, y, group=[len(cands[i].ids) for i in keep], feature_name=list(features))
    return model.booster_


def fit_stacked(data: TrainingSet, fit: Callable[[TrainingSet], Predictor], facts: UnitFacts,
                n_folds: int = 5, seed: int = 0, features: Sequence[str] = DEFAULT_FEATURES) -> Ranker:
    """A ranker for a predictor trained on all of ``data``: its rows are out-of-fold features (inner
    predictors and co-citation counts from the other folds only), its co-citation table that of all
    of ``data``; it reads ``features`` (``facts`` must carry what they need: the matchers for
    BM25 and vector features, the degrees for ``cites_*``)."""
    labels = para_labels(data)
    cands: list[Candidates | None] = [None] * len(data.examples)
    for train_idx, test_idx in grouped_folds([e.group for e in data.examples], n_folds, seed):
        inner = TrainingSet(data.task, [data.examples[i] for i in train_idx], data.sources)
        table = cocitemod.fit([labels[i] for i in train_idx])
        for i, c in zip(test_idx, candidates(fit(inner), [data.examples[i].text for i in test_idx], table, facts)):
            cands[i] = c
    booster = fit_booster([c for c in cands if c is not None], [set(g) for g in labels], seed, features)
    meta = {"n_examples": len(data.examples), "sources": list(data.sources), "inner_folds": n_folds, "seed": seed}
    degrees = dict(facts.degrees) if any(f.startswith("cites_") for f in features) else {}
    return Ranker(data.task, booster, cocitemod.fit(labels), meta, facts, degrees, tuple(features))
