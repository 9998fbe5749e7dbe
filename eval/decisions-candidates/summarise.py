"""Collect run.sh's runs (one per dataset and variant) into one table with paired differences.

Usage: .venv/bin/python eval/decisions-candidates/summarise.py RUNS_DIR [OUT_DIR]

Reads RUNS_DIR/<dataset>-<variant>/results.csv and case_scores.csv.gz (``legalkg eval --out``, run
through ``benchmarks/decisions_candidates.py VARIANT``), writes OUT_DIR/results.csv and
OUT_DIR/results.md. Per dataset: ``fulltext`` (the naive baseline, from the ``shipped`` run; every
variant's run holds the same fulltext cells, checked here) and the learned engine under each
variant, at ``--level auto`` (§ recall and ToER@5 at § depth, W_d the words delivered per hit) and
at § level. Paired with ``shipped`` on the same cases (same folds: same seed, same case order):
the § recall difference by ``legalkg.eval.stats.paired_test`` (sign-flip p, paired bootstrap CI),
the ToER difference by a paired bootstrap over cases (both ToERs recomputed on each resample,
recall and W_d alike; ``RESAMPLES``, seed 0).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

from legalkg.eval.stats import paired_test

DATASETS = {"ler_bgh": "LER BGH", "ler_courts": "ler_courts", "ler_all": "ler_all"}
VARIANTS = {"shipped": "ranker, shipped: kNN votes of the 30 nearest training decisions",
            "noknn": "ranker without the decisions source (kNN off at § level)",
            "wide": "ranker, wider: votes of the 100 nearest, their §§ 31-60 as extra candidates",
            "rrf": "no ranker (`--fold-ranker none`): the predictor's RRF, kNN weight 1",
            "rrf-noknn": "no ranker, `--predictor-weights knn=0`"}
BASE = "shipped"
#: each variant's paired reference (the same engine with the shipped decisions source)
PAIRED_WITH = {"noknn": BASE, "wide": BASE, "rrf-noknn": "rrf"}
#: the § depth is the second depth (Code, §, Absatz, ...): case_scores' hits_2
PARA_HITS = "hits_2"
RESAMPLES = 2000
#: issue 42's floor for LER with ``--level auto``: ToER@5 at § depth at § recall
FLOOR_TOER, FLOOR_RECALL = 7.0, 0.30


def toer_of(weights: np.ndarray, hits: np.ndarray, gold: np.ndarray, per_hit: np.ndarray,
            has: np.ndarray) -> np.ndarray:
    """ToER (recall micro / (W_d / 1000)) for each row of case ``weights`` (resamples x cases)."""
    recall = (weights @ hits) / (weights @ gold)
    w_d = (weights @ (per_hit * has)) / (weights @ has)
    return recall / (w_d / 1000.0)


def toer_parts(df: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``toer_of``'s per-case arrays of case scores: § hits, gold, words per hit, whether it had hits."""
    n_hits = df["n_hits"].to_numpy(float)
    has = (n_hits > 0).astype(float)
    per_hit = np.divide(df["delivered_words"].to_numpy(float), n_hits, out=np.zeros(len(df)), where=n_hits > 0)
    return df[PARA_HITS].to_numpy(float), df["n_gold"].to_numpy(float), per_hit, has


def toer_diff(a: pd.DataFrame, b: pd.DataFrame, seed: int = 0) -> tuple[float, float, float]:
    """ToER(a) - ToER(b) on the same cases, with its paired bootstrap 95 % CI."""
    parts = [toer_parts(a), toer_parts(b)]
    n = len(a)
    point = float(toer_of(np.ones((1, n)), *parts[0])[0] - toer_of(np.ones((1, n)), *parts[1])[0])
    rng = np.random.default_rng(seed)
    w = rng.multinomial(n, np.full(n, 1.0 / n), size=RESAMPLES).astype(float)
    diffs = toer_of(w, *parts[0]) - toer_of(w, *parts[1])
    low, high = np.nanquantile(diffs, [0.025, 0.975])
    return point, float(low), float(high)


def cells(run: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    res = pd.read_csv(run / "results.csv")
    res = res[(res["depth"] == "§") & (res["court"].fillna("all") == "all")]
    return res, pd.read_csv(run / "case_scores.csv.gz")


def per_cell(cases: pd.DataFrame, level: str, mode: str) -> pd.DataFrame:
    return cases[(cases["level"] == level) & (cases["mode"] == mode) & (cases["expansion"] == "none")
                 ].set_index("case_id").sort_index()


def configs(runs: Path, ds: str) -> list[tuple[str, str, pd.DataFrame, pd.DataFrame]]:
    """(key, label, § rows of results.csv, case scores) of ``ds``: fulltext from the ``BASE`` run,
    then each variant's learned engine; refuses a run whose fulltext cells differ from ``BASE``'s."""
    base_res, base_cases = cells(runs / f"{ds}-{BASE}")
    out = [("fulltext", "fulltext (naive baseline)", base_res, base_cases)]
    for variant, label in VARIANTS.items():
        run = runs / f"{ds}-{variant}"
        if not run.is_dir():
            continue
        res, cases = cells(run)
        for level in ("auto", "Paragraph"):
            if not per_cell(cases, level, "fulltext").equals(per_cell(base_cases, level, "fulltext")):
                raise SystemExit(f"{run}: its fulltext cells differ from {BASE}'s: not the same cases")
        out.append((variant, label, res, cases))
    return out


def paired(cases: pd.DataFrame, base_cases: pd.DataFrame, what: str) -> dict:
    """The auto cell of ``cases`` minus its reference's: § recall (paired test) and ToER (bootstrap)."""
    ref, mine = per_cell(base_cases, "auto", "learned"), per_cell(cases, "auto", "learned")
    if list(ref.index) != list(mine.index):
        raise SystemExit(f"{what} scores other cases than its reference")
    p = paired_test(mine[PARA_HITS].to_numpy(float), ref[PARA_HITS].to_numpy(float),
                    ref["n_gold"].to_numpy(float), seed=0)
    d, lo, hi = toer_diff(mine, ref)
    return {"recall_diff": float(p.diff), "recall_diff_ci_low": float(p.ci_low),
            "recall_diff_ci_high": float(p.ci_high), "recall_diff_p": float(p.p_value),
            "toer_diff": d, "toer_diff_ci_low": lo, "toer_diff_ci_high": hi}


def rows(runs: Path) -> list[dict]:
    out = []
    for ds in DATASETS:
        if not (runs / f"{ds}-{BASE}").is_dir():
            continue
        found = configs(runs, ds)
        by_key = {key: cases for key, _, _, cases in found}
        for key, label, res, cases in found:
            mode = "fulltext" if key == "fulltext" else "learned"
            row = {"dataset": ds, "n_cases": 0, "configuration": key, "label": label}
            for level, tag in (("auto", "auto"), ("Paragraph", "para")):
                r = res[(res["level"] == level) & (res["mode"] == mode) & (res["expansion"] == "none")].iloc[0]
                row["n_cases"] = int(r["n_cases"])
                row.update({f"{tag}_recall": r["recall_micro"], f"{tag}_recall_ci_low": r["ci_low"],
                            f"{tag}_recall_ci_high": r["ci_high"], f"{tag}_toer": r["toer"],
                            f"{tag}_toer_ci_low": r["toer_ci_low"], f"{tag}_toer_ci_high": r["toer_ci_high"],
                            f"{tag}_W_d": r["W_d"]})
            ref = PAIRED_WITH.get(key)
            if ref in by_key:
                row.update({"paired_with": ref, **paired(cases, by_key[ref], f"{ds}-{key}")})
            row["floor_met"] = bool(row["auto_toer"] >= FLOOR_TOER and row["auto_recall"] >= FLOOR_RECALL)
            out.append(row)
    return out


def markdown(table: pd.DataFrame) -> str:
    lines = ["| dataset | configuration | § recall@5 [95 % CI] | ToER@5 § (`--level auto`) [95 % CI] | W_d (auto) "
             "| ToER@5 § at § level | minus reference: § recall [95 % CI], p | minus reference: ToER@5 auto [95 % CI] "
             "| floor (ToER ≥ 7.0 at recall ≥ 0.30) |",
             "|---|---|---|---|---|---|---|---|---|"]
    for n, r in enumerate(table.itertuples()):
        first = n == 0 or table.iloc[n - 1]["dataset"] != r.dataset
        ds = f"{DATASETS[r.dataset]} ({r.n_cases})" if first else ""
        if r.configuration not in PAIRED_WITH or pd.isna(getattr(r, "recall_diff", np.nan)):
            diff = toer = "—"
        else:
            diff = (f"{r.recall_diff:+.3f} [{r.recall_diff_ci_low:+.3f}, {r.recall_diff_ci_high:+.3f}], "
                    f"p {r.recall_diff_p:.4f}")
            toer = f"{r.toer_diff:+.2f} [{r.toer_diff_ci_low:+.2f}, {r.toer_diff_ci_high:+.2f}]"
        lines.append(f"| {ds} | {r.label} | {r.auto_recall:.3f} [{r.auto_recall_ci_low:.3f}, "
                     f"{r.auto_recall_ci_high:.3f}] | {r.auto_toer:.2f} [{r.auto_toer_ci_low:.2f}, "
                     f"{r.auto_toer_ci_high:.2f}] | {r.auto_W_d:.1f} | {r.para_toer:.2f} | {diff} | {toer} "
                     f"| {'yes' if r.floor_met else 'no'} |")
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    runs = Path(argv[0])
    out = Path(argv[1]) if len(argv) > 1 else runs
    table = pd.DataFrame(rows(runs))
    table.to_csv(out / "results.csv", index=False, float_format="%.6f")
    (out / "results.md").write_text(markdown(table) + "\n", encoding="utf-8")
    print(markdown(table))


if __name__ == "__main__":
    main(sys.argv[1:])
