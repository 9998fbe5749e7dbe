"""Context packs against the best fixed-level top-k with the same words, cross-validated by case.

    .venv/bin/python benchmarks/context_packs.py [--dataset ler_bgh --dataset gerlayqa]
        [--budgets 300,1000,3000] [--sample N] [--folds 5] [--seed 0] [--candidates DIR]
        [--save-calibration legalkg/data/context-gain.json] [--out FILE.md]

For every case, retrieval is the learned engine of a fold that never saw the case
(``legalkg.eval.folds.fold_retrievers``, as ``legalkg eval --cv 5``: folds grouped by case,
fold seed ``--seed``; GerLayQA's ``train.jsonl`` added to every fold's training set and never
scored, like ``--train-extra``). Per case the candidates are gathered once
(``legalkg.context.gather``: §, Absatz and Satz rankings and one citation hop).

* **Pack**: ``legalkg.context.select_units`` with a calibration fitted (``legalkg.context.fit``)
  on the scored cases of the *other* folds only.
* **Fixed-level top-k**: the same level ranking's first k units, k the largest whose words fit
  the budget (per case: a strict prefix, as a top-k). Levels Paragraph, Absatz, Satz; "best" is
  the level with the highest recall on the scored cases themselves, per dataset, budget and depth,
  which favours the baseline.

Recall is micro citation recall at § and Absatz depth (``legalkg.eval.metric``, gold counted
``fixed``, gold outside the graph's laws dropped as ``legalkg eval`` drops it), with 95 % bootstrap
CIs over cases (``legalkg.eval.stats.bootstrap_ci``, 1,000 resamples, seed 0); the ratio pack /
best baseline has its own CI from the same resampled cases (a ratio of sums). ``--sample N``
scores a seeded random sample of N cases (the folds and training still use every case).
``--save-calibration`` writes the calibration fitted on every scored case (out-of-fold ranks) as
the shipped one of the dataset's task.
"""

from __future__ import annotations

import datetime as dt
import gzip
import json
import platform
import random
import shlex
import sys
import time
from pathlib import Path

import click
import numpy as np

from legalkg import paths
from legalkg.context import POOLS, Candidate, fit, gain as gainmod, gather, select_units
from legalkg.eval.datasets import load_dataset, restrict_to_laws
from legalkg.eval.folds import Folds, fold_retrievers, group_of
from legalkg.eval.metric import score_case
from legalkg.eval.runner import case_task, embed_queries, law_keys
from legalkg.eval.stats import bootstrap_ci
from legalkg.graph.config import load_config
from legalkg.graph.connection import session_driver
from legalkg.model import DEPTHS
from legalkg.predict import grouped_folds, load_examples
from legalkg.retrieve import Retriever, clean_query
from legalkg.vocab import RetrievalLevel

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # research/ is not installed
from research.results import fmt_ci  # noqa: E402

EXTRA = {"gerlayqa": "gerlayqa/train.jsonl"}
LEVELS = (RetrievalLevel.PARAGRAPH, RetrievalLevel.ABSATZ, RetrievalLevel.SATZ)
DEPTH_NAMES = ("§", "Absatz")
I_DEPTH = {name: DEPTHS.index(name) for name in DEPTH_NAMES}


def top_k_within(cands: list[Candidate], level: str, budget: int) -> list[str]:
    """The level ranking's longest prefix whose words fit the budget."""
    ranked = sorted((c for c in cands if c.source == level), key=lambda c: c.rank)
    out, used = [], 0
    for c in ranked:
        if used + c.words > budget:
            break
        out.append(c.id)
        used += c.words
    return out


def gather_all(name: str, driver, db: str, folds: int, seed: int, sample: int | None,
               cache: Path | None, pools: dict) -> tuple[list, dict, dict, str]:
    """(scored cases, case id -> fold, case id -> candidates, task), candidates read from ``cache`` if there."""
    cases = load_dataset(name)
    kept = restrict_to_laws(cases, law_keys(driver, db))
    task = case_task(kept)
    texts = {c.id: clean_query(c.query) for c in kept}
    ids = [c.id for c in kept]
    fold = {ids[i]: f for f, (_, test) in enumerate(grouped_folds([group_of(cid) for cid in ids], folds, seed))
            for i in test}
    scored = kept if sample is None or sample >= len(kept) else random.Random(seed).sample(kept, sample)
    tag = "-".join(str(pools[lv]) for lv in LEVELS)
    path = cache / f"{name}-{tag}-candidates.jsonl.gz" if cache else None
    cands: dict[str, list[Candidate]] = {}
    if path and path.exists():
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            for line in fh:
                rec = json.loads(line)
                cands[rec["id"]] = [Candidate(**c) for c in rec["candidates"]]
    todo = [c for c in scored if c.id not in cands]
    if todo:
        extra = load_examples([str(paths.eval_dir() / EXTRA[name])]) if name in EXTRA else None
        t = time.perf_counter()
        retrievers = fold_retrievers(driver, db, task, [(c.id, texts[c.id], c.gold) for c in kept],
                                     Folds(folds, seed), extra=extra)
        print(f"{name}: {len(kept)} cases, {folds} fold engines trained in {time.perf_counter() - t:.0f} s",
              file=sys.stderr)
        vectors, _ = embed_queries(Retriever(driver, db), {c.id: texts[c.id] for c in todo}, list(LEVELS))
        t = time.perf_counter()
        for i, c in enumerate(todo, 1):
            vec = {lv: vectors[lv][c.id] for lv in vectors}
            cands[c.id] = gather(retrievers[c.id], texts[c.id], task, None, pools, vectors=vec)
            if i % 50 == 0:
                print(f"  {i}/{len(todo)} gathered ({(time.perf_counter() - t) / i:.2f} s per case)", file=sys.stderr)
        if path:
            path.parent.mkdir(parents=True, exist_ok=True)
            with gzip.open(path, "wt", encoding="utf-8") as fh:
                for cid, cs in cands.items():
                    fh.write(json.dumps({"id": cid, "candidates": [c.model_dump() for c in cs]},
                                        ensure_ascii=False) + "\n")
    return scored, fold, cands, task


def evaluate(name: str, scored, fold, cands, budgets: list[int]) -> list[dict]:
    gold = {c.id: c.gold for c in scored}
    fold_ids = sorted({fold[c.id] for c in scored})
    calib = {f: fit([(cands[c.id], gold[c.id]) for c in scored if fold[c.id] != f]) for f in fold_ids}
    rows = []
    for budget in budgets:
        hits: dict[str, list] = {"pack": []} | {str(lv): [] for lv in LEVELS}
        words: dict[str, list] = {k: [] for k in hits}
        n_gold = []
        for c in scored:
            units = select_units(cands[c.id], budget, calib[fold[c.id]])
            assert sum(u.words for u in units) <= budget
            runs = {"pack": [u.id for u in units]} | {str(lv): top_k_within(cands[c.id], lv, budget) for lv in LEVELS}
            wmap = {x.id: x.words for x in cands[c.id]}
            for run, ids in runs.items():
                s = score_case(c.id, gold[c.id], ids, words=wmap)
                hits[run].append(s.hits)
                words[run].append(s.delivered_words)
            n_gold.append(s.n_gold)
        den = np.array(n_gold)
        arr = {run: np.array(h) for run, h in hits.items()}
        for depth in DEPTH_NAMES:
            i = I_DEPTH[depth]
            recall = {run: bootstrap_ci(a[:, i], den) for run, a in arr.items()}
            best = max((str(lv) for lv in LEVELS), key=lambda r: recall[r].point)
            ratio = bootstrap_ci(arr["pack"][:, i], arr[best][:, i])
            rows.append({"dataset": name, "cases": len(scored), "budget": budget, "depth": depth,
                         "pack": recall["pack"], "best_level": best, "best": recall[best], "ratio": ratio,
                         **{f"top-k {lv}": recall[str(lv)] for lv in LEVELS},
                         "pack_words": float(np.mean(words["pack"])), "best_words": float(np.mean(words[best]))})
    return rows


def table(rows: list[dict]) -> str:
    head = ("| dataset (cases) | budget | depth | pack recall | best top-k level: recall | pack / best | "
            + " | ".join(f"top-k {lv}" for lv in LEVELS) + " | words pack / best |")
    lines = [head, "|" + "---|" * (7 + len(LEVELS) - 1)]
    for r in rows:
        lines.append(f"| {r['dataset']} ({r['cases']}) | {r['budget']:,} | {r['depth']} | {fmt_ci(r['pack'])} | "
                     f"{r['best_level']}: {fmt_ci(r['best'])} | **{fmt_ci(r['ratio'])}** | "
                     + " | ".join(f"{r[f'top-k {lv}'].point:.3f}" for lv in LEVELS)
                     + f" | {r['pack_words']:.0f} / {r['best_words']:.0f} |")
    return "\n".join(lines)


@click.command()
@click.option("--dataset", "datasets", multiple=True, default=("ler_bgh", "gerlayqa"), show_default=True)
@click.option("--budgets", default="300,1000,3000", show_default=True)
@click.option("--sample", type=int, default=None, help="Score a seeded random sample of N cases per dataset.")
@click.option("--folds", type=int, default=5, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--pools", default=None, help="Hits asked per level, Paragraph,Absatz,Satz (default: legalkg.context's POOLS).")
@click.option("--candidates", "cache", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder to keep the gathered candidates in (reused by a rerun with the same cases).")
@click.option("--save-calibration", type=click.Path(dir_okay=False, path_type=Path), default=None)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None, help="Write the table here too.")
def main(datasets, budgets, sample, folds, seed, pools, cache, save_calibration, out) -> None:
    budget_list = [int(b) for b in budgets.split(",")]
    pool_map = dict(zip(LEVELS, (int(p) for p in pools.split(",")))) if pools else dict(POOLS)
    cfg = load_config()
    command = "python benchmarks/context_packs.py " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    all_rows = []
    t0 = time.perf_counter()
    with session_driver(cfg) as driver:
        for name in datasets:
            scored, fold, cands, task = gather_all(name, driver, cfg.database, folds, seed, sample, cache, pool_map)
            all_rows += evaluate(name, scored, fold, cands, budget_list)
            if save_calibration:
                cal = fit([(cands[c.id], c.gold) for c in scored])
                gainmod.save(save_calibration, task, cal, command,
                                 {"dataset": name, "cases": len(scored), "note": "out-of-fold ranks of the "
                                  "cross-validated engines (benchmarks/context_packs.py)"})
    text = (f"{table(all_rows)}\n\n`{command}`; {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC, "
            f"{platform.node()}, {time.perf_counter() - t0:.0f} s\n")
    print(text)
    if out:
        out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
