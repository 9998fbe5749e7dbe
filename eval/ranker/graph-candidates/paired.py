"""Paired § recall@10 (micro) of the graph-candidate ranker against the shipped default and fulltext,
on the same 353 lay_beyond questions (the three folders beside this script; run from the repo root:
.venv/bin/python eval/ranker/graph-candidates/paired.py > eval/ranker/graph-candidates/paired.md)."""

from pathlib import Path

import pandas as pd

from legalkg.eval.stats import bootstrap_ci, paired_test

HERE = Path(__file__).parent


def hits(folder: str) -> pd.DataFrame:
    df = pd.read_csv(HERE / folder / "case_scores.csv.gz")
    return df.set_index("case_id")[["n_gold", "hits_2"]].sort_index()  # hits_2: depth § (Code is hits_1)


graph, shipped, fulltext = hits("graph"), hits("shipped-learned"), hits("shipped-fulltext")
den = graph["n_gold"].to_numpy(float)
print("| engine | § R@10 micro [95 % CI] | difference to graph [95 % CI] | p |")
print("|---|---|---|---|")
for name, df in (("graph candidates (measured, not shipped)", graph), ("shipped default (learned)", shipped),
                 ("fulltext", fulltext)):
    point, low, high = bootstrap_ci(df["hits_2"].to_numpy(float), den)
    if df is graph:
        print(f"| {name} | {point:.3f} [{low:.3f}, {high:.3f}] | – | – |")
        continue
    t = paired_test(graph["hits_2"].to_numpy(float), df["hits_2"].to_numpy(float), den)
    diff = f"{t.diff:+.3f} [{t.ci_low:+.3f}, {t.ci_high:+.3f}]"
    print(f"| {name} | {point:.3f} [{low:.3f}, {high:.3f}] | {diff} | {t.p_value:.4f} |")
