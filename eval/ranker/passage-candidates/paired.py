"""Paired § recall@10 (micro) of the lay engine with the passage components, citation degrees,
Gliederung match and citation neighbours (``--ranker-features passage``) against the shipped design
(eval/ranker/router-candidates/, ``router``), on the same 5 folds (seed 0) and training files:
lay_beyond and GerLayQA dev, full-text of each run beside it.
Run from the repo root:
.venv/bin/python eval/ranker/passage-candidates/paired.py > eval/ranker/passage-candidates/paired.md"""

import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent / "graph-candidates"))
from cv_paired import hits, table  # noqa: E402


def run(folder: str, mode: str = "learned"):
    return hits(f"../{folder}", mode)


if __name__ == "__main__":
    print("## Beyond BGB (lay_beyond, 353 questions)\n")
    print(table([("with passages and neighbours", run("passage-candidates/cv-lay-beyond")),
                 ("without them (router-candidates/cv-lay-beyond)", run("router-candidates/cv-lay-beyond")),
                 ("fulltext (same run)", run("passage-candidates/cv-lay-beyond", "fulltext"))],
                ("engine", "with passages")))
    print("\n## GerLayQA dev (2,154 questions)\n")
    print(table([("GerLayQA, with passages and neighbours", run("passage-candidates/cv-gerlayqa")),
                 ("GerLayQA, without them (router-candidates/cv-gerlayqa)", run("router-candidates/cv-gerlayqa")),
                 ("GerLayQA, fulltext (same run)", run("passage-candidates/cv-gerlayqa", "fulltext"))],
                ("engine", "with passages")))
    print("\n## Beyond BGB, against the shipped design with the same law router (lay_beyond, 353 questions)\n")
    print(table([("with passages and neighbours", run("passage-candidates/cv-lay-beyond")),
                 ("shipped design, rerun (cv-lay-beyond-router)", run("passage-candidates/cv-lay-beyond-router")),
                 ("shipped design, router of f54f29e (router-candidates/cv-lay-beyond)",
                  run("router-candidates/cv-lay-beyond"))],
                ("engine", "with passages")))
