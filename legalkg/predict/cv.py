"""Cross-validation grouped by case: every prediction comes from a model that never saw its case.

Why grouped: chunks of one decision (and, in principle, duplicate questions) share their gold; if
they fall in different folds, a model is scored on its own training signal. Folds are fixed by
the seed. Priors (popularity) live inside the predictor, so they are recomputed per fold.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from .predictor import Predictor

if TYPE_CHECKING:  # the training set's module reads gold citations (legalkg.cite, lxml): a search imports this one
    from .examples import Example, TrainingSet


def grouped_folds(groups: Sequence[str], n_folds: int = 5, seed: int = 0) -> list[tuple[np.ndarray, np.ndarray]]:
    """(train indices, test indices) per fold; no group is on both sides of a split. (scikit-learn is
    imported here, not at the top: the ranker's module, which a search loads, imports this one.)"""
    from sklearn.model_selection import GroupKFold

    n_groups = len(set(groups))
    if n_groups < n_folds:
        raise ValueError(f"{n_groups} groups cannot fill {n_folds} folds")
    splitter = GroupKFold(n_splits=n_folds, shuffle=True, random_state=seed)
    idx = np.arange(len(groups))
    return [(tr, te) for tr, te in splitter.split(idx, groups=list(groups))]


def out_of_fold(data: TrainingSet, fit: Callable[[TrainingSet], Predictor],
                score: Callable[[Predictor, list[Example]], list], n_folds: int = 5, seed: int = 0) -> list:
    """``score(model trained on the other folds, test examples)`` for each example, in data order."""
    results: list = [None] * len(data.examples)
    for train_idx, test_idx in grouped_folds([e.group for e in data.examples], n_folds, seed):
        train_set = replace(data, examples=[data.examples[i] for i in train_idx], unresolved=0)
        model = fit(train_set)
        test = [data.examples[i] for i in test_idx]
        for i, value in zip(test_idx, score(model, test)):
            results[i] = value
    return results
