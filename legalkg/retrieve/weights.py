"""The learned mode's shipped fusion weights: ``legalkg/data/fusion-weights.json``, one entry per task.

Why a file beside the predictor models and not constants: the weights are chosen on data (an
inner CV over the shared training cases, ``legalkg eval --tune-weights --save-weights``), so they
carry the command and date that produced them, and a retrain can rewrite them without a code
change. A task without an entry (or no file) falls back to ``learned.WEIGHTS``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from ..taskfile import read_entries, shipped_path, write_entry
from . import learned as lm

FILE = "fusion-weights.json"


WHAT = "fusion-weights"
FIX = "legalkg eval --tune-weights --save-weights"


def default_path() -> Path:
    return shipped_path(FILE)


def read(path: str | Path | None = None) -> dict:
    """The file's entries (task -> {weights, command, date, ...}); {} where there is no file."""
    return read_entries(path, FILE, WHAT, FIX)


def shipped(task: str, path: str | Path | None = None) -> dict[str, float]:
    """The weights of ``task``: its entry in the file over ``learned.WEIGHTS``."""
    entry = read(path).get(task) or {}
    return {**lm.WEIGHTS, **{k: float(v) for k, v in (entry.get("weights") or {}).items() if k in lm.RUNS}}


def save(path: str | Path, task: str, weights: Mapping[str, float], command: str, score: float) -> Path:
    """Write (or replace) ``task``'s entry, keeping the other tasks' entries."""
    return write_entry(path, task, {"weights": {k: float(weights[k]) for k in lm.RUNS if k in weights},
                                    "command": command, "inner_cv_recall": round(score, 4)}, FILE, WHAT, FIX)


def for_evaluation(explicit: Mapping[str, float] | None, own_predictor: bool) -> dict[str, float] | None:
    """The weights an evaluation fuses with (None: the shipped ones of each task).

    The shipped entries were tuned with the shipped predictors on the shared LER data, so an
    evaluation with a predictor of its own (``--predictor``) takes the untuned ``learned.WEIGHTS``:
    no weight it uses was chosen on the cases it scores. Explicit weights (``--weights``) win.
    """
    if explicit:
        return dict(explicit)
    return dict(lm.WEIGHTS) if own_predictor else None
