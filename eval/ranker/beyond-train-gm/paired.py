"""Paired § recall@10 of the shipped lay design trained with lay-beyond-train parts g to m (cv-*/ here)
against the same design before them (same folds, seed 0, same other training files): per question
(Recall@10, the mean over questions of the share of its gold §§ in the top 10) and micro (gold §§ found
over all gold §§), with 95 % bootstrap CIs and paired sign-flip tests; full-text of the same run beside.
Run from the repo root:
.venv/bin/python eval/ranker/beyond-train-gm/paired.py > eval/ranker/beyond-train-gm/paired.md"""

from pathlib import Path

import pandas as pd

from legalkg.eval.stats import bootstrap_ci, paired_test

HERE = Path(__file__).parent
SETS = (("lay_beyond (353 questions)", "cv-lay-beyond", "../passage-candidates/cv-lay-beyond-router"),
        ("GerLayQA dev (2,154 questions)", "cv-gerlayqa", "../compound-bm25/cv-gerlayqa-router"))


def hits(folder: str, mode: str) -> pd.DataFrame:
    df = pd.read_csv(HERE / folder / "case_scores.csv.gz")
    return df[df["mode"] == mode].set_index("case_id")[["n_gold", "hits_2"]].sort_index()  # hits_2: § depth


def line(name: str, df: pd.DataFrame, base: pd.DataFrame, per_question: bool) -> str:
    num, den = df["hits_2"].to_numpy(float), df["n_gold"].to_numpy(float)
    bnum = base["hits_2"].to_numpy(float)
    if per_question:
        num, bnum, den = num / den, bnum / den, den * 0 + 1
    point, low, high = bootstrap_ci(num, den)
    if df is base:
        return f"| {name} | {point:.3f} [{low:.3f}, {high:.3f}] | – | – |"
    t = paired_test(bnum, num, den)
    return (f"| {name} | {point:.3f} [{low:.3f}, {high:.3f}] | {t.diff:+.3f} [{t.ci_low:+.3f}, {t.ci_high:+.3f}] "
            f"| {t.p_value:.4f} |")


def tables(title: str, rows: list[tuple[str, pd.DataFrame]], first: str) -> None:
    """Print the per-question and the micro table of one set: each row's recall [CI] and its paired
    difference to the first row (``first`` names it in the header); every row scores the same cases."""
    for per_question, what in ((True, "Recall@10 per question"), (False, "§ recall@10 micro")):
        print(f"## {title}: {what}\n")
        print(f"| engine | {what} [95 % CI] | {first} minus this [95 % CI] | p |\n|---|---|---|---|")
        for name, df in rows:
            assert list(df.index) == list(rows[0][1].index), name
            print(line(name, df, rows[0][1], per_question))
        print()


def against(here: Path, sets: tuple[tuple[str, str, str], ...], first: str, old_label: str) -> None:
    """Print ``tables`` for each (title, run folder, folder compared with) of ``sets``, folders relative
    to ``here``: the new run's learned engine (``first``), the other run's (``old_label`` and its folder),
    and the new run's full-text."""
    for title, new, old in sets:
        tables(title, [(first, hits(str(here / new), "learned")),
                       (f"{old_label} ({old[3:]})", hits(str(here / old), "learned")),
                       ("fulltext (same run)", hits(str(here / new), "fulltext"))], first)


if __name__ == "__main__":
    for title, new, old in SETS:
        tables(title, [("with parts g to m", hits(new, "learned")), (f"before them ({old[3:]})", hits(old, "learned")),
                       ("fulltext (same run)", hits(new, "fulltext"))], "with parts g to m")
