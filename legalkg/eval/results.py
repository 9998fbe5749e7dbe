"""One configuration's case scores -> the result rows every report and comparison reads.

Why a separate module: ``metric`` is the formula and ``stats`` the resampling; this joins them into
the long table the CLI writes (one row per dataset x level x expansion x mode x depth) so every
consumer (report, notebooks, the chunking study) sees the same columns.

Columns: dataset, level, expansion, mode, k, depth, depth_index, n_cases, n_gold, hits,
recall_micro, ci_low, ci_high (bootstrap CI of recall_micro), recall_macro, macro_ci_low,
macro_ci_high, W, toer, toer_ci_low, toer_ci_high, W_m, toer_m, W_d, toer_d, n_resamples, seed.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from . import metric, stats

KEY_COLUMNS = ("dataset", "level", "expansion", "mode", "k", "depth")


def results_frame(scores: Sequence[metric.CaseScore], W: float, W_m: float | None = None, *,
                  dataset: str, level: str, expansion: str = "none", mode: str = "", k: int | None = None,
                  max_depth: int = metric.N_DEPTHS, n_resamples: int = stats.DEFAULT_RESAMPLES,
                  seed: int = stats.DEFAULT_SEED) -> pd.DataFrame:
    """Summary rows (depths 1..max_depth) with bootstrap 95 % CIs for micro and macro recall and ToER."""
    df = metric.summarize(scores, W, W_m)
    hits, n_gold = metric.hit_matrix(scores)
    has_gold = n_gold > 0
    if has_gold.any():
        micro = stats.bootstrap_ci(hits, n_gold, n_resamples=n_resamples, seed=seed)
        macro = stats.bootstrap_ci(hits[has_gold] / n_gold[has_gold, None], n_resamples=n_resamples, seed=seed)
        df["ci_low"], df["ci_high"] = np.asarray(micro.low), np.asarray(micro.high)
        df["macro_ci_low"], df["macro_ci_high"] = np.asarray(macro.low), np.asarray(macro.high)
    else:
        for col in ("ci_low", "ci_high", "macro_ci_low", "macro_ci_high"):
            df[col] = np.nan
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
    return df[df["depth_index"] <= max_depth].reset_index(drop=True)
