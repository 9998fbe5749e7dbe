"""The graph's § BM25 alone (the lay ranker's ``gbm25`` source), with the query's tokens as the
engine reads them, against the same plus the compound parts of each query word the § texts never
use ("Ladendiebstahl" -> "Diebstahl"): gold § recall at 10, 50 and 100, and the paired difference
at 10 with a bootstrap CI. No training: BM25 has no parameters fitted on these questions.

    NEO4J_PASSWORD=... .venv/bin/python benchmarks/bm25_compounds.py --out eval/bm25-compounds/results.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from legalkg.eval.datasets import load_dataset
from legalkg.graph.config import load_config
from legalkg.graph.connection import open_driver
from legalkg.predict.textmatch import query_terms
from legalkg.retrieve import Retriever
from legalkg.retrieve.learned import ancestor_at

KS = (10, 50, 100)


def recalls(corpus, texts: list[str], gold: list[set[str]], split: bool) -> dict[int, np.ndarray]:
    out: dict[int, list[float]] = {k: [] for k in KS}
    for start in range(0, len(texts), 200):
        part = texts[start:start + 200]
        rows, cols = [], []
        for i, text in enumerate(part):
            found = query_terms(text, corpus.vocab, split)
            rows += [i] * len(found)
            cols += sorted(found)
        q = sp.csr_matrix((np.ones(len(rows), np.float32), (rows, cols)), shape=(len(part), len(corpus.vocab)))
        order = np.argsort(-np.asarray((q @ corpus.weights_t).toarray()), axis=1, kind="stable")[:, :max(KS)]
        for j, row in enumerate(order):
            g = gold[start + j]
            top = [corpus.ids[c] for c in row]
            for k in KS:
                out[k].append(len(g & set(top[:k])) / len(g))
    return {k: np.array(v) for k, v in out.items()}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--datasets", default="lay_beyond,gerlayqa")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    cfg = load_config(None, None, None, None)
    _, corpus = Retriever(open_driver(cfg), cfg.database).models.corpus()
    in_corpus = set(corpus.ids)
    result = {"command": "benchmarks/bm25_compounds.py --out " + args.out.as_posix(), "sections": len(corpus.ids)}
    for name in args.datasets.split(","):
        cases = load_dataset(name)
        pairs = [(c.query, {ancestor_at(g.to_id(), "Paragraph") for g in c.gold} & in_corpus) for c in cases]
        pairs = [(q, g) for q, g in pairs if g]
        texts, gold = [q for q, _ in pairs], [g for _, g in pairs]
        plain, split = recalls(corpus, texts, gold, False), recalls(corpus, texts, gold, True)
        diff = split[10] - plain[10]
        rng = np.random.default_rng(0)
        boots = [diff[rng.integers(0, len(diff), len(diff))].mean() for _ in range(2000)]
        result[name] = {
            "questions": len(texts),
            "changed_queries": sum(query_terms(t, corpus.vocab, True) != query_terms(t, corpus.vocab)
                                   for t in texts),
            "plain": {f"R@{k}": round(float(plain[k].mean()), 4) for k in KS},
            "split": {f"R@{k}": round(float(split[k].mean()), 4) for k in KS},
            "R@10_diff": round(float(diff.mean()), 4),
            "R@10_diff_ci95": [round(float(np.percentile(boots, p)), 4) for p in (2.5, 97.5)],
        }
        print(name, result[name], flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
