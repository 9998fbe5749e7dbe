"""Paired § recall@10 (micro) of the lay engine whose graph BM25 reads the compound parts of the query
words no § text uses (``--ranker-features compounds``) against the shipped design (``router``), on the
same 5 folds (seed 0) and training files: lay_beyond and GerLayQA dev, the shipped design rerun in the
same session, full-text of each run beside it; and the reruns against the earlier runs of the shipped
design (the check that the code since gives the same answers).
Run from the repo root:
.venv/bin/python eval/ranker/compound-bm25/paired.py > eval/ranker/compound-bm25/paired.md"""

import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent / "graph-candidates"))
from cv_paired import hits, table  # noqa: E402


def run(folder: str, mode: str = "learned"):
    return hits(f"../{folder}", mode)


def have(folder: str) -> bool:
    return (HERE.parent / folder / "case_scores.csv.gz").exists()


if __name__ == "__main__":
    lay_base = ("compound-bm25/cv-lay-beyond-router" if have("compound-bm25/cv-lay-beyond-router")
                else "passage-candidates/cv-lay-beyond-router")
    print("## Beyond BGB (lay_beyond, 353 questions)\n")
    print(table([("with compound parts", run("compound-bm25/cv-lay-beyond")),
                 (f"shipped design ({lay_base})", run(lay_base)),
                 ("fulltext (same run)", run("compound-bm25/cv-lay-beyond", "fulltext"))],
                ("engine", "with parts")))
    print("\n## GerLayQA dev (2,154 questions)\n")
    print(table([("with compound parts", run("compound-bm25/cv-gerlayqa")),
                 ("shipped design (compound-bm25/cv-gerlayqa-router)", run("compound-bm25/cv-gerlayqa-router")),
                 ("fulltext (same run)", run("compound-bm25/cv-gerlayqa", "fulltext"))],
                ("engine", "with parts")))
    print("\n## The shipped design rerun against its earlier runs (same folds)\n")
    rows = [("GerLayQA, rerun (compound-bm25/cv-gerlayqa-router)", run("compound-bm25/cv-gerlayqa-router")),
            ("GerLayQA, router of f54f29e (router-candidates/cv-gerlayqa)", run("router-candidates/cv-gerlayqa"))]
    print(table(rows, ("engine", "rerun")))
    if lay_base.startswith("compound-bm25"):
        print()
        print(table([("lay_beyond, rerun (compound-bm25/cv-lay-beyond-router)", run(lay_base)),
                     ("lay_beyond, passage-candidates/cv-lay-beyond-router",
                      run("passage-candidates/cv-lay-beyond-router"))], ("engine", "rerun")))
