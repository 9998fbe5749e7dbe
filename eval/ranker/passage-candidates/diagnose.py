"""Is the gold § among the lay ranker's candidates at all? Fold 0 of the lay_beyond CV of run.sh
(5 folds, seed 0, the same training files), before and after the passage components and the
citation neighbours joined the candidate stage.

The fold's predictor is trained as ``legalkg eval --cv 5`` trains it (the fold's other questions
plus the extra files); its candidates (``ranker.candidates``) are built twice over every § of the
graph, both with the fold's learned law router (``ranker.fold_router``): as the shipped design makes
them (``router``, before) and with each §'s best Absatz by BM25 and vector (``pbm25``, ``pvec``) and
the citation neighbours of the five strongest candidates (``neighbour``) beside them (after). Per
gold § of the scored questions (in the graph): whether it is a candidate, and by which source.
Prints markdown (diagnosis.md). From the repo root, with the quickstart graph running:

    .venv/bin/python eval/ranker/passage-candidates/diagnose.py > eval/ranker/passage-candidates/diagnosis.md
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import numpy as np

from legalkg.eval import datasets
from legalkg.eval.folds import default_cites, group_of, prepare
from legalkg.eval.runner import select_cases
from legalkg.graph.config import load_config
from legalkg.graph.connection import open_driver
from legalkg.predict import TrainingSet, grouped_folds, load_examples, task_config, train
from legalkg.predict.lawrouter import shipped
from legalkg.predict.ranker import candidates, fold_router, graph_facts
from legalkg.vocab import Task

G = Path(os.environ["LEGALKG_SHARED"]) / "data/eval/gerlayqa"
EXTRA = [G / "dev.jsonl", G / "train.jsonl", Path("eval/lay-beyond-train/train.jsonl")]


def main() -> None:
    cfg = load_config()
    driver = open_driver(cfg)
    sel = select_cases(driver, cfg.database, datasets.load_dataset("lay_beyond"), None)
    cases = [(c.id, sel.texts[c.id], c.gold) for c in sel.kept]
    prep = prepare(driver, cfg.database, Task.LAY, cases, load_examples([str(p) for p in EXTRA]))
    ids = [cid for cid, _, _ in cases]
    _train, test_idx = next(iter(grouped_folds([group_of(cid) for cid in ids], 5, 0)))
    test_ids = {ids[i] for i in test_idx}
    fold = TrainingSet(Task.LAY, [e for e in prep.data.examples if e.id not in test_ids] + prep.extra.examples,
                       prep.data.sources + prep.extra.sources)
    model = train(fold, config=task_config(Task.LAY), statutes=prep.statutes, seed=0)
    scored = [e for e in prep.data.examples if e.id in test_ids]
    units, corpus = prep.corpus
    in_graph = set(corpus.ids)
    golds = [[lab for lab in e.labels if lab.count("/") == 1 and lab in in_graph] for e in scored]
    n_gold = sum(map(len, golds))
    print(f"Fold 0 of 5 (seed 0): {len(scored)} lay_beyond questions, {n_gold} gold §§ in the graph.\n")
    print("| candidates | per question (mean) | gold §§ among them | questions with a gold § among them |")
    print("|---|---|---|---|")
    by_source: dict[str, Counter] = {}
    router = fold_router(shipped(), fold)
    designs = (("before (router design)", {}),
               ("after (+ passages and citation neighbours)", {"passages": True, "cites": default_cites()}))
    for name, extra in designs:
        facts = graph_facts(units, corpus, router=router, **extra)
        cands = candidates(model, [e.text for e in scored], None, facts)
        found = [sum(u in c.ids for u in g) for c, g in zip(cands, golds)]
        sources: Counter = Counter()
        for c, g in zip(cands, golds):
            at = {u: j for j, u in enumerate(c.ids)}
            for u in g:
                for src in (dict.fromkeys(c.found[at[u]]) if u in at else ("(none)",)):
                    sources[src] += 1
        by_source[name] = sources
        print(f"| {name} | {np.mean([len(c.ids) for c in cands]):.0f} | {sum(found) / n_gold:.3f} ({sum(found)}) "
              f"| {np.mean([f > 0 for f in found]):.3f} |")
    print("\nGold §§ by the sources that proposed them (a § counts once per source):\n")
    names = sorted({s for c in by_source.values() for s in c})
    print("| source | " + " | ".join(by_source) + " |\n|---|" + "---|" * len(by_source))
    for s in names:
        print(f"| {s} | " + " | ".join(str(c[s]) for c in by_source.values()) + " |")


if __name__ == "__main__":
    main()
