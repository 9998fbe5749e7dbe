"""Paired § recall@10 of the shipped lay design trained with eval/lay-beyond-more/ and a ranker of 300 trees
(cv-*/ here) against the same with 100 trees (../beyond-train-gm/) and without lay-beyond-more (the runs
beyond-train-gm compared with), same folds, seed 0, same other training files: per question
(Recall@10, the mean over questions of the share of its gold §§ in the top 10) and micro (gold §§ found
over all gold §§), with 95 % bootstrap CIs and paired sign-flip tests; full-text of the same run beside.
Run from the repo root:
.venv/bin/python eval/ranker/capacity-gm/paired.py > eval/ranker/capacity-gm/paired.md"""

import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent / "beyond-train-gm"))
import paired as gm  # noqa: E402  (beyond-train-gm's: the same per-case hits and table lines)

SETS = (("lay_beyond (353 questions)", "cv-lay-beyond", "../beyond-train-gm/cv-lay-beyond",
         "../passage-candidates/cv-lay-beyond-router"),
        ("GerLayQA dev (2,154 questions)", "cv-gerlayqa", "../beyond-train-gm/cv-gerlayqa",
         "../compound-bm25/cv-gerlayqa-router"))


def hits(folder: str, mode: str):
    return gm.hits(str(HERE / folder), mode)


if __name__ == "__main__":
    for title, new, trees100, old in SETS:
        gm.tables(title, [("with 300 trees", hits(new, "learned")),
                          (f"100 trees ({trees100[3:]})", hits(trees100, "learned")),
                          (f"100 trees, without lay-beyond-more ({old[3:]})", hits(old, "learned")),
                          ("fulltext (same run)", hits(new, "fulltext"))], "with 300 trees")
