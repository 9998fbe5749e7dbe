"""Collect run.sh's folders into the Table 1 layout per level, per court, and the ToER ceiling rows.

Usage: .venv/bin/python eval/learned-table1/summarise.py RUNS_DIR [OUT_DIR]

Reads RUNS_DIR/<dataset>-<configuration>/results.csv (``legalkg eval --out``), writes OUT_DIR/results.csv
(every row, with a ``configuration`` column) and OUT_DIR/results.md. The ceiling rows need the
datasets themselves (the oracle of ``research.oracle``, gold restricted to the 58 default codes,
which the development graph holds; checked against the runs' gold counts).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pandas as pd

from legalkg.eval import datasets
from legalkg.eval.report import court_summary, summary_markdown, table1_markdown

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # research/ is not installed
from research.oracle import oracle_recall  # noqa: E402

DATASETS = {"ler_bgh": "LER BGH (CV 5), k 5", "ler_courts": "ler_courts (CV 5), k 5",
            "ler_all": "LER BGH + ler_courts as one set (ler_all, CV 5), k 5"}
CONFIGS = {"learned": "learned", "learned-noranker": "learned, folds without a ranker",
           "learned-shipw": "learned, shipped case weights (ft 0, vec 0)",
           "learned-shipw-noranker": "learned, shipped case weights, folds without a ranker",
           "popularity": "popularity (baseline)"}
GOAL_PARA, GOAL_ABSATZ = 4.9, 3.4
#: goals-gerlayqa.sh's folders: configuration -> label
LAY = {"learned-k10": "learned (default weights)", "tuned-k10": "learned, weights tuned by nested CV",
       "popularity-k10": "popularity list (baseline)", "classifier-k10": "plain classifier: Complement NB alone",
       "learned-k100": "learned (default weights)"}


def load(runs: Path) -> pd.DataFrame:
    frames = []
    for ds in DATASETS:
        for cfg, label in CONFIGS.items():
            for suffix in ("", "-auto"):  # -auto: run.sh with LEVELS=auto SUFFIX=-auto
                path = runs / f"{ds}-{cfg}{suffix}" / "results.csv"
                if path.exists():
                    df = pd.read_csv(path)
                    df.insert(1, "configuration", label)
                    frames.append(df)
    return pd.concat(frames, ignore_index=True)


def ceiling_rows(df: pd.DataFrame, ds: str) -> list[str]:
    """Per level: the learned run's recall and ToER at § depth, the oracle's, and the recall the goal needs."""
    cases = datasets.restrict_to_laws(datasets.load_dataset(ds), datasets.default_law_keys())
    groups = {"all": cases}
    for c in cases:
        if c.meta.get("court"):
            groups.setdefault(c.meta["court"], []).append(c)
    if len(groups) == 2:  # one court: its rows repeat the total
        groups = {"all": cases}
    learned = df[(df["configuration"] == CONFIGS["learned"]) & (df["expansion"] == "none")]
    para_rows = learned[(learned["depth"] == "§") & (learned["dataset"] == ds)]
    lines = ["| court | level | W | learned: raw § recall@5 | learned: ToER@5 § | oracle: raw § recall@5 | "
             "oracle: ToER@5 § | § level's recall at this W | recall for ToER 4.9 |",
             "|---|---|---|---|---|---|---|---|---|"]
    for court, members in groups.items():
        recall, _, n_gold = oracle_recall([c.gold for c in members], 5)
        rows = para_rows[para_rows["court"] == court]
        if rows.empty:
            continue
        own = rows[rows["level"] == "Paragraph"]
        para_recall = float(own["recall_micro"].iloc[0]) if not own.empty else float("nan")
        for _, r in rows.iterrows():
            if int(r["n_gold"]) != n_gold:
                raise SystemExit(f"{ds} {court}: the runs scored {int(r['n_gold'])} gold citations, the oracle "
                                 f"{n_gold}: run against a graph of the 58 default codes")
            W = float(r["W"])
            lines.append(f"| {court} | {r['level']} | {W:.1f} | {r['recall_micro']:.3f} | {r['toer']:.2f} | "
                         f"{recall:.3f} | {recall * 1000 / W:.2f} | {para_recall * 1000 / W:.2f} | "
                         f"{GOAL_PARA * W / 1000:.3f} |")
    return lines


#: results-gerlayqa.csv's columns from each run's results.csv (the § depth row over all courts)
LAY_COLUMNS = ["recall_at_k", "macro_ci_low", "macro_ci_high", "hit_at_k", "ndcg_at_k", "recall_micro", "ci_low",
               "ci_high", "toer", "W_d", "n_ir_queries"]


def lay_rows(runs: Path, out: Path) -> list[str]:
    """GerLayQA dev + train, 5-fold CV: per-query R@k and hit@k (IR table), micro § recall, ToER, W_d.

    R@k's CI is the depth table's macro recall CI at § depth: with gold at § only the two are the same
    per-query mean (checked: equal to 1e-9)."""
    table = []
    lines = ["| configuration | k | R@k (per query) [95 % CI] | hit@k | nDCG@k | raw § recall (micro) [95 % CI] | ToER@k § | "
             "W_d | questions | fold weights p/c/ft/vec |", "|---|---|---|---|---|---|---|---|---|---|"]
    for name, label in LAY.items():
        folder = runs / f"gerlayqa_all-{name}"
        if not (folder / "results.csv").exists():
            continue
        df = pd.read_csv(folder / "results.csv")
        r = df[(df["court"] == "all") & (df["depth"] == "§")].iloc[0]
        meta = json.loads((folder / "run.json").read_text(encoding="utf-8"))
        folds = "; ".join("/".join(f"{w[x]:g}" for x in ("predictor", "cited", "fulltext", "vector"))
                          for w in meta["options"].get("fold_weights") or [])
        if abs(r["recall_at_k"] - r["recall_macro"]) > 1e-9:
            raise SystemExit(f"{folder}: R@k {r['recall_at_k']} is not the macro recall {r['recall_macro']}")
        table.append({"configuration": label, "k": int(r["k"]), **{c: r[c] for c in LAY_COLUMNS}, "fold_weights": folds})
        lines.append(f"| {label} | {int(r['k'])} | {r['recall_at_k']:.3f} [{r['macro_ci_low']:.3f}, "
                     f"{r['macro_ci_high']:.3f}] | {r['hit_at_k']:.3f} | {r['ndcg_at_k']:.3f} | "
                     f"{r['recall_micro']:.3f} [{r['ci_low']:.3f}, {r['ci_high']:.3f}] | {r['toer']:.2f} | "
                     f"{r['W_d']:.1f} | {int(r['n_ir_queries'])} | {folds} |")
    if table:
        pd.DataFrame(table).to_csv(out / "results-gerlayqa.csv", index=False, float_format="%.6g")
    return lines if len(lines) > 2 else []


def main(runs: Path, out: Path) -> None:
    lay = lay_rows(runs, out)
    if lay:
        (out / "results-gerlayqa.md").write_text("## GerLayQA dev + train (gerlayqa_all), 5-fold CV, § level\n\n"
                                                 + "\n".join(lay) + "\n", encoding="utf-8")
    df = load(runs)
    df.to_csv(out / "results.csv", index=False, float_format="%.6g")
    lines = []
    for ds, title in DATASETS.items():
        sub = df[df["dataset"] == ds]
        if sub.empty:
            continue
        lines += [f"## {title}", "", "### Table 1 layout: rows = level, columns = citation depth "
                  "(raw micro recall [95 % CI], ToER [95 % CI], ToER^m)", "", table1_markdown(sub),
                  "### Per court: raw recall, ToER, ToER^m at § and Absatz depth, W_d", "",
                  summary_markdown(court_summary(sub[sub["expansion"] == "none"], ("§", "Absatz"))
                                   .drop(columns=["dataset", "mode", "expansion"])),
                  f"### ToER@5 at § depth: the learned mode, the oracle (top 5 = the 5 gold §§ with most gold "
                  f"citations) and the recall the goal ({GOAL_PARA}) needs at each level's W", ""]
        lines += ceiling_rows(sub, ds) + [""]
    (out / "results.md").write_text("\n".join(lines), encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]) if len(sys.argv) > 2 else Path(__file__).parent)
