"""The case ranker of 300 trees (learning rate 0.05, cv-300/) against the shipped 100 trees (learning rate
0.1, cv-100/), the same folds of ler_all (seed 0), per court set and for both: § recall@5 micro and
ToER@5 at § depth with ``--level auto`` (and § recall at § level), paired on the same cases (recall by
``legalkg.eval.stats.paired_test``, ToER by eval/decisions-candidates/summarise.py's paired bootstrap);
full-text of the same run beside. ToER is given for ler_all at ``--level auto`` only: the runs'
results.md give each court's ToER with the words per hit of all cases. Run from the repo root:
.venv/bin/python eval/ranker/capacity-case/paired.py > eval/ranker/capacity-case/paired.md"""

import sys
from pathlib import Path

import numpy as np
import pandas as pd

from legalkg.eval.stats import bootstrap_ci, paired_test

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parents[1] / "decisions-candidates"))
import summarise as dc  # noqa: E402  (the paired ToER bootstrap and the case-score cells)

RUNS = (("300 trees", "cv-300"), ("100 trees (shipped)", "cv-100"))


def line(name: str, df: pd.DataFrame, base: pd.DataFrame, with_toer: bool) -> str:
    """One engine's row: recall (and with ``--level auto`` ToER from the delivered words) and its
    paired difference to ``base``."""
    num, den = df[dc.PARA_HITS].to_numpy(float), df["n_gold"].to_numpy(float)
    point, low, high = bootstrap_ci(num, den)
    toer = f"{dc.toer_of(np.ones((1, len(df))), *dc.toer_parts(df))[0]:.2f}" if with_toer else "–"
    head = f"| {name} | {point:.3f} [{low:.3f}, {high:.3f}] | {toer} |"
    if df is base:
        return head + " – | – | – |"
    t = paired_test(num, base[dc.PARA_HITS].to_numpy(float), den, seed=0)
    toer_diff = "–"
    if with_toer:
        d, lo, hi = dc.toer_diff(df, base)
        toer_diff = f"{d:+.2f} [{lo:+.2f}, {hi:+.2f}]"
    return head + f" {t.diff:+.3f} [{t.ci_low:+.3f}, {t.ci_high:+.3f}] | {t.p_value:.4f} | {toer_diff} |"


def main() -> None:
    cases = {name: pd.read_csv(HERE / folder / "case_scores.csv.gz") for name, folder in RUNS}
    for level in ("auto", "Paragraph"):
        for subset, keep in (("ler_all", lambda i: True), ("LER BGH", lambda i: i.startswith("ler-bgh-")),
                             ("ler_courts", lambda i: not i.startswith("ler-bgh-"))):
            rows = [(name, dc.per_cell(df, level, "learned")) for name, df in cases.items()]
            rows.append(("fulltext (same run)", dc.per_cell(cases[RUNS[0][0]], level, "fulltext")))
            rows = [(n, df[[keep(i) for i in df.index]]) for n, df in rows]
            base = rows[1][1]
            print(f"## {subset} ({len(base)} cases), `--level {level}`, k 5, § depth"
                  + ("" if level == "auto" and subset == "ler_all" else " (ToER: the runs' results.md)") + "\n")
            print("| engine | § recall@5 [95 % CI] | ToER@5 | minus 100 trees: recall [95 % CI] | p "
                  "| minus 100 trees: ToER [95 % CI] |\n|---|---|---|---|---|---|")
            for name, df in rows:
                assert list(df.index) == list(base.index), name
                print(line(name, df, base, level == "auto" and subset == "ler_all"))
            print()


if __name__ == "__main__":
    main()
