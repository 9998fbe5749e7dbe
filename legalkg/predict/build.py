"""``legalkg train`` as a library call: check the files, read the statutes, train, write the model.

Why this order: a bad training file must fail in a second with one line, before the statutes
(about 10 s for the 58 codes) are parsed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .. import paths
from . import corpus as corpusmod, graphpairs, lawrouter
from .examples import load_examples, resolve_labels
from .modelfile import save
from .predictor import Config, task_config, train
from .ranker import (
    RANKER_FEATURES,
    TASK_FEATURES,
    fit_stacked,
    graph_facts,
    uses_degrees,
    uses_graph,
    uses_lawrouter,
    uses_neighbours,
    uses_outline,
)
from .rankfeatures import UnitFacts
from .rankfile import save as save_ranker
from .units import cites_degrees, cites_pairs, outline_titles, unit_texts


@dataclass(frozen=True)
class BuildReport:
    path: Path
    task: str
    n_examples: int
    n_labels: dict[str, int]
    unresolved: int
    size_bytes: int
    bridge: bool
    ranker: Path | None = None


def build_model(data: Sequence[str | Path], out: str | Path, task: str | None = None, seed: int = 0,
                slugs: Sequence[str] | None = None, config: Config | None = None,
                ranker_out: str | Path | None = None, ranker_features: str = "default") -> BuildReport:
    """Train on ``data`` (labels resolved against the units of ``slugs``, default the 58 codes)
    and write the model file to ``out``; with ``ranker_out`` also the learned ranker, stacked on
    out-of-fold predictions of the same data (``ranker.fit_stacked``), reading the task's features
    (``ranker.TASK_FEATURES``) or those ``ranker_features`` names (``ranker.RANKER_FEATURES``)."""
    checked = load_examples(list(data), task)
    for target, flag in ((out, "--out"), (ranker_out, "--ranker-out")):
        if target is not None:  # before the slow part: a bad path must not cost a training run
            paths.check_writable_file(Path(target), flag)
    units = unit_texts(slugs)
    resolved = resolve_labels(checked, units)
    config = config or task_config(resolved.task)  # the task's shipped recipe unless told otherwise
    model = train(resolved, units, config, seed=seed)
    path = save(model, out)
    ranked = None
    if ranker_out is not None and model.statutes is not None:
        statutes = model.statutes
        features = RANKER_FEATURES.get(ranker_features, TASK_FEATURES[resolved.task])
        facts, extra = UnitFacts.build(units, statutes.ids, matchers=False), None
        if uses_graph(features):  # every § of the laws, and their own pairs (graphpairs)
            router = lawrouter.shipped() if uses_lawrouter(features) else None  # inner folds: fold_router
            degrees = cites_degrees(slugs) if uses_degrees(features) else None
            facts = graph_facts(units, corpusmod.cached(units, paths.cache_dir() / "corpus"), degrees, router=router,
                                features=features,
                                outline=outline_titles(slugs) if uses_outline(features) else None,
                                cites=cites_pairs(slugs) if uses_neighbours(features) else ())
            extra = graphpairs.pairs(units, seed=seed)
        ranker = fit_stacked(resolved, lambda ts: train(ts, config=config, statutes=statutes, seed=seed),
                             facts, seed=seed, features=features, extra=extra)
        ranked = save_ranker(ranker, ranker_out)
    return BuildReport(path, model.task, len(resolved.examples),
                       {name: len(lm.labels) for name, lm in model.levels.items()}, resolved.unresolved,
                       path.stat().st_size, model.assoc is not None, ranked)
