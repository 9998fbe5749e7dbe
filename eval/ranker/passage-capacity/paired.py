"""Paired § recall@10 of the passage design with the shipped lay ranker's size and training data (cv-*/ here)
against the shipped design (../capacity-gm/cv-*), same folds, seed 0, same training files: per question
(Recall@10, the mean over questions of the share of its gold §§ in the top 10) and micro (gold §§ found
over all gold §§), with 95 % bootstrap CIs and paired sign-flip tests; full-text of the same run beside.
Run from the repo root:
.venv/bin/python eval/ranker/passage-capacity/paired.py > eval/ranker/passage-capacity/paired.md"""

import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent / "beyond-train-gm"))
import paired as gm  # noqa: E402  (beyond-train-gm's: the same per-case hits and table lines)

SETS = (("lay_beyond (353 questions)", "cv-lay-beyond", "../capacity-gm/cv-lay-beyond"),
        ("GerLayQA dev (2,154 questions)", "cv-gerlayqa", "../capacity-gm/cv-gerlayqa"))


def hits(folder: str, mode: str):
    return gm.hits(str(HERE / folder), mode)


if __name__ == "__main__":
    for title, new, shipped in SETS:
        gm.tables(title, [("passage design", hits(new, "learned")),
                          (f"shipped design ({shipped[3:]})", hits(shipped, "learned")),
                          ("fulltext (same run)", hits(new, "fulltext"))], "passage design")
