"""The ``legalkg eval --out DIR`` folder: write it, and read it back (notebooks, comparisons).

Contents (all plain files, so a run can be re-plotted or re-tested without the graph):

``results.csv`` / ``results.md`` / ``*.png``
    ``report.write_report``: one row per dataset x court x level x expansion x mode x depth
    (``court`` = "all" for the whole dataset; per-court rows when the cases come from two or more
    courts), the markdown ToER / ToER^m / recall tables and the paper-style figures.
``paired.csv``
    best cell vs the naive baseline (Chunk, none) per mode: differences in micro recall and
    ToER^m per depth, paired bootstrap CI, sign-flip p-value, Holm-adjusted p.
``case_scores.csv.gz``
    per cell and case: n_gold, hits per depth, hits returned, delivered words.
``run.json``
    the exact command, date, model per index, graph counts, coverage, W / W^m, timings.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pandas as pd

from .. import __version__
from ..errors import UserError
from ..paths import portable_tree
from . import report, results
from .runner import EvalRun

RESULTS = "results.csv"
PAIRED = "paired.csv"
CASES = "case_scores.csv.gz"
META = "run.json"


#: Options whose value is a secret: their value is left out of ``run.json``.
SECRET_OPTIONS = ("--password",)


def scrub_argv(argv: list[str]) -> list[str]:
    """``argv`` with the values of ``SECRET_OPTIONS`` replaced by "***" (run.json is committed)."""
    out: list[str] = []
    hide = False
    for a in argv:
        if hide:
            out.append("***")
            hide = False
        elif a in SECRET_OPTIONS:
            out.append(a)
            hide = True
        elif any(a.startswith(o + "=") for o in SECRET_OPTIONS):
            out.append(a.split("=", 1)[0] + "=***")
        else:
            out.append(a)
    return out


def run_metadata(run: EvalRun, *, command: str, argv: list[str] | None = None,
                 graph: dict[str, Any] | None = None, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """What is needed to reproduce and to read a run: command, date, model, graph counts, W; the
    folders of this machine named portably (``paths.portable``: run.json is committed)."""
    return portable_tree({
        "command": command,
        "argv": scrub_argv(argv or []),
        "options": options or {},
        "started": run.started,
        "finished": datetime.now(UTC).isoformat(timespec="seconds"),
        "legalkg_version": __version__,
        "python": platform.python_version(),
        "dataset": run.dataset,
        "k": run.k,
        "n_cases_loaded": run.n_cases_loaded,
        "n_cases": run.n_cases,
        "max_depth": run.max_depth,
        "gold_count": run.gold_count,
        "coverage": run.coverage.model_dump(),
        "cells": [c._asdict() for c in run.cells],
        "models": run.models,
        "model": ", ".join(sorted({m["name"] for m in run.models.values()})) or None,
        "graph": {**(graph or {}), "laws": len(run.law_keys)},
        "words": {lv: w.model_dump() for lv, w in run.words.items()},
        "timings_s": {k: round(v, 3) for k, v in run.timings.items()},
    })


def write(run: EvalRun, out_dir: Path, meta: dict[str, Any]) -> list[Path]:
    """Write the whole folder, all or nothing; returns the paths written.

    Why a temporary folder beside ``out_dir``: a full disk failed after results.csv, results.md and
    a figure, and left that half in ``out_dir``. The files are written in a hidden folder on the same
    file system and only then renamed into ``out_dir`` (a rename needs no space); on any write
    error the hidden folder goes and ``out_dir`` stays as it was. An earlier run's results in
    ``out_dir`` (``earlier_results``) are removed just before the new ones move in, so a figure the
    new run does not draw is never left beside it; other files (a README) stay. ``legalkg eval``
    asks for ``--force`` before it replaces results."""
    out_dir = Path(out_dir)
    existed = out_dir.exists()
    out_dir.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.partial-", dir=out_dir.parent))
    try:
        written = _write_files(run, staging, meta)
        for name in earlier_results(out_dir):
            (out_dir / name).unlink()
        for path in written:
            os.replace(path, out_dir / path.name)
    except OSError as err:
        if not existed:
            shutil.rmtree(out_dir, ignore_errors=True)
        raise UserError(f"cannot write the results to {out_dir} ({err.strerror}): free some space or choose "
                        "another --out; nothing was written") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return [out_dir / path.name for path in written]


def earlier_results(out_dir: Path) -> list[str]:
    """The files of ``out_dir`` that an eval run writes (tables, figures, run.json), sorted: what
    ``write`` replaces, and what ``legalkg eval --out`` refuses to replace without ``--force``."""
    if not out_dir.is_dir():
        return []
    return sorted(p.name for p in out_dir.iterdir() if p.is_file() and _is_result(p.name))


def _is_result(name: str) -> bool:
    return name in {RESULTS, "results.md", PAIRED, CASES, META} or (
        name.endswith(".png") and name.startswith(("toer_by_depth_", "toer_expansion_")))


def _write_files(run: EvalRun, out_dir: Path, meta: dict[str, Any]) -> list[Path]:
    depth = "Absatz" if run.max_depth >= 3 else "§"
    table = results.with_court(run.results, run.by_court)
    written = report.write_report(table, out_dir, expansion_depth=depth)
    with (out_dir / "results.md").open("a", encoding="utf-8") as fh:
        fh.write(extra_markdown(run, meta))
    paired = out_dir / PAIRED
    run.paired.to_csv(paired, index=False)
    cases = out_dir / CASES
    run.case_scores.to_csv(cases, index=False)
    path = out_dir / META
    path.write_text(json.dumps(meta, indent=2, ensure_ascii=False, default=str) + "\n", encoding="utf-8")
    return written + [paired, cases, path]


def extra_markdown(run: EvalRun, meta: dict[str, Any]) -> str:
    """IR metrics per (level, mode), the paired test and the run facts, appended to results.md."""
    k = run.k
    lines: list[str] = []
    has_ir = {"recall_at_k", "ndcg_at_k", "n_ir_queries"} <= set(run.results.columns)
    ir_rows = run.results.drop_duplicates(["level", "mode"]) if has_ir else run.results.iloc[:0]
    if has_ir:
        lines += [f"\n## Recall@{k} and nDCG@{k} over § relevance (seeds only, expansion is not ranked)\n",
                  f"| mode | level | Recall@{k} | nDCG@{k} | queries |", "|---|---|---|---|---|"]
    for _, r in ir_rows.iterrows():
        lines.append(f"| {r['mode']} | {r['level']} | {r['recall_at_k']:.3f} | {r['ndcg_at_k']:.3f} | "
                     f"{int(r['n_ir_queries'])} |")
    if not run.paired.empty:
        lines += ["\n## Best cell (highest ToER^m at §) vs naive baseline Chunk/none, paired over cases\n",
                  "| mode | best | statistic | depth | best | baseline | diff [95 % CI] | p | p Holm |",
                  "|---|---|---|---|---|---|---|---|---|"]
        for _, r in run.paired.iterrows():
            lines.append(f"| {r['mode']} | {r['best_level']}/{r['best_expansion']} | {r['statistic']} | "
                         f"{r['depth']} | {r['best']:.3f} | {r['baseline_value']:.3f} | {r['diff']:+.3f} "
                         f"[{r['ci_low']:+.3f}, {r['ci_high']:+.3f}] | {r['p_value']:.4f} | {r['p_holm']:.4f} |")
    cov = run.coverage
    lines += ["\n## Run\n", f"- command: `{meta.get('command', '')}`", f"- date: {run.started}",
              f"- model: {meta.get('model') or 'none (fulltext only)'}",
              f"- gold counted per depth: {run.gold_count} (docs/evaluation.md, 'Counting gold per depth')",
              f"- cases: {run.n_cases} of {run.n_cases_loaded} with gold in the graph; gold coverage "
              f"{cov.n_covered} / {cov.n_gold} = {100 * cov.share:.1f} %",
              "- W (words per unit): " + ", ".join(f"{lv} {w.W:.1f}" if w.W == w.W else f"{lv}: the run's W_d"
                                                   for lv, w in run.words.items()), ""]
    return "\n".join(lines)


def load(out_dir: Path) -> tuple[pd.DataFrame, pd.DataFrame, dict[str, Any]]:
    """(results, paired, run metadata) of an --out folder; paired is empty when no baseline ran."""
    out_dir = Path(out_dir)
    res = pd.read_csv(out_dir / RESULTS)
    paired_path = out_dir / PAIRED
    try:
        paired = pd.read_csv(paired_path)
    except (FileNotFoundError, pd.errors.EmptyDataError):
        paired = pd.DataFrame()
    meta = json.loads((out_dir / META).read_text(encoding="utf-8"))
    return res, paired, meta
