"""Paired § recall@10 (micro) on GerLayQA dev, 5-fold CV with the same folds and training data: the
graph-candidate lay ranker (cv-gerlayqa-graph/) against the predictor-candidate design
(cv-gerlayqa-default/), and full-text in the graph run. Run from the repo root:
.venv/bin/python eval/ranker/graph-candidates/gerlayqa_paired.py > eval/ranker/graph-candidates/gerlayqa-paired.md"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from cv_paired import hits, table  # noqa: E402

print(table([("graph candidates (shipped lay design)", hits("cv-gerlayqa-graph", "learned")),
             ("predictor candidates (the earlier design)", hits("cv-gerlayqa-default", "learned")),
             ("fulltext (graph run)", hits("cv-gerlayqa-graph", "fulltext"))], ("design", "graph")))
