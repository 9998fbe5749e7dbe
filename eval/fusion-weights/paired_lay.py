"""Paired R@10 (per question, § depth) of the shipped lay weights' nested CV (lay/) against the default
weights in the same folds (lay-default/): python eval/fusion-weights/paired_lay.py"""
from pathlib import Path

import pandas as pd

from legalkg.eval.stats import bootstrap_ci, paired_test

HERE = Path(__file__).parent


def per_question(folder: str) -> pd.Series:
    df = pd.read_csv(HERE / folder / "case_scores.csv.gz")
    return (df["hits_2"] / df["n_gold"]).set_axis(df["case_id"])


tuned, default = per_question("lay"), per_question("lay-default")
default = default.loc[tuned.index]
for name, s in (("nested-CV weights", tuned), ("default weights", default)):
    ci = bootstrap_ci(s.to_numpy())
    print(f"{name}: R@10 {float(ci.point):.3f} [{float(ci.low):.3f}, {float(ci.high):.3f}]")
p = paired_test(tuned.to_numpy(), default.to_numpy())
print(f"difference: {float(p.diff):+.3f} [{float(p.ci_low):+.3f}, {float(p.ci_high):+.3f}], p {float(p.p_value):.4f}")
