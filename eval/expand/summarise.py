"""Collect run.sh's two runs into one table of the five expansions, with each expansion's paired
difference to ``none`` (same seeds, same cases).

Usage: .venv/bin/python eval/expand/summarise.py RUNS_DIR [OUT_DIR]

Reads RUNS_DIR/<dataset>/results.csv and case_scores.csv.gz (``legalkg eval --out``), writes
OUT_DIR/results.csv (the § depth row of every cell, all courts) and OUT_DIR/results.md. The paired
difference of raw § recall (micro) to the unexpanded cell is ``legalkg.eval.stats.paired_test``
(sign-flip permutation p, paired bootstrap CI) on the per-case hits at § depth.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

from legalkg.eval.stats import paired_test

DATASETS = {"ler_bgh": "LER BGH", "ler_courts": "ler_courts"}
EXPANSIONS = ["none", "parent", "citation", "hybrid", "cocited", "decisions"]
#: the § depth is the second depth (Code, §, Absatz, ...): case_scores' hits_2
PARA_HITS = "hits_2"


def rows(runs: Path) -> list[dict]:
    out = []
    for ds, name in DATASETS.items():
        res = pd.read_csv(runs / ds / "results.csv")
        res = res[(res["depth"] == "§") & (res["court"].fillna("all") == "all")]
        cases = pd.read_csv(runs / ds / "case_scores.csv.gz")
        for level in dict.fromkeys(res["level"]):
            per = cases[cases["level"] == level]
            base = per[per["expansion"] == "none"].set_index("case_id")
            for exp in EXPANSIONS:
                r = res[(res["level"] == level) & (res["expansion"] == exp)]
                if r.empty:
                    continue
                r = r.iloc[0]
                mine = per[per["expansion"] == exp].set_index("case_id").loc[base.index]
                test = paired_test(mine[PARA_HITS].to_numpy(float), base[PARA_HITS].to_numpy(float),
                                   base["n_gold"].to_numpy(float), n_resamples=10_000, seed=0)
                out.append({"dataset": name, "level": level, "expansion": exp, "n_cases": int(r["n_cases"]),
                            "recall_micro": r["recall_micro"], "ci_low": r["ci_low"], "ci_high": r["ci_high"],
                            "diff_to_none": test.diff, "diff_ci_low": test.ci_low, "diff_ci_high": test.ci_high,
                            "p_value": test.p_value, "W": r["W"], "W_m": r["W_m"], "toer": r["toer"],
                            "toer_m": r["toer_m"], "W_d": r["W_d"], "toer_d": r["toer_d"]})
    return out


def markdown(table: pd.DataFrame) -> str:
    lines = ["| dataset | level | expansion | raw § recall@5 [95 % CI] | minus none [95 % CI], p | W_d | "
             "§ recall per 1,000 delivered words (toer_d) | ToER^m § |", "|---|---|---|---|---|---|---|---|"]
    for r in table.itertuples():
        diff = "—" if r.expansion == "none" else (f"{r.diff_to_none:+.3f} [{r.diff_ci_low:+.3f}, "
                                                  f"{r.diff_ci_high:+.3f}], p {r.p_value:.4f}")
        lines.append(f"| {r.dataset} ({r.n_cases}) | {r.level} | {r.expansion} | {r.recall_micro:.3f} "
                     f"[{r.ci_low:.3f}, {r.ci_high:.3f}] | {diff} | {r.W_d:.1f} | {r.toer_d:.2f} | {r.toer_m:.2f} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    runs = Path(sys.argv[1])
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else runs
    table = pd.DataFrame(rows(runs))
    table.to_csv(out / "results.csv", index=False, float_format="%.6g")
    (out / "results.md").write_text("## The five expansions of the learned mode, 5-fold CV, k 5\n\n"
                                    + markdown(table), "utf-8")
    print(markdown(table))


if __name__ == "__main__":
    main()
