"""Paired § recall@10 (micro) of the lay engine trained with the beyond-BGB training questions
(eval/lay-beyond-train) against the same design without them, on the same 5 folds: lay_beyond with
train.jsonl and with the strict unshared.jsonl, and GerLayQA dev; full-text of each run beside it.
Run from the repo root: .venv/bin/python eval/ranker/beyond-train/paired.py > eval/ranker/beyond-train/paired.md"""

import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent / "graph-candidates"))
from cv_paired import hits, table  # noqa: E402


def before(folder: str, mode: str = "learned"):
    return hits(f"../beyond-train/{folder}", mode)


def earlier(folder: str):
    """A run of eval/ranker/graph-candidates/ (the design without the training questions)."""
    return hits(folder, "learned")


if __name__ == "__main__":
    print("## Beyond BGB (lay_beyond, 353 questions)\n")
    print(table([("with train.jsonl", before("cv-lay-beyond")),
                 ("with unshared.jsonl (no scored gold)", before("cv-lay-beyond-unshared")),
                 ("without (graph-candidates/cv-lay-beyond)", earlier("cv-lay-beyond")),
                 ("fulltext (same run)", before("cv-lay-beyond", "fulltext"))], ("engine", "with train.jsonl")))
    print("\n## GerLayQA dev (2,154 questions)\n")
    print(table([("GerLayQA, with train.jsonl", before("cv-gerlayqa")),
                 ("GerLayQA, without (graph-candidates/cv-gerlayqa-graph)", earlier("cv-gerlayqa-graph")),
                 ("GerLayQA, fulltext (same run)", before("cv-gerlayqa", "fulltext"))],
                ("engine", "with train.jsonl")))
