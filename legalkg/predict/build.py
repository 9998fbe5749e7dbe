"""``legalkg train`` as a library call: check the files, read the statutes, train, write the model.

Why this order: a bad training file must fail in a second with one line, before the statutes
(about 10 s for the 58 codes) are parsed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .. import paths
from .examples import load_examples, resolve_labels
from .modelfile import save
from .predictor import Config, train
from .units import unit_texts


@dataclass(frozen=True)
class BuildReport:
    path: Path
    task: str
    n_examples: int
    n_labels: dict[str, int]
    unresolved: int
    size_bytes: int
    bridge: bool


def build_model(data: Sequence[str | Path], out: str | Path, task: str | None = None, seed: int = 0,
                slugs: Sequence[str] | None = None, config: Config | None = None) -> BuildReport:
    """Train on ``data`` (labels resolved against the units of ``slugs``, default the 58 codes)
    and write the model file to ``out``."""
    checked = load_examples(list(data), task)
    paths.check_writable_file(Path(out), "--out")  # before the slow part: a bad --out must not cost a training run
    units = unit_texts(slugs)
    resolved = resolve_labels(checked, units)
    model = train(resolved, units, config, seed=seed)
    path = save(model, out)
    return BuildReport(path, model.task, len(resolved.examples),
                       {name: len(lm.labels) for name, lm in model.levels.items()}, resolved.unresolved,
                       path.stat().st_size, model.assoc is not None)
