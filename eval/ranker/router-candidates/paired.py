"""Paired § recall@10 (micro) of the lay engine with the learned law router in its candidate stage
and features (``--ranker-features router``) against the same design without it
(eval/ranker/beyond-train-f/, ``graph``), on the same 5 folds (seed 0) and training files: lay_beyond
and GerLayQA dev, full-text of each run beside it.
Run from the repo root:
.venv/bin/python eval/ranker/router-candidates/paired.py > eval/ranker/router-candidates/paired.md"""

import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent / "graph-candidates"))
from cv_paired import hits, table  # noqa: E402


def run(folder: str, mode: str = "learned"):
    return hits(f"../{folder}", mode)


if __name__ == "__main__":
    print("## Beyond BGB (lay_beyond, 353 questions)\n")
    print(table([("with the learned law router", run("router-candidates/cv-lay-beyond")),
                 ("without it (beyond-train-f/cv-lay-beyond)", run("beyond-train-f/cv-lay-beyond")),
                 ("fulltext (same run)", run("router-candidates/cv-lay-beyond", "fulltext"))],
                ("engine", "with the router")))
    print("\n## GerLayQA dev (2,154 questions)\n")
    print(table([("GerLayQA, with the learned law router", run("router-candidates/cv-gerlayqa")),
                 ("GerLayQA, without it (beyond-train-f/cv-gerlayqa)", run("beyond-train-f/cv-gerlayqa")),
                 ("GerLayQA, fulltext (same run)", run("router-candidates/cv-gerlayqa", "fulltext"))],
                ("engine", "with the router")))
