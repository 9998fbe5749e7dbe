"""The evaluation grid as pure functions: which cells to run, per-case scores, best-vs-baseline.

Why pure and separate from ``runner``: everything here is decided from hit lists and numbers, so
it is unit-tested without a server, while ``runner`` only moves data between Neo4j, the embedder
and these functions.

A *cell* is one retrieval configuration (level, expansion, mode). Seeds depend on (level, mode)
only, so the runner retrieves them once and derives every expansion from the same seeds. The naive
100-word chunks (level ``Chunk``) are not part of the statute tree: retrieval never expands them
(``Retriever.search`` ignores the expansion for chunks), so the grid runs them with ``none`` only.
The hits scored are ``legalkg.retrieve.Hit``s, the engine's own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import StrEnum
from typing import NamedTuple

import numpy as np
import pandas as pd

from ..errors import UserError
from ..model import DEPTHS, Citation
from ..retrieve.hits import Hit, delivered_words
from ..vocab import Expansion, GoldCount, Mode, RetrievalLevel, names, parse_expansion, parse_level, parse_mode
from . import metric, stats

#: ``--level all``: the paper's chunking levels (coarse to fine) and the naive baseline.
GRID_LEVELS: tuple[RetrievalLevel, ...] = (RetrievalLevel.PARAGRAPH, RetrievalLevel.ABSATZ,
                                           RetrievalLevel.SATZ, RetrievalLevel.NUMMER,
                                           RetrievalLevel.BUCHSTABE, RetrievalLevel.CHUNK)
BASELINE = (RetrievalLevel.CHUNK, Expansion.NONE)
#: ``--mode all``: the three index-based modes. ``learned`` (alias ``ranked``: the engine with the
#: statute predictor) trains or loads a predictor and must be asked for by name.
GRID_MODES: tuple[Mode, ...] = (Mode.VECTOR, Mode.FULLTEXT, Mode.FUSION)
#: ``--expand all``: the paper's expansions (``cocited`` is learned from cases: asked by name).
GRID_EXPANSIONS: tuple[Expansion, ...] = (Expansion.NONE, Expansion.PARENT, Expansion.CITATION, Expansion.HYBRID)


class Cell(NamedTuple):
    level: RetrievalLevel
    expansion: Expansion
    mode: Mode


def make_cell(level: str, expansion: str, mode: str) -> Cell:
    """A cell from the vocabulary's values or their spellings (aliases, any case)."""
    return Cell(parse_level(level), parse_expansion(expansion), parse_mode(mode, "mode"))


def parse_choices(value: str, parse: Callable[[str], StrEnum], all_values: Sequence[StrEnum],
                  what: str, choices: str) -> list[StrEnum]:
    """'all', one value or a comma list -> the values, in the order given, each through ``parse``
    (the vocabulary's parser, aliases included); one-line ``UserError`` otherwise."""
    raw = [v.strip() for v in (value or "").split(",") if v.strip()]
    if not raw:
        raise UserError(f"--{what} is empty: choose one of {choices} or all")
    out: list[StrEnum] = []
    for v in raw:
        if v.lower() == "all":
            out.extend(all_values)
        else:
            out.append(parse(v))
    return list(dict.fromkeys(out))


def parse_levels(value: str) -> list[RetrievalLevel]:
    return parse_choices(value, parse_level, GRID_LEVELS, "level", names(RetrievalLevel))


def parse_expansions(value: str) -> list[Expansion]:
    return parse_choices(value, lambda v: parse_expansion(v, also=" or all"), GRID_EXPANSIONS, "expansion",
                         names(Expansion))


def parse_modes(value: str) -> list[Mode]:
    return parse_choices(value, lambda v: parse_mode(v, "mode", also=" or all"), GRID_MODES, "mode",
                         names(Mode))


def plan(levels: Iterable[str], expansions: Iterable[str], modes: Iterable[str]) -> list[Cell]:
    """Cells in mode, level, expansion order; chunks only with ``none`` (they are never expanded).

    Strings are read through the vocabulary (aliases included), so every cell holds enums.
    """
    levels = [parse_level(lv) for lv in levels]
    expansions = [parse_expansion(e) for e in expansions]
    cells: list[Cell] = []
    for mode in modes:
        for level in levels:
            exps = expansions if level.expandable else [Expansion.NONE]
            for exp in exps:
                cells.append(make_cell(level, exp, mode))
    return list(dict.fromkeys(cells))


def ranked_unit_ids(seeds: Sequence[Hit]) -> list[str]:
    """Seed ids in rank order; a chunk contributes the units it covers (for the § IR metrics)."""
    return [uid for h in seeds for uid in h.unit_ids()]


def score_seeds(case_id: str, gold: Sequence[Citation], seeds: Sequence[Hit], expanded: Sequence[Hit] = (),
                gold_count: GoldCount = GoldCount.FIXED) -> metric.CaseScore:
    """One case of one cell: hits per depth from the seeds and their expansion (``expand.assemble``).
    Delivered words = each distinct unit once (seeds and context), as ``SearchResult.delivered_words``;
    a chunk counts its own words."""
    return metric.score_case(case_id, gold, ranked_unit_ids(seeds), [h.id for h in expanded], n_hits=len(seeds),
                             delivered_words=delivered_words([*seeds, *expanded]), gold_count=gold_count)


def max_depth_of(metas: Iterable[Mapping]) -> int:
    """The deepest depth every case's gold supports (GerLayQA: 2 = §)."""
    return min((int(m.get("max_depth", metric.N_DEPTHS)) for m in metas), default=metric.N_DEPTHS)


class Comparison(NamedTuple):
    """The paired test of one mode's best cell against the naive baseline."""

    frame: pd.DataFrame
    best: Cell | None
    baseline: Cell | None


def best_cell(results: pd.DataFrame, mode: str, depth: str = "§", by: str = "toer_m") -> Cell | None:
    """The non-baseline cell of ``mode`` with the highest ``by`` at ``depth``.

    Default ToER^m: it charges expansion context to the cell, so an expansion cannot win by
    delivering more text for free (plain ToER divides every expansion of a level by the same W).
    """
    sub = results[(results["mode"] == mode) & (results["depth"] == depth)
                  & ~((results["level"] == BASELINE[0]) & (results["expansion"] == BASELINE[1]))]
    sub = sub.dropna(subset=[by])
    if sub.empty:
        return None
    row = sub.sort_values(by, ascending=False, kind="stable").iloc[0]
    return Cell(row["level"], row["expansion"], mode)


def compare_to_baseline(results: pd.DataFrame, scores: Mapping[Cell, Sequence[metric.CaseScore]],
                        W_m: Mapping[Cell, float], *, max_depth: int = metric.N_DEPTHS,
                        n_resamples: int = 10_000, seed: int = stats.DEFAULT_SEED,
                        by: str = "toer_m") -> pd.DataFrame:
    """Per mode: best cell (by ToER^m at § depth) minus the baseline (Chunk, none), paired over cases.

    Two statistics per depth: the difference in micro recall and in micro ToER^m (each case's hits
    weighted by 1000 / W^m of its cell; for the unexpanded baseline W^m = W). p-values are the paired
    sign-flip test of ``stats.paired_test``,
    Holm-adjusted over every row of the table (one family). Empty when no baseline was run.
    """
    rows = []
    for mode in dict.fromkeys(results["mode"]):
        base = Cell(BASELINE[0], BASELINE[1], mode)
        best = best_cell(results, mode, by=by)
        if base not in scores or best is None or best not in scores:
            continue
        ha, n_gold = metric.hit_matrix(scores[best], per_depth=True)
        hb, n_gold_b = metric.hit_matrix(scores[base], per_depth=True)
        if not np.array_equal(n_gold, n_gold_b):
            raise ValueError("best and baseline cells scored different cases")
        ha, hb = ha[:, :max_depth].astype(float), hb[:, :max_depth].astype(float)
        n_gold = n_gold[:, :max_depth]
        for stat, a, b in (("recall", ha, hb), ("toer_m", ha * 1000.0 / W_m[best], hb * 1000.0 / W_m[base])):
            res = stats.paired_test(a, b, n_gold, n_resamples=n_resamples, seed=seed)
            for i in range(max_depth):
                rows.append({"mode": mode, "best_level": best.level, "best_expansion": best.expansion,
                             "baseline": f"{base.level}/{base.expansion}", "statistic": stat,
                             "depth": DEPTHS[i], "depth_index": i + 1,
                             "best": float(a[:, i].sum() / n_gold[:, i].sum()),
                             "baseline_value": float(b[:, i].sum() / n_gold[:, i].sum()),
                             "diff": float(np.atleast_1d(res.diff)[i]),
                             "ci_low": float(np.atleast_1d(res.ci_low)[i]),
                             "ci_high": float(np.atleast_1d(res.ci_high)[i]),
                             "p_value": float(np.atleast_1d(res.p_value)[i]),
                             "n_cases": int(len(n_gold)), "n_resamples": n_resamples})
    df = pd.DataFrame(rows)
    if not df.empty:
        df["p_holm"] = stats.holm(df["p_value"].to_numpy())
    return df
