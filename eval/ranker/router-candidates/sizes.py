"""How many laws and §§ per law the learned law router adds to the lay ranker's candidates, measured
on training questions only (eval/lay-beyond-train/train.jsonl, never on lay_beyond dev).

5-fold CV over those questions (grouped by id, seed 0): each fold's router is the shipped one with
lay rows of GerLayQA train and the other four folds only (``LawRouter.with_lay``). Per scored
question: the rank of its gold law among the graph's laws, and the rank of each gold § inside its
law by BM25 and by static-vector cosine over every § of the graph (``predict.corpus``). Prints
markdown tables (sizes.md). From the repo root, with the quickstart graph running:

    .venv/bin/python eval/ranker/router-candidates/sizes.py > eval/ranker/router-candidates/sizes.md
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from legalkg.graph.config import load_config
from legalkg.graph.connection import open_driver
from legalkg.predict import load_examples
from legalkg.predict.cv import grouped_folds
from legalkg.predict.lawrouter import shipped
from legalkg.retrieve import Retriever

TRAIN = Path("eval/lay-beyond-train/train.jsonl")
GERLAYQA = Path(os.environ["LEGALKG_SHARED"]) / "data/eval/gerlayqa/train.jsonl"
LAWS = (1, 2, 3, 4, 5)
PER_LAW = (5, 10, 15, 20, 30)


def law_of(uid: str) -> str:
    return uid.split("/", 1)[0]


def main() -> None:
    cfg = load_config()
    driver = open_driver(cfg)
    units, corpus = Retriever(driver, cfg.database).models.corpus()
    data = load_examples([TRAIN], "lay").examples
    base = [(e.text, sorted({law_of(lab) for lab in e.labels})) for e in load_examples([GERLAYQA], "lay").examples]
    at = {u: j for j, u in enumerate(corpus.ids)}
    law_ranks: list[int] = []
    para: list[tuple[float, float]] = []  # per gold § in the corpus: its rank in its law by BM25, by cosine
    for train_idx, test_idx in grouped_folds([e.id for e in data], 5, 0):
        router = shipped().with_lay(base + [(data[i].text, sorted({law_of(lab) for lab in data[i].labels}))
                                            for i in train_idx])
        test = [data[i] for i in test_idx]
        for start in range(0, len(test), 128):
            batch = test[start:start + 128]
            texts = [e.text for e in batch]
            route, bm25, cos = router.over(texts, corpus.laws), corpus.bm25(texts), corpus.cosines(texts)
            for q, e in enumerate(batch):
                order = [corpus.laws[j] for j in np.argsort(-route[q], kind="stable")]
                gold = [lab for lab in e.labels if lab.count("/") == 1 and lab in at]
                laws = {law_of(u) for u in gold}
                law_ranks.append(min((order.index(law) + 1 for law in laws if law in order), default=10**6))
                for u in gold:
                    cols = np.flatnonzero(corpus.law_index == corpus.law_index[at[u]])
                    ranks = [1 + int((s[q, cols] > s[q, at[u]]).sum()) for s in (bm25, cos)]
                    para.append((ranks[0], ranks[1]))
    lr, pr = np.array(law_ranks), np.array(para)
    print(f"{len(lr)} training questions, {len(pr)} gold §§ in the graph\n")
    print("| router's top laws | gold law among them |\n|---|---|")
    for n in LAWS:
        print(f"| {n} | {np.mean(lr <= n):.3f} |")
    print("\n| §§ per law | gold § in its law's top by BM25 | by cosine | by either |\n|---|---|---|---|")
    for n in PER_LAW:
        b, c = pr[:, 0] <= n, pr[:, 1] <= n
        print(f"| {n} | {b.mean():.3f} | {c.mean():.3f} | {(b | c).mean():.3f} |")


if __name__ == "__main__":
    main()
