"""Cross-validated engines: one ``Retriever`` per fold, its predictor trained on the other folds.

Why the evaluation builds engines of its own: a learned mode scored on its own training cases is a leak, so
``legalkg eval --mode learned --cv N`` asks for N engines, each of which never saw the cases it
answers. Folds are grouped by case (``legalkg.predict.grouped_folds``): neighbouring chunks of a
chunked court (ids ``...chunk0125``) share a decision and so a group of ``CHUNK_GROUP``. Each
fold's predictor is trained on the other folds of the same dataset, plus any extra training set
(``legalkg eval --train-extra``: e.g. GerLayQA's train file while its dev file is scored), which is
added to every fold and never scored; ``check_extra`` refuses an extra set that shares a case id
or a query text with the scored cases, since that case would then be scored by a model trained on
it. The bridge's § texts are read from the graph once and shared by every fold.

With ``ranked`` (``legalkg eval --fold-ranker shipped``, the default wherever a ranker is shipped for
the task) each fold's engine also orders its predictor's § run with a ranker of its own, stacked on
the fold's training cases only, by the library call ``legalkg train --ranker-out`` makes for the
shipped file (``ranker.fit_stacked``: inner predictors trained without each inner fold give the
ranker's out-of-fold features): the engine cross-validated is then the one ``legalkg search``
ships, and no fold's ranker, nor any of its inner predictors, saw the fold's scored cases
(``fold_ranker`` records the case ids its inner predictors were trained on). A ranker that reads
the learned law router gets the shipped router with lay rows of the fold's training questions only
(``ranker.fold_router``; the shipped idf stays), and each of its inner folds one of its own. It costs five inner
predictor trainings and a LightGBM fit per fold.

With ``tune`` (``legalkg eval --tune-weights``) each outer fold also chooses its fusion weights by
an inner CV over its own training cases (nested CV): inner predictors are trained without each
inner fold, the runs of that fold's cases are computed once, and ``learned.choose_weights`` fuses
them under every weight of the grid. No scored case takes part in choosing the weights it is
scored with.
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import NamedTuple

import numpy as np
from neo4j import Driver

from .. import paths
from ..errors import UserError
from ..graph.cypher import query
from ..model import Citation
from ..predict import (
    Predictor,
    StatuteIndex,
    TrainingSet,
    corpus as corpusmod,
    graphpairs,
    grouped_folds,
    lawrouter,
    task_config,
    train,
)
from ..predict.corpus import Corpus
from ..predict.examples import CHUNK_GROUP, Example, label_ids
from ..predict.ranker import (
    TASK_FEATURES,
    Ranker,
    fit_stacked,
    fold_router,
    graph_facts,
    uses_degrees,
    uses_graph,
    uses_lawrouter,
    uses_neighbours,
    uses_outline,
)
from ..predict.rankfeatures import UnitFacts
from ..predict.units import cites_degrees, cites_pairs, outline_titles, unit_texts
from ..retrieve import Retriever, learned as lm
from ..vocab import Mode, RetrievalLevel, Task

_CHUNK_ID = re.compile(r"^(?P<stem>.*chunk)(?P<n>\d+)$")


def group_of(case_id: str) -> str:
    """The CV group of a case: chunked courts in runs of ``CHUNK_GROUP`` neighbouring chunks."""
    m = _CHUNK_ID.match(case_id)
    return f"{m['stem']}:{int(m['n']) // CHUNK_GROUP}" if m else case_id


def text_key(text: str) -> str:
    """A query text compared for leaks: whitespace runs collapsed, case folded."""
    return " ".join(text.split()).casefold()


def check_extra(extra: TrainingSet, cases: Sequence[tuple[str, str, Sequence[Citation]]]) -> None:
    """One line where an extra training set shares a case id or a query text with ``cases``."""
    ids = {cid for cid, _, _ in cases}
    texts = {text_key(text): cid for cid, text, _ in cases}
    for e in extra.examples:
        if e.id in ids:
            raise UserError(f"--train-extra {', '.join(extra.sources)} holds case {e.id!r} of the evaluated "
                            "dataset, so it would be scored by a model trained on it: pass a file without "
                            "the evaluated cases")
        same = texts.get(text_key(e.text))
        if same is not None:
            raise UserError(f"--train-extra {', '.join(extra.sources)}: the text of {e.id!r} is that of evaluated "
                            f"case {same!r}, so it would be scored by a model trained on it: pass a file "
                            "without the evaluated cases")


def training_set(task: Task, cases: Sequence[tuple[str, str, Sequence[Citation]]]) -> TrainingSet:
    """(id, query text, gold citations) -> the predictor's examples; cases without a label are left out."""
    examples = []
    for cid, text, gold in cases:
        labels, _ = label_ids(list(gold), None)
        if labels:
            examples.append(Example(cid, text, tuple(labels), tuple(gold), group_of(cid)))
    return TrainingSet(task, examples, ["eval cases"])


@dataclass(frozen=True)
class Tuning:
    """What the inner CV optimises: recall@``k`` at ``level``, over ``inner_folds`` folds, the
    query vectors (case id -> vector) reused where the level has them, from the ``base`` weights
    (default ``learned.WEIGHTS``) whose index runs it tunes; with ``ranked`` each inner engine
    ranks its § run with a ranker stacked on that inner fold's training cases (``fold_ranker``,
    ``INNER_RANKER_FOLDS`` folds), as the outer fold's engine that is scored does."""

    level: RetrievalLevel
    k: int
    inner_folds: int = 3
    vectors: Mapping[str, np.ndarray] | None = None
    base: Mapping[str, float] | None = None
    ranked: bool = False
    #: the inner rankers' features (those of the outer folds' rankers; None: the task's)
    features: tuple[str, ...] | None = None


class Prepared(NamedTuple):
    """What every fold trains from: the scored cases as examples, the checked extra examples
    (as a training set: its examples and sources), the bridge's § texts from the graph (indexed,
    and as id -> text for the ranker's unit facts)."""

    task: Task
    data: TrainingSet
    extra: TrainingSet
    statutes: StatuteIndex
    units: Mapping[str, str]
    #: every § text of the graph and the corpus over them, for a ranker of the graph's features
    corpus: tuple[Mapping[str, str], Corpus] | None = None
    #: the statutes' own pairs (``graphpairs``) that such a ranker also trains on
    pairs: TrainingSet | None = None


#: ``Ranker.meta`` key: the ids of the cases the fold ranker's inner predictors were trained on.
TRAINED_ON = "trained_on"
#: Inner folds of a fold's ranker: those of the shipped one (``fit_stacked``'s default, which
#: ``legalkg train --ranker-out`` uses), fewer where the fold has fewer case groups.
INNER_FOLDS = 5
#: Inner folds of the rankers inside ``tuned_weights``' inner CV: 3, not 5, since each of its
#: ``Tuning.inner_folds`` inner folds per outer fold stacks one (5 outer x 3 inner x 3 = 45
#: predictor trainings for the rankers instead of 75); fewer where a fold has fewer case groups.
INNER_RANKER_FOLDS = 3


def fold_ranker(prep: Prepared, fold: TrainingSet, seed: int = 0, n_folds: int = INNER_FOLDS,
                features: tuple[str, ...] | None = None) -> Ranker | None:
    """The ranker for a predictor trained on ``fold`` (a CV fold's training cases): stacked on
    out-of-fold predictions of ``fold`` alone (``ranker.fit_stacked``, as ``legalkg train
    --ranker-out`` builds the shipped one), its inner predictors trained as the fold's own is;
    ``meta[TRAINED_ON]`` lists the case ids they saw. None without § texts (no bridge, so the
    ranker's unit features would be missing, as ``rankfile.shipped_ranker`` decides) or with
    fewer than two case groups (no out-of-fold rows); ``n_folds`` inner folds; ``features``: the
    ranker's (default the task's shipped design, ``ranker.TASK_FEATURES``)."""
    n_inner = min(n_folds, len({e.group for e in fold.examples}))
    if not prep.units or not prep.statutes.ids or n_inner < 2:
        return None
    seen: set[str] = set()

    def fit(inner: TrainingSet) -> Predictor:
        seen.update(e.id for e in inner.examples)
        return train(inner, config=task_config(prep.task), statutes=prep.statutes, seed=seed)

    # the facts `legalkg train --ranker-out` gives (build_model): the shipped features read no BM25 or
    # vector matcher, so none is built (they would encode every § once per fold and inner fold)
    features = features or TASK_FEATURES[prep.task]
    facts = UnitFacts.build(prep.units, prep.statutes.ids, matchers=False)
    if uses_graph(features) and prep.corpus is not None:
        # the learned law router with lay rows of the fold's questions only (the shipped one's hold
        # every lay_beyond question); fit_stacked gives each inner fold its own in turn
        router = fold_router(lawrouter.shipped(), fold) if uses_lawrouter(features) else None
        degrees = default_degrees() if uses_degrees(features) else None
        facts = graph_facts(prep.corpus[0], prep.corpus[1], degrees, router=router, features=features,
                            outline=default_outline() if uses_outline(features) else None,
                            cites=default_cites() if uses_neighbours(features) else ())
    ranker = fit_stacked(fold, fit, facts, n_folds=n_inner, seed=seed, features=features,
                         extra=prep.pairs if uses_graph(features) else None)
    ranker.meta[TRAINED_ON] = sorted(seen)
    return ranker


@lru_cache(maxsize=1)
def default_degrees() -> dict[str, tuple[int, int]]:
    """The citation degrees of the default codes' §§ (``units.cites_degrees``, as ``legalkg train
    --ranker-out`` computes them), once per process: half a minute to parse the 58 codes."""
    return cites_degrees()


@lru_cache(maxsize=1)
def default_outline() -> dict[str, str]:
    """The Gliederung titles of the default codes' §§ (``units.outline_titles``), once per process."""
    return outline_titles()


@lru_cache(maxsize=1)
def default_cites() -> list[tuple[str, str]]:
    """The citation pairs of the default codes' §§ (``units.cites_pairs``), once per process."""
    return cites_pairs()


def inner_models(prep: Prepared, examples: Sequence[Example], tune: Tuning,
                 seed: int = 0) -> Iterator[tuple[Predictor, Ranker | None, list[Example]]]:
    """Per inner fold of ``examples`` (an outer fold's training cases): the predictor trained
    without that inner fold's cases (plus the extra examples), with ``tune.ranked`` the ranker
    stacked on the same training cases (else None), and the inner fold's test cases."""
    groups = [e.group for e in examples]
    n_inner = min(tune.inner_folds, len(set(groups)))
    if n_inner < 2:
        return
    for _train, test_idx in grouped_folds(groups, n_inner, seed):
        test = [examples[i] for i in test_idx]
        test_ids = {e.id for e in test}
        inner = TrainingSet(prep.task, [e for e in examples if e.id not in test_ids] + prep.extra.examples,
                            prep.data.sources + prep.extra.sources)
        model = train(inner, config=task_config(prep.task), statutes=prep.statutes, seed=seed)
        ranker = fold_ranker(prep, inner, seed, INNER_RANKER_FOLDS, tune.features) if tune.ranked else None
        yield model, ranker, test


def tuned_weights(driver: Driver, db: str, prep: Prepared, examples: Sequence[Example], tune: Tuning,
                  seed: int = 0) -> tuple[dict[str, float], float]:
    """The grid's best weights for ``examples`` (an outer fold's training cases), chosen on
    predictions of inner models (``inner_models``: with ``tune.ranked`` each with its own ranker)
    that never saw the case they rank, and their inner recall@k."""
    base = dict(lm.WEIGHTS if tune.base is None else tune.base)
    vectors = tune.vectors or {}
    cases: list[tuple[dict[str, list[str]], set[str]]] = []
    for model, ranker, test in inner_models(prep, examples, tune, seed):
        retriever = Retriever(driver, db, predictors={prep.task: model},
                              weights=base, rankers={prep.task: ranker})
        learned = retriever.strategies[Mode.LEARNED]
        for e in test:
            runs, _, _ = learned.runs(e.text, tune.level, tune.k, None, prep.task, vectors.get(e.id))
            cases.append((runs, lm.gold_at(e.labels, tune.level)))
    if not cases:
        return base, float("nan")
    return lm.choose_weights(cases, tune.k, lm.weight_grid(base))


def prepare(driver: Driver, db: str, task: Task, cases: Sequence[tuple[str, str, Sequence[Citation]]],
            extra: TrainingSet | None, features: tuple[str, ...] | None = None) -> Prepared:
    """The cases as training examples, the checked extra examples, the bridge's § texts from the graph."""
    data = training_set(task, cases)
    if extra is not None:
        if extra.task != task:
            raise UserError(f"--train-extra holds {extra.task} data but the evaluated dataset is {task} data: "
                            f"pass training files of the {task} form")
        check_extra(extra, cases)
    added = TrainingSet(task, list(extra.examples) if extra else [], list(extra.sources) if extra else [])
    laws = sorted({lab.split("/", 1)[0] for e in data.examples + added.examples for lab in e.labels})
    with driver.session(database=db) as session:
        recs = list(session.run(query("retrieve/unit_texts"), {"laws": laws}))
    units = {r["id"]: f"{r['title']}\n{r['text']}" if r["title"] else r["text"] for r in recs}
    corpus, pairs = graph_side(driver, db, task, features)
    return Prepared(task, data, added, StatuteIndex.build(units, laws), units, corpus, pairs)


def graph_side(driver: Driver, db: str, task: Task, features: tuple[str, ...] | None = None,
               ) -> tuple[tuple[dict[str, str], Corpus] | None, TrainingSet | None]:
    """For a task whose ranker reads the whole graph (``ranker.TASK_FEATURES``): every § text of
    the graph with its corpus, and the statutes' own pairs of the default codes' texts whose gold
    the graph holds (as ``legalkg train --ranker-out`` makes them); (None, None) otherwise."""
    if not uses_graph(features or TASK_FEATURES[task]):
        return None, None
    with driver.session(database=db) as session:
        recs = list(session.run(query("retrieve/corpus_texts"), {"laws": None}))
    units = {r["id"]: f"{r['title']}\n{r['text']}" if r["title"] else r["text"] for r in recs}
    corpus = corpusmod.cached(units, paths.cache_dir() / "corpus")
    pairs = graphpairs.pairs(unit_texts())
    kept = [e for e in pairs.examples if all(lab in units for lab in e.labels)]
    return (units, corpus), TrainingSet(pairs.task, kept, pairs.sources)


def weights_over_all(driver: Driver, db: str, task: Task, cases: Sequence[tuple[str, str, Sequence[Citation]]],
                     tune: Tuning, extra: TrainingSet | None = None, seed: int = 0) -> tuple[dict[str, float], float]:
    """The weights to ship: the inner CV of ``tuned_weights`` over every case (not nested: no
    score is reported for them), ``extra`` in every inner training set."""
    prep = prepare(driver, db, task, cases, extra, tune.features)
    return tuned_weights(driver, db, prep, prep.data.examples, tune, seed)


class Folds(NamedTuple):
    """How the outer CV splits and trains: ``n`` folds grouped by case, fold seed ``seed``, and
    whether each fold's engine ranks its § run with a ranker of its own (``fold_ranker``), of
    which features."""

    n: int = 5
    seed: int = 0
    ranked: bool = False
    #: the fold rankers' features (``legalkg eval --ranker-features``); None: the task's shipped design
    features: tuple[str, ...] | None = None


#: The default split: 5 folds, seed 0, no ranker.
FIVE_FOLDS = Folds()


def fold_retrievers(driver: Driver, db: str, task: Task, cases: Sequence[tuple[str, str, Sequence[Citation]]],
                    folds: Folds = FIVE_FOLDS, extra: TrainingSet | None = None,
                    weights: Mapping[str, float] | Tuning | None = None,
                    only: Container[str] | None = None) -> dict[str, Retriever]:
    """case id -> the Retriever whose predictor was trained without that case's fold (plus
    ``extra``'s examples in every fold), fusing its runs with ``weights`` (default
    ``learned.WEIGHTS``), or, given a ``Tuning``, with the weights that an inner CV on the fold's
    training cases chose; with ``folds.ranked`` its § run ordered by a ranker stacked on the same
    training cases (``fold_ranker``). The inner CV of a ``Tuning`` ranks as the outer folds do:
    with ``folds.ranked`` each inner engine has a ranker stacked on its inner training cases.
    With ``only``, folds holding none of those case ids get no engine: a study that scores a
    sample of the cases trains only the folds it scores."""
    n_folds, seed = folds.n, folds.seed
    prep = prepare(driver, db, task, cases, extra, folds.features)
    ids = [cid for cid, _, _ in cases]
    groups = [group_of(cid) for cid in ids]
    out: dict[str, Retriever] = {}
    for _train, test_idx in grouped_folds(groups, n_folds, seed):
        test_ids = {ids[i] for i in test_idx}
        if only is not None and not any(cid in only for cid in test_ids):
            continue
        own = [e for e in prep.data.examples if e.id not in test_ids]
        fold = TrainingSet(task, own + prep.extra.examples, prep.data.sources + prep.extra.sources)
        model: Predictor = train(fold, config=task_config(task), statutes=prep.statutes, seed=seed)
        if isinstance(weights, Tuning):
            inner = replace(weights, ranked=folds.ranked, features=folds.features)
            chosen, _ = tuned_weights(driver, db, prep, own, inner, seed)
        else:
            chosen = dict(lm.WEIGHTS if weights is None else weights)
        ranker = fold_ranker(prep, fold, seed, features=folds.features) if folds.ranked else None
        retriever = Retriever(driver, db, predictors={task: model}, weights=chosen, rankers={task: ranker})
        out.update({cid: retriever for cid in test_ids})
    return out
