"""The statute predictor: query text -> ranked unit ids, at § level and deeper.

Components, each scoring the labels of one level (ids such as ``BGB/§551`` or ``BGB/§551/Abs1``):

* ``nb``: Complement Naive Bayes over the query's TF-IDF words (``classifier.py``);
* ``knn``: the labels of the most similar training cases (``neighbours.py``);
* ``bridge``: query words translated to statute words, scored against every § text of the laws
  the training data cites (``bridge.py``; § level only, needs unit texts);
* ``pop``: how often the training cases cite each unit (a prior, from the training data only).

Fusion is weighted reciprocal-rank fusion over each component's top ``candidates``: it needs no
score calibration between a log-likelihood, a cosine and a count, and a weight of 0 switches a
component off at prediction time (the ablations use that; the components are trained
independently, so this equals retraining without it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp

from ..errors import UserError
from ..fusion import RRF_K, parse_weight_spec, weighted_rrf
from ..model import Level, level_of_id
from . import bridge as bridgemod
from .classifier import NaiveBayes, fit_counts
from .features import Vectoriser
from .labels import LABEL_LEVELS
from .neighbours import Neighbours
from .sparse import label_matrix, top_dense
from .statutes import StatuteIndex

if TYPE_CHECKING:  # the training set's module reads gold citations (legalkg.cite, lxml): not for a search
    from .examples import TrainingSet

COMPONENTS: tuple[str, ...] = ("nb", "knn", "bridge", "pop")


@dataclass(frozen=True)
class Config:
    """Training and fusion settings; stored in the model file."""

    weights: Mapping[str, float] = field(default_factory=lambda: {"nb": 1.0, "knn": 1.0, "bridge": 0.3,
                                                                  "pop": 0.3})
    alpha: float = 1.0
    neighbours: int = 30
    power: float = 2.0
    bridge_top: int = 50
    rrf_k: float = RRF_K
    candidates: int = 200
    min_df: int = 2
    #: German word forms beside the stems in the query words (``text.FORMS``; () = stems only)
    forms: tuple[str, ...] = ()

    def as_dict(self) -> dict:
        return {"weights": dict(self.weights), "alpha": self.alpha, "neighbours": self.neighbours,
                "power": self.power, "bridge_top": self.bridge_top, "rrf_k": self.rrf_k,
                "candidates": self.candidates, "min_df": self.min_df, "forms": list(self.forms)}


#: The word forms of each task's shipped model (``text.FORMS``): the measurement chose them
#: (eval/word-forms/, eval/ranker/), and every trainer of a task's engine starts from them, so
#: `legalkg train` and the folds of `legalkg eval --cv` build the recipe that is shipped.
TASK_FORMS: dict[str, tuple[str, ...]] = {"lay": ("lemma", "split"), "case": ()}


def task_config(task: str) -> Config:
    """The training settings of ``task``'s shipped model (``Config`` with its ``TASK_FORMS``)."""
    return Config(forms=TASK_FORMS.get(str(task), ()))


def parse_component_weights(spec: str | None, base: Mapping[str, float] | None = None) -> dict[str, float]:
    """``base`` (default ``Config().weights``) with the components named in ``spec`` ("knn=0,pop=0.3")
    set to the values given; one line for an unknown component, a bad number or all at 0.

    Why: the ablation switches one component off at prediction time (``legalkg eval
    --predictor-weights``), which equals retraining without it (the components train apart)."""
    return parse_weight_spec(spec, Config().weights if base is None else base, COMPONENTS, "predictor component",
                             "knn=0,bridge=0", "--predictor-weights")


@dataclass
class LevelModel:
    """One level's labels (sorted), the training cases' label matrix and the NB class counts."""

    labels: list[str]
    y: sp.csr_matrix
    counts: sp.csr_matrix

    def __post_init__(self) -> None:
        self.popularity = np.asarray(self.y.sum(axis=0), dtype=np.float32).ravel()


def level_name(level: Level | str) -> str:
    name = level.value if isinstance(level, Level) else str(level)
    if name not in {lv.value for lv in LABEL_LEVELS}:
        raise UserError(f"level {name!r} is not predicted: use one of {', '.join(lv.value for lv in LABEL_LEVELS)}")
    return name


#: Cosine of two texts' word vectors at which they count as the same text: the same text scores 1 up
#: to the float16 rounding of the kept training rows; one word changed in a nine-word question
#: scores 0.87 (tests/predict/test_predictor.py).
SAME_TEXT = 0.99


@dataclass
class Predictor:
    task: str
    config: Config
    queries: Vectoriser
    x_train: sp.csr_matrix
    levels: dict[str, LevelModel]
    bridge_laws: list[str] = field(default_factory=list)
    statute_vocab: Vectoriser | None = None
    assoc: sp.csr_matrix | None = None
    statutes: StatuteIndex | None = None
    meta: dict = field(default_factory=dict)
    #: ids of the training examples: an evaluation refuses (or cross-validates) a model on them
    train_ids: list[str] = field(default_factory=list)
    #: naive Bayes totals from the cache (``nbcache``): a model read from a file, not one being fitted
    cache_sums: bool = False

    def __post_init__(self) -> None:
        self._nb = {name: NaiveBayes(m.counts, self.config.alpha, self.cache_sums) for name, m in self.levels.items()}
        self._knn = Neighbours(self.x_train, self.config.neighbours, self.config.power)

    # -- the statute side -------------------------------------------------------------------
    def attach_units(self, units: Mapping[str, str]) -> Predictor:
        """Give the bridge its unit texts (``units.unit_texts`` or the graph); without, it is off."""
        if self.statute_vocab is not None and self.assoc is not None:
            self.statutes = StatuteIndex.attach(self.statute_vocab, units, self.bridge_laws)
        return self

    def seen(self, ids: Sequence[str]) -> list[str]:
        """The given case ids this model was trained on (so scoring it there would be a leak)."""
        known = set(self.train_ids)
        return [i for i in ids if i in known]

    def seen_texts(self, texts: Mapping[str, str], min_cosine: float = SAME_TEXT) -> list[str]:
        """The ids of ``texts`` (id -> text) whose text this model was trained on under any id: the
        query's word vector equals a training row (``SAME_TEXT``). Why by vector: the model keeps
        the training rows, not the texts, so a shipped model is checked as well as a new one."""
        ids = list(texts)
        if not ids or self.x_train.shape[0] == 0:
            return []
        sims = (self.queries.transform([texts[i] for i in ids]) @ self.x_train.T.astype(np.float32)).tocsr()
        best = np.zeros(len(ids), dtype=np.float32)
        if sims.nnz:
            best = np.asarray(sims.max(axis=1).toarray()).ravel()
        return [i for i, b in zip(ids, best) if b >= min_cosine]

    def set_weights(self, weights: Mapping[str, float]) -> Predictor:
        """Fuse the components with ``weights`` from now on (names of ``COMPONENTS``; the others keep
        theirs), for a model that an engine already holds (the ablation of ``legalkg eval``)."""
        unknown = sorted(set(weights) - set(COMPONENTS))
        if unknown:
            raise UserError(f"unknown predictor component {unknown[0]!r}: use one of {', '.join(COMPONENTS)}")
        self.config = replace(self.config, weights={**self.config.weights, **weights})
        return self

    @property
    def has_bridge(self) -> bool:
        return self.assoc is not None and self.statutes is not None and len(self.statutes.ids) > 0

    # -- prediction -------------------------------------------------------------------------
    def component_scores(self, texts: Sequence[str], level: Level | str = Level.PARAGRAPH,
                         ) -> dict[str, tuple[list[str], np.ndarray]]:
        """Per component: (the ids its columns stand for, scores (n_texts, n_ids))."""
        name = level_name(level)
        x = self.queries.transform(list(texts))
        out: dict[str, tuple[list[str], np.ndarray]] = {}
        model = self.levels.get(name)
        if model is not None and model.labels:
            nb = self._nb[name].scores(x)
            nb[np.diff(x.indptr) == 0] = -np.inf  # no known word: the classifier has no evidence
            out["nb"] = (model.labels, nb)
            out["knn"] = (model.labels, self._knn.scores(x, model.y))
            out["pop"] = (model.labels, np.tile(model.popularity, (x.shape[0], 1)))
        if name == Level.PARAGRAPH.value and self.has_bridge:
            assert self.statutes is not None and self.assoc is not None
            out["bridge"] = (self.statutes.ids, bridgemod.scores(x, self.assoc, self.statutes.cols))
        return out

    def fuse(self, parts: Mapping[str, tuple[list[str], np.ndarray]], n: int, k: int = 10,
             weights: Mapping[str, float] | None = None) -> list[list[tuple[str, float, dict[str, float]]]]:
        """Weighted RRF of ``component_scores`` output for ``n`` texts: per text the ``k`` best ids,
        their fused score and each component's share."""
        w = dict(self.config.weights if weights is None else weights)
        rankings: list[dict[str, list[str]]] = [{} for _ in range(n)]
        for comp, (ids, scores) in parts.items():
            if w.get(comp, 0.0) <= 0 or not ids:
                continue
            top = top_dense(scores, self.config.candidates)
            # similarity components abstain where they have no evidence (score 0)
            abstains = comp in ("knn", "bridge")
            for i in range(n):
                row = scores[i]
                ranking = rankings[i].setdefault(comp, [])
                for j in top[i]:
                    if not np.isfinite(row[j]) or (abstains and row[j] <= 0):
                        break
                    ranking.append(ids[j])
        return [[(uid, float(score), shares) for uid, score, shares in
                 weighted_rrf(runs, w, k, self.config.rrf_k)] for runs in rankings]

    def explain(self, texts: Sequence[str], k: int = 10, level: Level | str = Level.PARAGRAPH,
                weights: Mapping[str, float] | None = None) -> list[list[tuple[str, float, dict[str, float]]]]:
        """Like ``predict``, with each component's share of every fused score."""
        if not texts:
            return []
        return self.fuse(self.component_scores(texts, level), len(texts), k, weights)

    def predict(self, texts: Sequence[str], k: int = 10, level: Level | str = Level.PARAGRAPH,
                weights: Mapping[str, float] | None = None) -> list[list[tuple[str, float]]]:
        """Per text the ``k`` best unit ids of ``level`` with their fused score, best first."""
        return [[(uid, score) for uid, score, _ in row] for row in self.explain(texts, k, level, weights)]


def train(data: TrainingSet, units: Mapping[str, str] | None = None, config: Config | None = None, *,
          statutes: StatuteIndex | None = None, seed: int = 0) -> Predictor:
    """Fit every component on ``data`` (and nothing else: priors come from these cases only).

    ``units`` (id -> text) gives the bridge its statute texts; ``statutes`` may pass a prebuilt
    index instead (cross-validation builds it once). Without either the bridge is left out.
    """
    cfg = config or Config()
    examples = data.examples
    if not examples:
        raise UserError("no training examples with gold")
    texts = [e.text for e in examples]
    queries = Vectoriser.fit(texts, min_df=cfg.min_df if len(texts) >= 20 else 1, forms=cfg.forms)
    x = queries.transform(texts)
    levels: dict[str, LevelModel] = {}
    for lv in LABEL_LEVELS:
        per_case = [[lab for lab in e.labels if level_of_id(lab) == lv] for e in examples]
        labels = sorted({lab for row in per_case for lab in row})
        if not labels:
            continue
        y = label_matrix(per_case, {lab: j for j, lab in enumerate(labels)})
        levels[lv.value] = LevelModel(labels, y, fit_counts(x, y, cfg.alpha))
    para_labels = levels[Level.PARAGRAPH.value].labels if Level.PARAGRAPH.value in levels else []
    laws = sorted({lab.split("/", 1)[0] for lab in para_labels})
    if statutes is None and units is not None:
        statutes = StatuteIndex.build(units, laws)
    if statutes is not None:
        laws = sorted({uid.split("/", 1)[0] for uid in statutes.ids})
    assoc = None
    statute_vocab = None
    if statutes is not None and statutes.ids and Level.PARAGRAPH.value in levels:
        para = levels[Level.PARAGRAPH.value]
        assoc = bridgemod.fit_associations(x, para.y, statutes.rows_for(para.labels), cfg.bridge_top)
        statute_vocab = statutes.vectoriser
    meta = {"n_examples": len(examples), "sources": list(data.sources), "seed": seed,
            "unresolved_gold": data.unresolved}
    return Predictor(data.task, cfg, queries, x, levels, laws, statute_vocab, assoc, statutes, meta,
                     [e.id for e in examples])
