"""Issue 34's LER goals against the rows summarise.py collected (results.csv of this folder).

Usage: .venv/bin/python eval/learned-table1/ranker-cv/goals.py [DIR]  (default: this folder)

Writes DIR/goals.md and DIR/goals.csv: per dataset, configuration and level, unexpanded, at § depth
over all courts: raw § recall@5 (micro) and ToER@5 with their 95 % bootstrap CIs, W and W_d; and
which goal each row meets:
- ler_all (LER BGH + ler_courts as one set): raw § recall@5 >= 0.28 at § level; ToER@5 at § depth
  >= 5.5 with raw § recall >= 0.20 in the same row;
- ler_bgh: ToER@5 at § depth >= 3.6.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

RECALL_PARA, TOER_ALL, RECALL_WITH_TOER, TOER_BGH = 0.28, 5.5, 0.20, 3.6
ORDER = {"ler_all": 0, "ler_bgh": 1, "ler_courts": 2}


def goal_of(r: pd.Series) -> str:
    met = []
    if r["dataset"] == "ler_all":
        if r["level"] == "Paragraph" and r["recall_micro"] >= RECALL_PARA:
            met.append(f"recall ≥ {RECALL_PARA}")
        if r["toer"] >= TOER_ALL and r["recall_micro"] >= RECALL_WITH_TOER:
            met.append(f"ToER ≥ {TOER_ALL} with recall ≥ {RECALL_WITH_TOER}")
    if r["dataset"] == "ler_bgh" and r["toer"] >= TOER_BGH:
        met.append(f"ToER ≥ {TOER_BGH}")
    return "; ".join(met) or "–"


def main(folder: Path) -> None:
    df = pd.read_csv(folder / "results.csv")
    rows = df[(df["court"] == "all") & (df["depth"] == "§") & (df["expansion"] == "none")].copy()
    rows["order"] = rows["dataset"].map(ORDER)
    rows = rows.sort_values(["order", "configuration", "level"], kind="stable")
    rows["goals_met"] = rows.apply(goal_of, axis=1)
    cols = ["dataset", "configuration", "level", "n_cases", "n_gold", "recall_micro", "ci_low", "ci_high", "toer",
            "toer_ci_low", "toer_ci_high", "W", "W_d", "goals_met"]
    rows[cols].to_csv(folder / "goals.csv", index=False, float_format="%.6g")
    lines = ["| dataset | configuration | level | cases | raw § recall@5 [95 % CI] | ToER@5 § [95 % CI] | W | W_d "
             "| goals met |",
             "|---|---|---|---|---|---|---|---|---|"]
    for _, r in rows.iterrows():
        lines.append(f"| {r['dataset']} | {r['configuration']} | {r['level']} | {int(r['n_cases'])} | "
                     f"{r['recall_micro']:.3f} [{r['ci_low']:.3f}, {r['ci_high']:.3f}] | {r['toer']:.2f} "
                     f"[{r['toer_ci_low']:.2f}, {r['toer_ci_high']:.2f}] | {r['W']:.1f} | {r['W_d']:.1f} | "
                     f"{r['goals_met']} |")
    (folder / "goals.md").write_text("## Issue 34's LER goals, unexpanded, § depth, all courts\n\n"
                                     + "\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent)
