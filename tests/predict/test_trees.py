"""The ranker's trees walked in numpy give LightGBM's own scores, to the bit (pure, no server).

The shipped rankers' model texts are read twice, by ``lightgbm.Booster`` and by ``trees.Trees``, and
scored on rows that reach every kind of branch: values equal to a threshold (``<=`` goes left), NaN
(a split of missing type NaN takes its stored default way; other splits read NaN as 0), 0, and
magnitudes below LightGBM's zero threshold (1e-35, read as 0).
"""

from __future__ import annotations

import numpy as np
import pytest

from legalkg import paths
from legalkg.predict import rankfile
from legalkg.predict.ranker import SIZE
from legalkg.predict.trees import Trees
from legalkg.vocab import Task

lgb = pytest.importorskip("lightgbm")
SHIPPED = paths.REPO_ROOT / "legalkg" / "data"


def hard_rows(trees: Trees, n_features: int, n: int = 3000) -> np.ndarray:
    rng = np.random.default_rng(0)
    x = rng.normal(0, 3, (n, n_features))
    x[rng.random(x.shape) < 0.1] = np.nan
    x[rng.random(x.shape) < 0.1] = 0.0
    x[rng.random(x.shape) < 0.02] = 1e-36
    pick = rng.integers(len(trees.threshold), size=n)
    x[np.arange(n), trees.feature[pick]] = trees.threshold[pick]  # exactly on a split
    return x


@pytest.mark.parametrize("task", ["lay", "case"])
def test_the_numpy_walk_scores_the_shipped_ranker_as_lightgbm_does(task):
    ranker = rankfile.load(SHIPPED / f"ranker-{task}.npz")
    booster = lgb.Booster(model_str=ranker.trees.text)
    assert ranker.trees.n_trees == booster.num_trees() == SIZE[Task(task)]["n_estimators"]  # every tree walked
    x = hard_rows(ranker.trees, booster.num_feature())
    for rows in (x, x.astype(np.float32)):
        assert np.array_equal(ranker.trees.predict(rows), booster.predict(rows, num_threads=1))
    assert np.array_equal(ranker.trees.contributions(x[:5]), booster.predict(x[:5], pred_contrib=True, num_threads=1))


def test_a_single_leaf_tree_adds_its_value_and_a_categorical_split_is_refused():
    x = np.array([[0.0], [1.0], [2.0]])
    y = np.array([0.0, 1.0, 2.0])
    booster = lgb.train({"objective": "regression", "min_data_in_leaf": 1, "min_data_in_bin": 1, "verbose": -1,
                         "num_leaves": 2, "learning_rate": 1.0}, lgb.Dataset(x, y), num_boost_round=3)
    trees = Trees.from_text(booster.model_to_string())
    assert np.array_equal(trees.predict(x), booster.predict(x))
    flat = lgb.train({"objective": "regression", "min_data_in_leaf": 5, "verbose": -1}, lgb.Dataset(x, y),
                     num_boost_round=2)  # too few rows to split: every tree is one leaf
    assert np.array_equal(Trees.from_text(flat.model_to_string()).predict(x), flat.predict(x))
    with pytest.raises(ValueError, match="categorical"):
        Trees.from_text(booster.model_to_string().replace("num_cat=0", "num_cat=1", 1))
