"""The learned ranker: LightGBM LambdaRank over the predictor's § candidates, and its model file.

Why LambdaRank: it optimises the order of each query's list (nDCG) directly from the features of
``rankfeatures.py``, so a unit that two components like moderately can pass one that a single
component likes a lot, which rank fusion cannot express. Its training rows must be out-of-fold: the
features of a case come from a predictor that never saw the case (``fit_stacked``), as they will at
search time, or the ranker learns to trust components that memorised their training cases.

Parameters are fixed (``PARAMS``, and each task's ``SIZE``), not tuned: the cross-validation of eval/ranker/
decides only whether a ranker is shipped. ``explain`` gives every feature's contribution to a unit's score
(LightGBM's ``pred_contrib``, SHAP values of the trees), which ``legalkg search --explain`` shows.

A search scores with ``trees.Trees`` (LightGBM's trees walked in numpy, the same scores to the bit);
LightGBM itself is imported only to train and for ``--explain``'s contributions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np

from .. import paths
from ..errors import UserError
from ..model import Level
from ..vocab import RankerFeatures, Task
from . import cocite as cocitemod, lawrouter, passages as passagemod
from .corpus import Corpus
from .cv import grouped_folds
from .lawrouter import LawRouter
from .predictor import Predictor
from .rankfeatures import (
    COMPOUND_FEATURES,
    COMPOUND_RANKER_FEATURES,
    CONFIDENCE_RANKER_FEATURES,
    CONSTRUCTED,
    DEFAULT_FEATURES,
    FEATURES,
    GRAPH_FEATURES,
    GRAPH_RANKER_FEATURES,
    LAWROUTER_FEATURES,
    PASSAGE_FEATURES,
    PASSAGE_RANKER_FEATURES,
    ROUTER_RANKER_FEATURES,
    Candidates,
    Context,
    PerUnit,
    QueryFacts,
    UnitFacts,
    assemble,
    law_shares,
)
from .text import tokens
from .trees import Trees

if TYPE_CHECKING:  # training only: the training set's module reads gold citations (legalkg.cite, lxml)
    from .examples import TrainingSet

FORMAT = "legalkg-ranker"
FORMAT_VERSION = 1
#: (A file names its features; any subset of ``rankfeatures.FEATURES`` loads, so the files written
#: before ``TEXT_FEATURES`` existed still do: their feature set did not change.)
PARAMS: dict = {"objective": "lambdarank", "num_leaves": 31, "min_child_samples": 50, "subsample": 0.8,
                "subsample_freq": 1, "colsample_bytree": 0.8, "lambdarank_truncation_level": 20, "verbose": -1,
                "n_jobs": 1}
#: (n_jobs 1: under load, OpenMP worker threads that spin cost far more than they give.)
#: Trees and learning rate of each task's ranker. The lay ranker fits BGB and 57 other codes at once and
#: needs more, smaller steps (eval/ranker/capacity-gm/); with them the case ranker delivers more words for
#: the same recall (eval/ranker/capacity-case/), so it keeps LightGBM's defaults.
SIZE: dict[Task, dict] = {Task.LAY: {"n_estimators": 300, "learning_rate": 0.05},
                          Task.CASE: {"n_estimators": 100, "learning_rate": 0.1}}
#: Queries scored per feature batch (bounds the dense (queries x units) score matrices).
BATCH = 128
PARA = Level.PARAGRAPH.value
#: Hits per query whose feature contributions are computed (``Ranker.explain``).
EXPLAINED = 10
#: The part every ranked row carries (value 0): the ranker, not the components' RRF, ordered it.
RANKED = "ranker"
#: The prefix of an explained row's candidate sources (``found.bm25``: BM25 over every § proposed it).
FOUND = "found."
#: The features of each task's ranker (``legalkg train --ranker-out`` and every CV fold's), the
#: shipped design. Lay questions ask about every law, so the lay ranker reads every § of the graph
#: (``GRAPH_RANKER_FEATURES``: candidates from BM25, vectors and the corpus router over all §§ beside
#: the predictor's, no law identity, trained with the statutes' own pairs, ``graphpairs``), with the
#: learned law router's laws and scores (``ROUTER_RANKER_FEATURES``, eval/ranker/router-candidates/);
#: the case ranker orders the predictor's candidates (``DEFAULT_FEATURES``), whose labels cover the
#: decisions' citations (eval/ranker/graph-candidates/README.md has both designs measured on both sets).
TASK_FEATURES: dict[str, tuple[str, ...]] = {"lay": ROUTER_RANKER_FEATURES, "case": DEFAULT_FEATURES}
#: The ranker feature sets ``legalkg train --ranker-features`` names (``default``: the task's).
RANKER_FEATURES: dict[str, tuple[str, ...]] = {RankerFeatures.GRAPH: GRAPH_RANKER_FEATURES,
                                                RankerFeatures.ROUTER: ROUTER_RANKER_FEATURES,
                                                RankerFeatures.PASSAGE: PASSAGE_RANKER_FEATURES,
                                                RankerFeatures.COMPOUNDS: COMPOUND_RANKER_FEATURES,
                                                RankerFeatures.CONFIDENCE: CONFIDENCE_RANKER_FEATURES,
                                                RankerFeatures.PREDICTOR: DEFAULT_FEATURES}


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
        query = (graph_parts(facts.corpus, pred, batch, parts, facts.router, facts.passages, facts.compounds)
                 if facts.corpus is not None else None)
        out.extend(assemble(parts, [[(u, s) for u, s, _ in row] for row in fused], batch, ctx, query))
    return out


def graph_parts(corpus: Corpus, pred: Predictor, batch: Sequence[str],
                parts: dict[str, tuple[list[str], np.ndarray]], router: LawRouter | None = None,
                passages: passagemod.Passages | None = None, compounds: bool = False) -> QueryFacts:
    """Add the graph components (BM25 and cosine over every § of ``corpus``, and with ``passages``
    those of each §'s best Absatz) to ``parts`` and return the corpus router's law scores, the
    predictor's coverage of each query and, with ``router``, the learned law router's scores of the
    corpus' laws; with ``compounds`` both BM25s read the compound parts of the query's unknown words
    and ``gbm25_parts`` holds the parts' BM25 alone (``rankfeatures.COMPOUND_FEATURES``)."""
    bm25, cos = corpus.bm25(batch, compounds), corpus.cosines(batch)
    parts["gbm25"] = (corpus.ids, bm25)
    parts["gvec"] = (corpus.ids, cos)
    if compounds:
        parts[COMPOUND_FEATURES[0]] = (corpus.ids, corpus.part_bm25(batch))
    if passages is not None:
        parts["pbm25"] = (corpus.ids, passages.bm25(batch, compounds))
        parts["pvec"] = (corpus.ids, passages.cosines(batch))
    learned = router.over(batch, corpus.laws) if router is not None else None
    return QueryFacts(corpus.route(batch, bm25, cos), corpus.laws, coverage(pred, batch), learned)


def lay_questions(data: TrainingSet) -> list[tuple[str, list[str]]]:
    """Each example's text and the laws of its labels: the questions a fold's law router reads
    (``LawRouter.with_lay``)."""
    return [(e.text, sorted({lab.split("/", 1)[0] for lab in e.labels})) for e in data.examples]


def fold_router(router: LawRouter | None, data: TrainingSet) -> LawRouter | None:
    """``router`` with lay rows of ``data``'s questions alone (None stays None): the law router of a
    ranker, or of an inner fold, trained on ``data``, which never holds the questions it scores."""
    return router.with_lay(lay_questions(data)) if router is not None else None


def coverage(pred: Predictor, texts: Sequence[str]) -> np.ndarray:
    """Per text the share of its distinct stems in the predictor's query vocabulary (0 for none):
    low where a question is about things its training cases never named."""
    known = pred.queries.index
    out = np.zeros(len(texts), dtype=np.float32)
    for i, text in enumerate(texts):
        stems = set(tokens(text))
        out[i] = sum(1 for t in stems if t in known) / len(stems) if stems else 0.0
    return out


@dataclass
class Ranker:
    task: str
    #: the LightGBM trees (their model text and a numpy walk of them)
    trees: Trees
    cocite: cocitemod.CoCitation | None
    meta: dict = field(default_factory=dict)
    facts: UnitFacts | None = None
    #: § id -> (cited by, cites) §§, from the laws it was trained on (``units.cites_degrees``)
    degrees: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    #: the features its trees read, columns of ``rankfeatures.FEATURES``
    features: tuple[str, ...] = DEFAULT_FEATURES
    #: § id -> its Gliederung ancestors' titles (``units.outline_titles``), for ``outline_match``
    outline: Mapping[str, str] = field(default_factory=dict)
    #: the (citing §, cited §) pairs (``units.cites_pairs``), for ``neighbour_anchor``
    cites: Sequence[tuple[str, str]] = ()

    @property
    def columns(self) -> np.ndarray:
        return feature_columns(self.features)

    def attach_units(self, units: Mapping[str, str], ids: Sequence[str], corpus: Corpus | None = None) -> Ranker:
        """Unit facts of ``ids`` (length, title and, where its features need them, the BM25 and
        vector matchers) from their texts, the same texts the bridge reads, with the citation
        degrees stored in the ranker; ``corpus``: every § of the graph, for a ranker of
        ``GRAPH_FEATURES`` (whose facts then cover all of its §§)."""
        if corpus is not None and uses_graph(self.features):
            router = lawrouter.shipped() if uses_lawrouter(self.features) else None
            self.facts = graph_facts(units, corpus, self.degrees, uses_text(self.features), router,
                                     self.features, self.outline, self.cites)
        else:
            self.facts = UnitFacts.build(units, ids, self.degrees, matchers=uses_text(self.features))
        return self

    def explain(self, pred: Predictor, texts: Sequence[str], k: int = 10, contributions: bool = True,
                ) -> list[list[tuple[str, float, dict[str, float]]]]:
        """Per text the ``k`` best § ids, their ranker score and their parts: ``RANKED`` (the mark
        that the ranker ordered them) and, with ``contributions``, for the first ``EXPLAINED`` each
        feature's contribution, named ``ranker.<feature>`` as ``legalkg search --explain`` shows
        them, and the candidate sources that proposed the unit (``found.<source>``); the
        contributions cost thirty times the scores, so only the hits a reader sees get them, and only
        when asked."""
        facts = self.facts or UnitFacts({}, {})
        cols, names = self.columns, [f"ranker.{f}" for f in self.features]
        out = []
        for cand in candidates(pred, texts, self.cocite, facts):
            if not cand.ids:
                out.append([])
                continue
            x = cand.x[:, cols]
            score = self.trees.predict(x)
            order = np.lexsort((np.array(cand.ids), -score))[:k]
            shown = order[:EXPLAINED] if contributions else order[:0]
            contrib = self.trees.contributions(x[shown]) if len(shown) else ()
            out.append([(cand.ids[j], float(score[j]),
                         {RANKED: 0.0, **(dict(zip(names, map(float, contrib[n, :-1]))) if n < len(contrib) else {}),
                          **({f"{FOUND}{src}": 1.0 for src in cand.found[j]} if contributions and cand.found else {})})
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


def uses_graph(features: Sequence[str]) -> bool:
    """Whether ``features`` need the graph's corpus (``GRAPH_FEATURES``)."""
    return bool(set(features) & set(GRAPH_FEATURES))


def uses_lawrouter(features: Sequence[str]) -> bool:
    """Whether ``features`` read the learned law router (``LAWROUTER_FEATURES``): only such a ranker
    gets it, and with it the candidates of its laws, so a ranker trained before it ranks as it did."""
    return bool(set(features) & set(LAWROUTER_FEATURES))


def uses_passages(features: Sequence[str]) -> bool:
    """Whether ``features`` read the passage components (``PASSAGE_FEATURES``): only such a ranker
    gets them, and with them their §§ as candidates."""
    return bool(set(features) & set(PASSAGE_FEATURES))


def uses_compounds(features: Sequence[str]) -> bool:
    """Whether ``features`` read the graph BM25 over the query's compound parts (``COMPOUND_FEATURES``):
    only such a ranker's BM25 reads them, so a ranker trained before them ranks as it did."""
    return bool(set(features) & set(COMPOUND_FEATURES))


def uses_degrees(features: Sequence[str]) -> bool:
    """Whether ``features`` read the citation degrees (``cites_in``, ``cites_out``)."""
    return any(f.startswith("cites_") for f in features)


def uses_outline(features: Sequence[str]) -> bool:
    """Whether ``features`` read the Gliederung titles (``outline_match``)."""
    return "outline_match" in features


def uses_neighbours(features: Sequence[str]) -> bool:
    """Whether ``features`` read the citation neighbours (``neighbour_anchor``, and its candidates)."""
    return "neighbour_anchor" in features


def outline_stems(titles: str) -> frozenset[str]:
    """The stems of a §'s Gliederung titles."""
    return frozenset(tokens(titles))


def neighbour_map(cites: Sequence[tuple[str, str]]) -> dict[str, tuple[str, ...]]:
    """§ -> the §§ it cites and the §§ citing it (sorted, itself left out)."""
    near: dict[str, set[str]] = {}
    for a, b in cites:
        if a != b:
            near.setdefault(a, set()).add(b)
            near.setdefault(b, set()).add(a)
    return {u: tuple(sorted(v)) for u, v in near.items()}


def graph_facts(units: Mapping[str, str], corpus: Corpus, degrees: Mapping[str, tuple[int, int]] | None = None,
                matchers: bool = False, router: LawRouter | None = None, features: Sequence[str] = (),
                outline: Mapping[str, str] | None = None, cites: Sequence[tuple[str, str]] = ()) -> UnitFacts:
    """Unit facts of every § of ``corpus`` (``units`` holds their texts), with the corpus, the
    learned law router ``router`` (where given), the stems of each §'s Gliederung titles
    (``outline``: § -> titles) and the citation neighbours (``cites``: (citing, cited) pairs)
    attached; the design ``features`` decides whether the corpus' §§ by Absatz are attached
    (``uses_passages``, ``passages.cached``) and whether the graph BM25 reads the query's compound
    parts (``uses_compounds``)."""
    facts = UnitFacts.build(units, corpus.ids, degrees, matchers=matchers)
    facts.corpus = corpus
    facts.router = router
    facts.compounds = uses_compounds(features)
    if uses_passages(features):
        facts.passages = passagemod.cached(units, corpus.ids, paths.cache_dir() / "passages")
    if outline:
        facts.outline_titles = outline
        facts.outline = PerUnit(outline, list(outline), outline_stems)
    if cites:
        facts.cites = cites
        facts.neighbours = neighbour_map(cites)
    return facts


def fit_booster(cands: Sequence[Candidates], golds: Sequence[set[str]], task: Task | str, seed: int = 0,
                features: Sequence[str] = DEFAULT_FEATURES) -> Trees:
    """LambdaRank of ``task``'s size on the candidates' ``features`` columns (relevance 1 for a gold §);
    queries without a gold candidate teach nothing to a listwise loss and are left out."""
    import lightgbm as lgb

    keep = [i for i, (c, g) in enumerate(zip(cands, golds)) if g & set(c.ids)]
    if not keep:
        raise UserError("no training case has a gold § among its candidates: the ranker cannot learn")
    x = np.vstack([cands[i].x for i in keep])[:, feature_columns(features)]
    y = np.concatenate([[1 if u in golds[i] else 0 for u in cands[i].ids] for i in keep])
    model = lgb.LGBMRanker(**PARAMS, **SIZE[Task(task)], random_state=seed)
    model.fit(x, y, group=[len(cands[i].ids) for i in keep], feature_name=list(features))
    return Trees.from_text(model.booster_.model_to_string())


def fit_stacked(data: TrainingSet, fit: Callable[[TrainingSet], Predictor], facts: UnitFacts,
                n_folds: int = 5, seed: int = 0, features: Sequence[str] = DEFAULT_FEATURES,
                extra: TrainingSet | None = None) -> Ranker:
    """A ranker for a predictor trained on all of ``data``: its rows are out-of-fold features (inner
    predictors and co-citation counts from the other folds only), its co-citation table that of all
    of ``data``; it reads ``features`` (``facts`` must carry what they need: the matchers for
    BM25 and vector features, the degrees for ``cites_*``, the corpus for ``GRAPH_FEATURES``).
    ``extra``: examples for the ranker only (``graphpairs``: the statutes' own headings and
    citations), never a predictor's training case, so each inner predictor may rank them; their
    rows come from the first inner fold's predictor and table, without the features they hold by
    construction (``rankfeatures.CONSTRUCTED``). With a learned law router in
    ``facts`` each inner fold reads that router with lay rows of its own training questions only
    (``fold_router``), so no question is scored by a router that read it."""
    labels = para_labels(data)
    cands: list[Candidates | None] = [None] * len(data.examples)
    extra_rows: list[Candidates] = []
    for train_idx, test_idx in grouped_folds([e.group for e in data.examples], n_folds, seed):
        inner = replace(data, examples=[data.examples[i] for i in train_idx], unresolved=0)
        table = cocitemod.fit([labels[i] for i in train_idx])
        model = fit(inner)
        own = replace(facts, router=fold_router(facts.router, inner)) if facts.router is not None else facts
        for i, c in zip(test_idx, candidates(model, [data.examples[i].text for i in test_idx], table, own)):
            cands[i] = c
        if extra is not None and extra.examples and not extra_rows:
            extra_rows = candidates(model, [e.text for e in extra.examples], table, own)
            for c in extra_rows:
                c.x[:, feature_columns(CONSTRUCTED)] = np.nan
    rows = [c for c in cands if c is not None] + extra_rows
    golds = [set(g) for g, c in zip(labels, cands) if c is not None]
    golds += [set(g) for g in para_labels(extra)] if extra_rows and extra is not None else []
    trees = fit_booster(rows, golds, data.task, seed, features)
    meta = {"n_examples": len(data.examples), "sources": list(data.sources), "inner_folds": n_folds, "seed": seed}
    if extra is not None and extra.examples:
        meta["extra_examples"] = len(extra.examples)
        meta["extra_sources"] = list(extra.sources)
    degrees = dict(facts.degrees) if uses_degrees(features) else {}
    outline = dict(facts.outline_titles) if uses_outline(features) else {}
    cites = list(facts.cites) if uses_neighbours(features) else []
    return Ranker(data.task, trees, cocitemod.fit(labels), meta, facts, degrees, tuple(features), outline, cites)
