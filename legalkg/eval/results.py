"""One configuration's case scores -> the result rows every report and comparison reads.

Why a separate module: ``metric`` is the formula and ``stats`` the resampling; this joins them into
the long table the CLI writes (one row per dataset x level x expansion x mode x depth) so every
consumer (report, notebooks, the chunking study) sees the same columns.

Columns: dataset, level, expansion, mode, k, depth, depth_index, n_cases, n_gold, hits,
recall_micro, ci_low, ci_high (bootstrap CI of recall_micro), recall_macro, macro_ci_low,
macro_ci_high, W, toer, toer_ci_low, toer_ci_high, W_m, toer_m, W_d, toer_d, n_resamples, seed,
gold_count (how gold was counted per depth, ``metric.GOLD_COUNTS``).

Rows of a subset of the cases (one court of ``ler_courts``) come from :func:`group_frames`; the
writer (``outdir``) marks every row with a ``court`` column, ``"all"`` for the whole dataset.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

import numpy as np
import pandas as pd

from . import metric, stats

KEY_COLUMNS = ("dataset", "court", "gold_count", "level", "expansion", "mode", "k", "depth")
#: ``court`` of the rows over all cases of a run.
ALL = "all"


class Labels(NamedTuple):
    """What a table's rows say about the run they come from (and how its CIs were resampled)."""

    dataset: str
    level: str
    expansion: str = "none"
    mode: str = ""
    k: int | None = None
    max_depth: int = metric.N_DEPTHS
    n_resamples: int = stats.DEFAULT_RESAMPLES
    seed: int = stats.DEFAULT_SEED
    gold_count: str = "fixed"


def results_frame(scores: Sequence[metric.CaseScore], W: float, W_m: float | None = None,
                  **labels) -> pd.DataFrame:
    """Summary rows (depths 1..max_depth) with bootstrap 95 % CIs for micro and macro recall and ToER;
    ``labels`` are the fields of ``Labels``."""
    lab = Labels(**labels)
    dataset, level, expansion, mode, k, max_depth, n_resamples, seed, gold_count = lab
    df = metric.summarize(scores, W, W_m)
    hits, n_gold = metric.hit_matrix(scores, per_depth=True)
    for col in ("ci_low", "ci_high", "macro_ci_low", "macro_ci_high"):
        df[col] = np.nan
    if (n_gold[:, 0] == n_gold.T).all():  # one gold count per case (fixed): resample all depths at once
        has_gold = n_gold[:, 0] > 0
        if has_gold.any():
            micro = stats.bootstrap_ci(hits, n_gold[:, 0], n_resamples=n_resamples, seed=seed)
            macro = stats.bootstrap_ci(hits[has_gold] / n_gold[has_gold, :1], n_resamples=n_resamples, seed=seed)
            df["ci_low"], df["ci_high"] = np.asarray(micro.low), np.asarray(micro.high)
            df["macro_ci_low"], df["macro_ci_high"] = np.asarray(macro.low), np.asarray(macro.high)
    else:  # each depth has its own gold: the cases without gold at a depth leave its macro mean
        for i in range(metric.N_DEPTHS):
            has_gold = n_gold[:, i] > 0
            if not has_gold.any():
                continue
            micro = stats.bootstrap_ci(hits[:, i], n_gold[:, i], n_resamples=n_resamples, seed=seed)
            macro = stats.bootstrap_ci(hits[has_gold, i] / n_gold[has_gold, i], n_resamples=n_resamples, seed=seed)
            df.loc[i, ["ci_low", "ci_high"]] = micro.low, micro.high
            df.loc[i, ["macro_ci_low", "macro_ci_high"]] = macro.low, macro.high
    # W is constant per scheme, so the ToER interval is the recall interval rescaled.
    df["toer_ci_low"] = metric.toer(df["ci_low"].to_numpy(), W)
    df["toer_ci_high"] = metric.toer(df["ci_high"].to_numpy(), W)
    df.insert(0, "k", k)
    df.insert(0, "mode", mode)
    df.insert(0, "expansion", expansion)
    df.insert(0, "level", level)
    df.insert(0, "dataset", dataset)
    df["n_resamples"] = n_resamples
    df["seed"] = seed
    df["gold_count"] = metric.check_gold_count(gold_count)
    return df[df["depth_index"] <= max_depth].reset_index(drop=True)


def group_frames(scores: Sequence[metric.CaseScore], group_of: Mapping[str, str | None], W: float,
                 W_m: float | None = None, **kwargs) -> pd.DataFrame:
    """:func:`results_frame` per group of cases (e.g. court), with a ``court`` column.

    ``group_of`` maps case id -> group; cases without a group are left out. Empty when the cases
    fall in fewer than two groups: one group's rows would repeat the rows over all cases.
    """
    by_group: dict[str, list[metric.CaseScore]] = {}
    for s in scores:
        g = group_of.get(s.case_id)
        if g:
            by_group.setdefault(str(g), []).append(s)
    if len(by_group) < 2:
        return pd.DataFrame()
    frames = []
    for g in sorted(by_group):
        df = results_frame(by_group[g], W, W_m, **kwargs)
        df.insert(1, "court", g)
        frames.append(df)
    return pd.concat(frames, ignore_index=True)


def with_court(results: pd.DataFrame, by_court: pd.DataFrame | None = None) -> pd.DataFrame:
    """The rows over all cases (``court`` = ``ALL``) followed by the per-court rows, one table."""
    table = results if "court" in results.columns else results.assign(court=ALL)
    if by_court is not None and not by_court.empty:
        table = pd.concat([table, by_court], ignore_index=True)
    cols = list(table.columns)
    cols.remove("court")
    cols.insert(cols.index("dataset") + 1 if "dataset" in cols else 0, "court")
    return table[cols]
