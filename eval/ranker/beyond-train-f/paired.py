"""Paired § recall@10 (micro) of the lay engine trained with part f of the beyond-BGB training questions
(eval/lay-beyond-train/train.jsonl of 1,632 questions) against the same design trained with the earlier
train.jsonl (1,244 questions, eval/ranker/beyond-train/), on the same 5 folds (seed 0): lay_beyond and
GerLayQA dev, full-text of each run beside it.
Run from the repo root: .venv/bin/python eval/ranker/beyond-train-f/paired.py > eval/ranker/beyond-train-f/paired.md"""

import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent / "graph-candidates"))
from cv_paired import hits, table  # noqa: E402


def run(folder: str, mode: str = "learned"):
    return hits(f"../{folder}", mode)


if __name__ == "__main__":
    print("## Beyond BGB (lay_beyond, 353 questions)\n")
    print(table([("with part f (1,632 training questions)", run("beyond-train-f/cv-lay-beyond")),
                 ("before part f (1,244, beyond-train/cv-lay-beyond)", run("beyond-train/cv-lay-beyond")),
                 ("fulltext (same run)", run("beyond-train-f/cv-lay-beyond", "fulltext"))],
                ("engine", "with part f")))
    print("\n## GerLayQA dev (2,154 questions)\n")
    print(table([("GerLayQA, with part f", run("beyond-train-f/cv-gerlayqa")),
                 ("GerLayQA, before part f (beyond-train/cv-gerlayqa)", run("beyond-train/cv-gerlayqa")),
                 ("GerLayQA, fulltext (same run)", run("beyond-train-f/cv-gerlayqa", "fulltext"))],
                ("engine", "with part f")))
