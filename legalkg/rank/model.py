"""The learned fusion: a logistic regression over ``FEATURES``, stored as a small JSON file.

Inference is plain numpy (no scikit-learn needed to rank); training is in :mod:`.learn`.
``contributions`` splits a score into ``coef * standardised feature`` terms so a hit can be
explained per component.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from pydantic import BaseModel, Field

from ..errors import UserError
from .features import COMPONENT_FEATURES, FEATURES, Components

MODEL_VERSION = 1
DEFAULT_MODEL_PATH = Path(__file__).resolve().parents[1] / "data" / "rank_model.json"


class RankModel(BaseModel):
    """Weights of the fusion model and what it needs besides the statute indexes."""

    version: int = MODEL_VERSION
    kind: str = "logistic"
    features: list[str]
    mean: list[float]
    scale: list[float]
    coef: list[float]
    intercept: float = 0.0
    components: Components = Field(default_factory=Components)
    popularity: dict[str, int] = Field(default_factory=dict,
                                       description="gold counts per § of the training questions")
    trained_on: str = ""
    n_questions: int = 0
    command: str = ""
    cv: dict[str, float] = Field(default_factory=dict,
                                 description="5-fold out-of-fold metrics of this configuration")

    def _z(self, X: np.ndarray) -> np.ndarray:
        if list(self.features) != list(FEATURES):
            raise UserError("rank model was trained on other features: retrain with "
                            "`legalkg rank-train --out legalkg/data/rank_model.json`")
        return (X - np.asarray(self.mean, np.float64)) / np.asarray(self.scale, np.float64)

    def score(self, X: np.ndarray) -> np.ndarray:
        """Decision value per row (higher = more likely a gold §); deterministic."""
        return self._z(X) @ np.asarray(self.coef, np.float64) + self.intercept

    def contributions(self, x: np.ndarray) -> dict[str, float]:
        """Per component: the sum of its features' ``coef * z`` terms for one candidate row."""
        terms = self._z(x[None, :])[0] * np.asarray(self.coef, np.float64)
        by_feature = dict(zip(self.features, terms))
        return {comp: round(float(sum(by_feature[f] for f in feats)), 4)
                for comp, feats in COMPONENT_FEATURES.items()}


def fit_logistic(X: np.ndarray, y: np.ndarray, C: float = 1.0) -> tuple[np.ndarray, np.ndarray,
                                                                        np.ndarray, float]:
    """(mean, scale, coef, intercept) of an L2 logistic regression on standardised features.

    Constant columns (a switched-off component) get scale 1 and so weight 0.
    """
    # scikit-learn takes ~2 s to import and only training fits a model: loaded here, not at search time
    from sklearn.linear_model import LogisticRegression

    mean = X.mean(axis=0)
    scale = X.std(axis=0)
    scale[scale < 1e-9] = 1.0
    Z = (X - mean) / scale
    clf = LogisticRegression(C=C, max_iter=500)
    clf.fit(Z, y)
    return mean, scale, clf.coef_[0], float(clf.intercept_[0])


def load_model(path: str | Path | None = None) -> RankModel:
    """The shipped model (``legalkg/data/rank_model.json``) or another file (I/O)."""
    p = Path(path) if path else DEFAULT_MODEL_PATH
    if not p.exists():
        raise UserError(f"rank model {p} not found: train it with "
                        "`legalkg rank-train --out legalkg/data/rank_model.json`")
    return RankModel.model_validate_json(p.read_text(encoding="utf-8"))
