"""What a benchmark writes, in one form: ``results.csv``, ``results.md`` and ``run.json``, and the
two figures its tables quote (a bootstrap interval as text, a percentile with its interval).

Why one module: each script under ``benchmarks/`` carried its own copy of these lines, and copies
drift (two CSV dialects were committed side by side). CSV rows are written with LF line ends, the
columns in the order the rows first name them.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np

from legalkg.eval.stats import bootstrap_ci

__all__ = ["fmt_ci", "percentile_ci", "subset_cells", "write_csv", "write_results"]


def fmt_ci(ci) -> str:
    """``0.523 [0.480, 0.566]``: the point and the 95 % interval of a ``legalkg.eval.stats`` CI."""
    return f"{ci.point:.3f} [{ci.low:.3f}, {ci.high:.3f}]"


def percentile_ci(values: np.ndarray, q: float, seed: int = 0, n: int = 1000) -> tuple[float, float, float]:
    """The q-th percentile and its 95 % bootstrap interval (resampling the questions)."""
    rng = np.random.default_rng(seed)
    boot = np.percentile(rng.choice(values, size=(n, len(values)), replace=True), q, axis=1)
    return float(np.percentile(values, q)), float(np.percentile(boot, 2.5)), float(np.percentile(boot, 97.5))


def subset_cells(subsets: list[str], hits: np.ndarray, n_gold: np.ndarray, row: dict, rows: list[dict]) -> list[str]:
    """Micro recall per subset (``subsets``: one label per case, ``hits``/``n_gold``: per case): the
    points as table cells, in the labels' sorted order, and each with its bootstrap CI as a CSV row
    (``row`` with the subset, value, low, high and n filled in)."""
    labels, cells = np.asarray(subsets), []
    for subset in sorted(set(subsets)):
        idx = labels == subset
        ci = bootstrap_ci(hits[idx], n_gold[idx])
        cells.append(f"{ci.point:.3f}")
        rows.append({**row, "subset": subset, "value": ci.point, "low": ci.low, "high": ci.high, "n": int(idx.sum())})
    return cells


def write_csv(path: Path, rows: list[dict]) -> None:
    """``rows`` as CSV; a row without a column leaves it empty."""
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(dict.fromkeys(k for row in rows for k in row)),
                                lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def write_results(out: Path, rows: list[dict], lines: list[str], run: dict | None = None) -> None:
    """``results.csv`` (``rows``), ``results.md`` (``lines``) and, where given, ``run.json`` in ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    write_csv(out / "results.csv", rows)
    (out / "results.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    if run is not None:
        (out / "run.json").write_text(json.dumps(run, indent=1), encoding="utf-8")
