"""Vector-index population time and recall against dimension and Neo4j 5.26's index settings.

The vectors: the static encoder's 256-d vectors of N statute Sätze of the 58 default codes; the
512-d rows are the same vectors next to a fixed random rotation of them, divided by sqrt(2), so
every cosine (and so every exact neighbour) is unchanged and only the dimension differs. They are
written to nodes of a scratch label (``IdxBench``) of the server given by ``--uri``, then for each
setting an index is created, its population awaited and timed, and Q held-out Sätze are queried
(k = 10) against the exact numpy top 10. The scratch label is deleted at the end.

    PYTHONPATH=. nice -n 10 .venv/bin/python benchmarks/vector_index_settings.py \
        --uri bolt://127.0.0.1:7719 --n 20000 --out docs/benchmarks/vector-index-settings.csv
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd
from neo4j import GraphDatabase

from legalkg.embed import get_embedder
from legalkg.predict import unit_texts

#: (name, indexConfig entries beside dimensions and similarity); the first is Neo4j's default.
SETTINGS = [
    ("default", {}),
    ("no quantization", {"vector.quantization.enabled": False}),
    ("m 8", {"vector.hnsw.m": 8}),
    ("ef_construction 50", {"vector.hnsw.ef_construction": 50}),
    ("m 8, ef_construction 50", {"vector.hnsw.m": 8, "vector.hnsw.ef_construction": 50}),
]


def vectors(n: int, q: int) -> tuple[list[str], np.ndarray, np.ndarray]:
    texts = [t for uid, t in sorted(unit_texts().items()) if "/S" in uid.rsplit("/", 1)[-1]]
    pick = np.random.default_rng(0).permutation(len(texts))[: n + q]
    emb = get_embedder("static")
    vec = emb.embed_documents([texts[i] for i in pick])
    return [f"b{i}" for i in range(n)], vec[:n], vec[n:]


def widen(v: np.ndarray) -> np.ndarray:
    rot, _ = np.linalg.qr(np.random.default_rng(1).standard_normal((v.shape[1], v.shape[1])))
    return (np.hstack([v, v @ rot]) / np.sqrt(2)).astype(np.float32)


def run(driver, ids, docs, queries, dim, name, extra) -> dict:
    driver.execute_query("DROP INDEX idx_bench IF EXISTS")
    driver.execute_query("MATCH (n:IdxBench) REMOVE n.v")
    for start in range(0, len(ids), 2000):
        driver.execute_query("UNWIND $rows AS r MATCH (n:IdxBench {id: r.id}) "
                             "CALL db.create.setNodeVectorProperty(n, 'v', r.v)",
                             rows=[{"id": i, "v": v.tolist()} for i, v in
                                   zip(ids[start:start + 2000], docs[start:start + 2000], strict=True)])
    config = {"vector.dimensions": dim, "vector.similarity_function": "cosine", **extra}
    t = time.perf_counter()
    driver.execute_query("CREATE VECTOR INDEX idx_bench FOR (n:IdxBench) ON n.v OPTIONS {indexConfig: $c}", c=config)
    driver.execute_query("CALL db.awaitIndex('idx_bench', 3600)")
    build = time.perf_counter() - t
    exact = np.argsort(-(queries @ docs.T), axis=1)[:, :10]
    hits, t = 0, time.perf_counter()
    for qv, want in zip(queries, exact, strict=True):
        got = driver.execute_query("CALL db.index.vector.queryNodes('idx_bench', 10, $q) YIELD node "
                                   "RETURN node.id AS id", q=qv.tolist()).records
        hits += len({r["id"] for r in got} & {ids[j] for j in want})
    return {"dim": dim, "setting": name, "n_vectors": len(ids), "build_s": round(build, 1),
            "recall@10": round(hits / (10 * len(queries)), 4),
            "query_ms": round(1000 * (time.perf_counter() - t) / len(queries), 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--uri", required=True)
    ap.add_argument("--n", type=int, default=20000)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    ids, docs, queries = vectors(args.n, args.queries)
    rows = []
    with GraphDatabase.driver(args.uri, auth=None) as driver:
        driver.execute_query("MATCH (n:IdxBench) DETACH DELETE n")
        driver.execute_query("UNWIND $ids AS i CREATE (:IdxBench {id: i})", ids=ids)
        driver.execute_query("CREATE INDEX idx_bench_id IF NOT EXISTS FOR (n:IdxBench) ON n.id")
        driver.execute_query("CALL db.awaitIndexes(600)")
        try:
            for dim, d, q in ((256, docs, queries), (512, widen(docs), widen(queries))):
                for name, extra in SETTINGS if dim == 256 else SETTINGS[:2]:
                    rows.append(run(driver, ids, d, q, dim, name, extra))
                    print(rows[-1], flush=True)
        finally:
            driver.execute_query("DROP INDEX idx_bench IF EXISTS")
            driver.execute_query("DROP INDEX idx_bench_id IF EXISTS")
            driver.execute_query("MATCH (n:IdxBench) DETACH DELETE n")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows).to_csv(args.out, index=False)


if __name__ == "__main__":
    main()
