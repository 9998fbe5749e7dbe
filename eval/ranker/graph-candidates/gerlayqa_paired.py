"""Paired § recall@10 (micro) on GerLayQA dev, 5-fold CV with the same folds and training data: the
graph-candidate lay ranker (cv-gerlayqa-graph/) against the predictor-candidate design
(cv-gerlayqa-default/), and full-text in the graph run. Run from the repo root:
.venv/bin/python eval/ranker/graph-candidates/gerlayqa_paired.py > eval/ranker/graph-candidates/gerlayqa-paired.md"""

from pathlib import Path

import pandas as pd

from legalkg.eval.stats import bootstrap_ci, paired_test

HERE = Path(__file__).parent


def hits(folder: str, mode: str) -> pd.DataFrame:
    df = pd.read_csv(HERE / folder / "case_scores.csv.gz")
    df = df[df["mode"] == mode]
    return df.set_index("case_id")[["n_gold", "hits_2"]].sort_index()  # hits_2: depth § (Code is hits_1)


graph = hits("cv-gerlayqa-graph", "learned")
rows = (("graph candidates (shipped lay design)", graph),
        ("predictor candidates (the earlier design)", hits("cv-gerlayqa-default", "learned")),
        ("fulltext (graph run)", hits("cv-gerlayqa-graph", "fulltext")))
den = graph["n_gold"].to_numpy(float)
print("| design | § R@10 micro [95 % CI] | graph minus this [95 % CI] | p |")
print("|---|---|---|---|")
for name, df in rows:
    assert list(df.index) == list(graph.index), name
    point, low, high = bootstrap_ci(df["hits_2"].to_numpy(float), den)
    if df is graph:
        print(f"| {name} | {point:.3f} [{low:.3f}, {high:.3f}] | – | – |")
        continue
    t = paired_test(graph["hits_2"].to_numpy(float), df["hits_2"].to_numpy(float), den)
    print(f"| {name} | {point:.3f} [{low:.3f}, {high:.3f}] | {t.diff:+.3f} [{t.ci_low:+.3f}, {t.ci_high:+.3f}] "
          f"| {t.p_value:.4f} |")
