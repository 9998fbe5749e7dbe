"""Where the lay ranker puts StGB § 242 for "Was für eine Strafe droht für einen Ladendiebstahl?", under
the shipped ranker file and under a ranker file of another design (``--ranker FILE``, e.g. one built by
``legalkg train ... --ranker-features compounds --ranker-out FILE``): its rank among the candidates,
the sources that proposed it, its BM25, vector and NB features and the features that moved it most
(LightGBM contributions), beside those of the top hit; and the best §§ by the BM25 of the question's
compound parts alone. Run from the repo root against the
quickstart's graph:

    .venv/bin/python eval/ranker/compound-bm25/explain_theft.py --ranker FILE > eval/ranker/compound-bm25/explain.md
"""

from __future__ import annotations

import argparse

import numpy as np

from legalkg.graph.config import load_config
from legalkg.graph.connection import open_driver
from legalkg.predict import rankfile
from legalkg.predict.ranker import candidates
from legalkg.retrieve import Retriever

QUESTION = "Was für eine Strafe droht für einen Ladendiebstahl?"
GOLD = "StGB/§242"
SHOWN = ("gbm25_score", "gbm25_rank", "gbm25_parts", "gvec_rank", "nb_rank", "bridge_rank", "rrf_rank")


def report(name: str, pred, ranker) -> list[str]:
    """One design's lines: the gold's rank and features, the top hit's, each with its top contributions."""
    cand = candidates(pred, [QUESTION], ranker.cocite, ranker.facts)[0]
    x = cand.x[:, ranker.columns]
    score = ranker.trees.predict(x)
    order = [cand.ids[j] for j in np.lexsort((np.array(cand.ids), -score))]
    lines = [f"## {name}\n", f"{len(order)} candidates; top 5: {', '.join(order[:5])}\n",
             "| § | rank | found by | " + " | ".join(SHOWN) + " | largest contributions |",
             "|---|---|---|" + "---|" * len(SHOWN) + "---|"]
    for uid in dict.fromkeys([GOLD, order[0]]):
        if uid not in cand.ids:
            lines.append(f"| {uid} | not a candidate |" + " |" * (len(SHOWN) + 2))
            continue
        j = cand.ids.index(uid)
        values = [x[j, ranker.features.index(f)] if f in ranker.features else np.nan for f in SHOWN]
        contrib = ranker.trees.contributions(x[[j]])[0, :-1]
        top = np.argsort(-np.abs(contrib))[:4]
        lines.append(f"| {uid} | {order.index(uid) + 1} | {', '.join(cand.found[j])} | "
                     + " | ".join("–" if np.isnan(v) else f"{v:.3g}" for v in values) + " | "
                     + ", ".join(f"{ranker.features[k]} {contrib[k]:+.2f}" for k in top) + " |")
    return lines


def parts_alone(corpus, n: int = 8) -> list[str]:
    """The best ``n`` §§ of the graph by the BM25 of the question's added compound parts alone."""
    scores = corpus.part_bm25([QUESTION])[0]
    order = list(np.argsort(-scores, kind="stable"))
    lines = ["## The compound parts' BM25 alone (`gbm25_parts`) over every § of the graph\n",
             "| rank | § | gbm25_parts |", "|---|---|---|"]
    shown = order[:n] + ([corpus.ids.index(GOLD)] if corpus.ids.index(GOLD) not in order[:n] else [])
    lines += [f"| {order.index(j) + 1} | {corpus.ids[j]} | {scores[j]:.3g} |" for j in shown]
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ranker", help="a lay ranker file of another design, shown beside the shipped one")
    args = ap.parse_args()
    cfg = load_config(None, None, None, None)
    engine = Retriever(open_driver(cfg), cfg.database)
    pred, shipped = engine.models.predictor("lay"), engine.models.ranker("lay")
    out = [f"# StGB § 242 for \"{QUESTION}\"\n"] + report(f"shipped ranker ({len(shipped.features)} features)",
                                                          pred, shipped)
    if args.ranker:
        units, corpus = engine.models.corpus()
        other = rankfile.load(args.ranker).attach_units(units, pred.statutes.ids, corpus)
        out += [""] + report(f"--ranker ({len(other.features)} features, compound BM25: {other.facts.compounds})",
                             pred, other)
    out += [""] + parts_alone(engine.models.corpus()[1])
    print("\n".join(out))


if __name__ == "__main__":
    main()
