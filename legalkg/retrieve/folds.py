"""Cross-validated engines: one ``Retriever`` per fold, its predictor trained on the other folds.

Why here and not in the evaluation: a learned mode scored on its own training cases is a leak, so
``legalkg eval --mode learned --cv N`` asks for N engines, each of which never saw the cases it
answers. Folds are grouped by case (``legalkg.predict.grouped_folds``): neighbouring chunks of a
chunked court (ids ``...chunk0125``) share a decision and so a group of ``CHUNK_GROUP``. Each
fold's predictor is trained on the other folds of the same dataset only (so a fold of a small set
such as LER BGH learns from fewer cases than the shipped model); the bridge's § texts are read
from the graph once and shared by every fold.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from neo4j import Driver

from ..graph.cypher import query
from ..model import Citation
from ..predict import Predictor, StatuteIndex, TrainingSet, grouped_folds, train
from ..predict.examples import CHUNK_GROUP, Example, label_ids
from .search import Retriever

_CHUNK_ID = re.compile(r"^(?P<stem>.*chunk)(?P<n>\d+)$")


def group_of(case_id: str) -> str:
    """The CV group of a case: chunked courts in runs of ``CHUNK_GROUP`` neighbouring chunks."""
    m = _CHUNK_ID.match(case_id)
    return f"{m['stem']}:{int(m['n']) // CHUNK_GROUP}" if m else case_id


def training_set(task: str, cases: Sequence[tuple[str, str, Sequence[Citation]]]) -> TrainingSet:
    """(id, query text, gold citations) -> the predictor's examples; cases without a label are left out."""
    examples = []
    for cid, text, gold in cases:
        labels, _ = label_ids(list(gold), None)
        if labels:
            examples.append(Example(cid, text, tuple(labels), tuple(gold), group_of(cid)))
    return TrainingSet(task, examples, ["eval cases"])


def fold_retrievers(driver: Driver, db: str, task: str, cases: Sequence[tuple[str, str, Sequence[Citation]]],
                    n_folds: int = 5, seed: int = 0) -> dict[str, Retriever]:
    """case id -> the Retriever whose predictor was trained without that case's fold."""
    data = training_set(task, cases)
    laws = sorted({lab.split("/", 1)[0] for e in data.examples for lab in e.labels})
    with driver.session(database=db) as session:
        recs = list(session.run(query("retrieve/unit_texts"), {"laws": laws}))
    units = {r["id"]: f"{r['title']}\n{r['text']}" if r["title"] else r["text"] for r in recs}
    statutes = StatuteIndex.build(units, laws)
    ids = [cid for cid, _, _ in cases]
    groups = [group_of(cid) for cid in ids]
    out: dict[str, Retriever] = {}
    for _train, test_idx in grouped_folds(groups, n_folds, seed):
        test_ids = {ids[i] for i in test_idx}
        fold = TrainingSet(task, [e for e in data.examples if e.id not in test_ids], data.sources)
        model: Predictor = train(fold, statutes=statutes, seed=seed)
        retriever = Retriever(driver, db, predictors={task: model})
        out.update({cid: retriever for cid in test_ids})
    return out
