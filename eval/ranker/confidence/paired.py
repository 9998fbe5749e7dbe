"""Paired § recall@10 of the shipped lay design with the predictor's vote entropy as one more feature
(cv-*/ here) against the shipped design (../router-more/), same folds, seed 0, same training files: per
question and micro, with 95 % bootstrap CIs and paired sign-flip tests; full-text of the same run beside.
Run from the repo root:
.venv/bin/python eval/ranker/confidence/paired.py > eval/ranker/confidence/paired.md"""

import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent / "beyond-train-gm"))
import paired as gm  # noqa: E402  (beyond-train-gm's: the same per-case hits and table lines)

SETS = (("lay_beyond (353 questions)", "cv-lay-beyond", "../router-more/cv-lay-beyond"),
        ("GerLayQA dev (2,154 questions)", "cv-gerlayqa", "../router-more/cv-gerlayqa"))

if __name__ == "__main__":
    gm.against(HERE, SETS, "with vote entropy", "shipped design")
