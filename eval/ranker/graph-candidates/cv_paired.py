"""Paired § recall@10 (micro) on the 353 lay_beyond questions: the cross-validated graph-candidate
engine (cv-lay-beyond/, learned cells) against the predictor-candidate design in the same folds
(cv-lay-beyond-predictor/), full-text in the same run and the shipped default
(shipped-learned/, which never saw these questions). Run from the repo root:
.venv/bin/python eval/ranker/graph-candidates/cv_paired.py > eval/ranker/graph-candidates/cv-paired.md"""

from pathlib import Path

import pandas as pd

from legalkg.eval.stats import bootstrap_ci, paired_test

HERE = Path(__file__).parent


def hits(folder: str, mode: str) -> pd.DataFrame:
    df = pd.read_csv(HERE / folder / "case_scores.csv.gz")
    df = df[df["mode"] == mode]
    return df.set_index("case_id")[["n_gold", "hits_2"]].sort_index()  # hits_2: depth § (Code is hits_1)


def table(rows: list[tuple[str, pd.DataFrame]], head: tuple[str, str]) -> str:
    """Each row's § recall@10 micro with its CI, and the first row minus it with its paired CI and p."""
    base = rows[0][1]
    den = base["n_gold"].to_numpy(float)
    lines = [f"| {head[0]} | § R@10 micro [95 % CI] | {head[1]} minus this [95 % CI] | p |", "|---|---|---|---|"]
    for name, df in rows:
        assert list(df.index) == list(base.index), name
        point, low, high = bootstrap_ci(df["hits_2"].to_numpy(float), den)
        if df is base:
            lines.append(f"| {name} | {point:.3f} [{low:.3f}, {high:.3f}] | – | – |")
            continue
        t = paired_test(base["hits_2"].to_numpy(float), df["hits_2"].to_numpy(float), den)
        lines.append(f"| {name} | {point:.3f} [{low:.3f}, {high:.3f}] | {t.diff:+.3f} [{t.ci_low:+.3f}, "
                     f"{t.ci_high:+.3f}] | {t.p_value:.4f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(table([("graph candidates, 5-fold CV (lay_beyond folds in training)", hits("cv-lay-beyond", "learned")),
                 ("predictor candidates, 5-fold CV, the same folds and training (cv-lay-beyond-predictor/)",
                  hits("cv-lay-beyond-predictor", "learned")),
                 ("fulltext (same run)", hits("cv-lay-beyond", "fulltext")),
                 ("shipped default (learned)", hits("shipped-learned", "learned"))], ("engine", "CV engine")))
