"""``EvalRequest``: one evaluation run, validated once where it enters, and the command that repeats it.

Why a model: ``legalkg eval`` has some twenty options whose rules depend on each other (``--train-extra``
and ``--tune-weights`` act inside ``--cv`` folds, ``--save-weights`` saves tuned weights, ...). Checked
here once, ``run_eval`` works on values that are already right, and ``command_line`` is generated
from the same fields, so the command ``run.json`` records reproduces the run: no option can be
forgotten by a second, hand-written list.

Defaults differ from ``legalkg search``'s where the question differs: ``legalkg search`` answers
one user (the engine's defaults, ``legalkg.vocab``: the learned mode at § level), ``legalkg eval``
measures the paper's design card (``DEFAULT_LEVEL``: Satz, on the LER BGH decisions) with
``DEFAULT_MODE`` full-text: the learned mode's shipped predictor was trained on those decisions, so
scoring it there needs ``--cv`` (docs/evaluation.md).
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator, model_validator

from ..errors import UserError
from ..predict import parse_component_weights
from ..retrieve.learned import parse_weights, weights_label
from ..vocab import (
    DEFAULT_EXPANSION,
    DEFAULT_K,
    Expansion,
    FoldRanker,
    GoldCount,
    Mode,
    RankerFeatures,
    RetrievalLevel,
    check_k,
    parse_fold_ranker,
    parse_gold_count,
    parse_ranker_features,
)
from . import grid, stats
from .grid import Cell

#: The design card's `legalkg eval --level Satz --expand hybrid` runs on the BGH set.
DEFAULT_DATASET = "ler_bgh"
#: The design card's level (the module docstring: why not the engine's).
DEFAULT_LEVEL = RetrievalLevel.SATZ
#: Full-text: needs no vectors, and no predictor trained on the scored cases (the module docstring).
DEFAULT_MODE = Mode.FULLTEXT
#: Resamples of the paired sign-flip test.
DEFAULT_PERMUTATIONS = 10_000


class EvalRequest(BaseModel):
    """The options of ``legalkg eval``, by the names of its flags (``--gold-count`` is ``gold_count``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    dataset: str = DEFAULT_DATASET
    level: tuple[RetrievalLevel, ...] = (DEFAULT_LEVEL,)
    expand: tuple[Expansion, ...] = (DEFAULT_EXPANSION,)
    mode: tuple[Mode, ...] = (DEFAULT_MODE,)
    k: int = DEFAULT_K
    limit: int | None = Field(None, ge=1)
    out: Path | None = None
    seed: int = stats.DEFAULT_SEED
    bootstrap: int = Field(1000, ge=10)
    permutations: int = Field(DEFAULT_PERMUTATIONS, ge=100)
    gold_count: GoldCount = GoldCount.FIXED
    cv: int | None = Field(None, ge=2)
    fold_ranker: FoldRanker = FoldRanker.SHIPPED
    #: the fold rankers' features (the task's shipped design by default)
    ranker_features: RankerFeatures = RankerFeatures.DEFAULT
    predictor: Path | None = None
    train_extra: tuple[Path, ...] = ()
    weights: str | None = None
    predictor_weights: str | None = None
    tune_weights: bool = False
    save_weights: Path | None = None
    gold_laws: str | None = None

    def __init__(self, **data: Any) -> None:
        try:
            super().__init__(**data)
        except ValidationError as err:
            first = err.errors()[0]
            where = "--" + "-".join(str(p) for p in first["loc"]).replace("_", "-") if first["loc"] else "eval"
            raise UserError(f"invalid {where}: {first['msg']}") from None

    @field_validator("level", "expand", "mode", mode="before")
    @classmethod
    def _choices(cls, v: Any, info: ValidationInfo) -> Any:
        """'all', one value or a comma list, read through the vocabulary (``grid.parse_*``)."""
        parse = {"level": grid.parse_levels, "expand": grid.parse_expansions, "mode": grid.parse_modes}[info.field_name]
        return tuple(parse(v)) if isinstance(v, str) else v

    @field_validator("gold_count", mode="before")
    @classmethod
    def _gold_count(cls, v: Any) -> Any:
        return parse_gold_count(v) if isinstance(v, str) else v

    @field_validator("fold_ranker", mode="before")
    @classmethod
    def _fold_ranker(cls, v: Any) -> Any:
        return parse_fold_ranker(v) if isinstance(v, str) else v

    @field_validator("ranker_features", mode="before")
    @classmethod
    def _ranker_features(cls, v: Any) -> Any:
        return parse_ranker_features(v) if isinstance(v, str) else v

    @field_validator("k")
    @classmethod
    def _k(cls, v: int) -> int:
        return check_k(v)

    @field_validator("weights")
    @classmethod
    def _weights(cls, v: str | None) -> str | None:
        return weights_label(parse_weights(v)) if v else None

    @field_validator("predictor_weights")
    @classmethod
    def _predictor_weights(cls, v: str | None) -> str | None:
        if v:
            parse_component_weights(v)
        return v or None

    @model_validator(mode="after")
    def _rules(self) -> EvalRequest:
        if self.train_extra and not self.cv:
            raise UserError("--train-extra needs --cv N: the extra data trains each fold's predictor")
        if self.fold_ranker is not FoldRanker.SHIPPED and not self.cv:
            raise UserError(f"--fold-ranker {self.fold_ranker} needs --cv N: it sets the rankers of the CV folds")
        if self.tune_weights and not self.cv:
            raise UserError("--tune-weights needs --cv N: the weights are chosen inside each fold")
        if self.save_weights is not None and not self.tune_weights:
            raise UserError("--save-weights needs --tune-weights --cv N: the saved weights are the tuned ones")
        if self.predictor_weights and self.tune_weights:
            raise UserError("--predictor-weights and --tune-weights: choose one (the inner CV tunes with the "
                            "predictor's own component weights)")
        if self.predictor_weights and self.cv and self.fold_ranker is FoldRanker.SHIPPED:
            raise UserError("--predictor-weights with --cv: the folds' rankers order the § run from the components' "
                            "own scores, so the weights would not change it: add --fold-ranker none")
        return self

    def cells(self) -> list[Cell]:
        return grid.plan(self.level, self.expand, self.mode)

    def run_weights(self) -> dict[str, float] | None:
        """The learned mode's run weights asked for (``--weights``), or None."""
        return parse_weights(self.weights) if self.weights else None

    def component_weights(self) -> dict[str, float] | None:
        """The predictor's component weights asked for (``--predictor-weights``), or None."""
        return parse_component_weights(self.predictor_weights) if self.predictor_weights else None

    def command_line(self) -> str:
        """The run as one command line, every option that is set (connection flags left out: they
        carry secrets, and the graph they name is recorded beside the command)."""
        parts = ["legalkg", "eval"]
        for name in type(self).model_fields:
            value = getattr(self, name)
            flag = "-k" if name == "k" else "--" + name.replace("_", "-")
            if value is None or value is False or value == ():
                continue
            if value is True:
                parts.append(flag)
            elif name == "train_extra":
                parts += [p for path in value for p in (flag, str(path))]
            elif isinstance(value, tuple):
                parts += [flag, ",".join(str(v) for v in value)]
            else:
                parts += [flag, str(value)]
        return " ".join(shlex.quote(p) for p in parts)
