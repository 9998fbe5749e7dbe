"""How many of the gold §§ that the engine's top 10 holds a context pack also holds, within its budget.

    .venv/bin/python eval/context-packs/run.py [--sample 300] [--seed 0] [--budgets 300,1000,3000]
        [--baseline-rev 5328726] [--cache DIR] [--out eval/context-packs]
        [--cv 5 --folds 0 --train-extra FILE ...]

Per GerLayQA dev question (a seeded random sample of ``--sample``, gold outside the graph's laws
dropped as ``legalkg eval`` drops it):

* **top 10**: ``legalkg search`` as shipped (learned mode, § level, k = 10, task ``lay``);
* **pack**: ``legalkg.context.select_units`` of this checkout over the candidates of
  ``legalkg.context.gather`` (the same engine at §, Absatz and Satz level and one citation hop);
* **baseline**: the pack of ``--baseline-rev`` (the gain-model selection with its shipped
  ``context-gain.json``), loaded from that commit with ``git archive`` and run over the same
  candidates, so both packs are scored in the same run.

A gold § is held by a list when one of its units lies in that § (``legalkg.eval.metric.match_depth``
at § depth). The figure is ``sum(held by pack and top 10) / sum(held by top 10)`` over the
questions, with a 95 % bootstrap CI over questions (``legalkg.eval.stats.bootstrap_ci``, 1,000
resamples, seed 0). It also gives each list's § recall.

Without ``--cv`` the engine is the shipped one, trained on GerLayQA dev + train, so its ranks are
in-sample; the ratio compares two selections over the same ranks. With ``--cv N`` every question
is answered, and its candidates gathered, by the engine of its fold (``legalkg.eval.folds.
fold_retrievers``, as ``legalkg eval --cv N --fold-ranker shipped``: predictor and stacked ranker
trained on the other folds of GerLayQA dev plus every ``--train-extra`` file, the shipped fusion
weights); the sample is drawn from the folds named by ``--folds``, and only their engines are
trained.
"""

from __future__ import annotations

import csv
import gzip
import importlib.util
import json
import random
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

import click
import numpy as np

from legalkg.context import Candidate, gather, select_units
from legalkg.eval.datasets import load_dataset, restrict_to_laws
from legalkg.eval.folds import Folds, fold_retrievers, group_of
from legalkg.eval.metric import match_depth
from legalkg.eval.runner import law_keys
from legalkg.eval.stats import bootstrap_ci
from legalkg.graph.config import load_config
from legalkg.graph.connection import session_driver
from legalkg.model import decode_id
from legalkg.predict import grouped_folds
from legalkg.predict.examples import load_examples
from legalkg.retrieve import Retriever, SearchRequest, clean_query, weights as fusion_weights
from legalkg.vocab import Task

ROOT = Path(__file__).resolve().parents[2]
PARA_DEPTH = 2


def load_baseline(rev: str):
    """The ``legalkg.context`` package and the lay calibration of commit ``rev``, imported as
    ``legalkg.context_baseline`` (its relative imports reach this checkout's other modules)."""
    blob = subprocess.run(["git", "archive", rev, "legalkg/context", "legalkg/data/context-gain.json"],
                          cwd=ROOT, check=True, capture_output=True).stdout
    tmp = Path(tempfile.mkdtemp(prefix="ctx-baseline-"))
    with tarfile.open(fileobj=BytesIO(blob)) as tar:
        tar.extractall(tmp, filter="data")
    name = "legalkg.context_baseline"
    spec = importlib.util.spec_from_file_location(name, tmp / "legalkg/context/__init__.py",
                                                  submodule_search_locations=[str(tmp / "legalkg/context")])
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    cal = mod.shipped("lay", tmp / "legalkg/data/context-gain.json")
    return mod, cal


def held(gold, ids) -> set:
    """The gold citations that some unit of ``ids`` reaches at § depth."""
    units = [decode_id(u) for u in ids]
    return {g for g in gold if any(match_depth(u, g) >= PARA_DEPTH for u in units)}


def gather_all(driver, db, cases, cache: Path | None, engines=None, tag: str = "") -> dict[str, dict]:
    """case id -> {"top10": ids, "candidates": [...]}, read from ``cache`` where there; each case
    answered by ``engines[case id]`` where given (its fold's engine), else by the shipped one."""
    path = cache / f"gerlayqa-dev-lay{tag}.jsonl.gz" if cache else None
    out: dict[str, dict] = {}
    if path and path.exists():
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            for line in fh:
                rec = json.loads(line)
                out[rec["id"]] = rec
    todo = [c for c in cases if c.id not in out]
    r = Retriever(driver, db)
    t = time.perf_counter()
    for i, c in enumerate(todo, 1):
        text = clean_query(c.query)
        engine = engines[c.id] if engines else r
        top = engine.search(SearchRequest(query=text, k=10, task="lay"))
        cands = gather(engine, text, "lay")
        out[c.id] = {"id": c.id, "top10": [h.id for h in top.seeds],
                     "candidates": [x.model_dump(mode="json") for x in cands]}
        if i % 25 == 0:
            print(f"  {i}/{len(todo)} gathered ({(time.perf_counter() - t) / i:.2f} s per question)", file=sys.stderr)
    if path and todo:
        path.parent.mkdir(parents=True, exist_ok=True)
        with gzip.open(path, "wt", encoding="utf-8") as fh:
            for rec in out.values():
                fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    return out


def score(scored, recs, budget: int, base_mod, base_cal) -> list[dict]:
    """Both selections' rows at ``budget``."""
    runs = ("pack", "baseline")
    n_gold, n_top = [], []
    both = {k: [] for k in runs}
    alone = {k: [] for k in runs}
    words = {k: [] for k in runs}
    units = {k: [] for k in runs}
    for c in scored:
        rec = recs[c.id]
        cands = [Candidate(**x) for x in rec["candidates"]]
        packs = {"pack": select_units(cands, budget),
                 "baseline": base_mod.select_units([base_mod.Candidate(**x) for x in rec["candidates"]],
                                                   budget, base_cal)}
        gold = set(c.gold)
        top = held(gold, rec["top10"])
        n_gold.append(len(gold))
        n_top.append(len(top))
        for k, p in packs.items():
            assert sum(u.words for u in p) <= budget
            h = held(gold, [u.id for u in p])
            both[k].append(len(h & top))
            alone[k].append(len(h))
            words[k].append(sum(u.words for u in p))
            units[k].append(len(p))
    den_top, den_gold = np.array(n_top), np.array(n_gold)
    top_recall = bootstrap_ci(den_top, den_gold)
    rows = []
    for k in runs:
        ratio = bootstrap_ci(np.array(both[k]), den_top)
        recall = bootstrap_ci(np.array(alone[k]), den_gold)
        rows.append({"selection": k, "questions": len(scored), "budget": budget,
                     "share_of_top10_gold": round(ratio.point, 4), "share_low": round(ratio.low, 4),
                     "share_high": round(ratio.high, 4), "pack_recall": round(recall.point, 4),
                     "pack_recall_low": round(recall.low, 4), "pack_recall_high": round(recall.high, 4),
                     "top10_recall": round(top_recall.point, 4), "words_mean": round(float(np.mean(words[k])), 1),
                     "units_mean": round(float(np.mean(units[k])), 1)})
    return rows


def in_folds(cases, n: int, seed: int, chosen: set[int]) -> list:
    """The cases of folds ``chosen`` of the grouped ``n``-fold split that ``fold_retrievers`` makes."""
    split = list(grouped_folds([group_of(c.id) for c in cases], n, seed))
    return [cases[i] for k, (_train, test) in enumerate(split) if k in chosen for i in test]


def cv_engines(driver, db, cases, n: int, seed: int, extra_files, scored_ids: set[str]) -> dict:
    """case id -> the engine of its fold (predictor and stacked ranker trained without the fold,
    plus ``extra_files``), for the folds that hold a scored case."""
    rows = [(c.id, clean_query(c.query), c.gold) for c in cases]
    extra = load_examples(list(extra_files), task="lay") if extra_files else None
    shipped = fusion_weights.shipped(Task.LAY)
    t = time.perf_counter()
    engines = fold_retrievers(driver, db, Task.LAY, rows, Folds(n, seed, ranked=True), extra=extra,
                              weights=shipped, only=scored_ids)
    print(f"  fold engines trained in {time.perf_counter() - t:.0f} s", file=sys.stderr)
    return engines


@click.command()
@click.option("--sample", type=int, default=300, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--budgets", default="300,1000,3000", show_default=True,
              help="Word budgets (1,000 is the default of the API and the page).")
@click.option("--baseline-rev", default="5328726", show_default=True, help="The commit whose pack is the baseline.")
@click.option("--cache", type=click.Path(path_type=Path), default=None, help="Keep gathered candidates here.")
@click.option("--out", type=click.Path(path_type=Path), default=Path("eval/context-packs"), show_default=True)
@click.option("--cv", type=int, default=0, show_default=True,
              help="Answer each question by its fold's engine of an N-fold CV (0: the shipped engine, in-sample).")
@click.option("--folds", default="0", show_default=True, help="With --cv: the folds whose questions are sampled.")
@click.option("--train-extra", "train_extra", multiple=True, type=click.Path(dir_okay=False, path_type=Path),
              help="With --cv: more training questions for every fold (repeatable), as `legalkg eval --train-extra`.")
def main(sample, seed, budgets, baseline_rev, cache, out, cv, folds, train_extra) -> None:
    cfg = load_config()
    base_mod, base_cal = load_baseline(baseline_rev)
    with session_driver(cfg) as driver:
        cases = restrict_to_laws(load_dataset("gerlayqa"), law_keys(driver, cfg.database))
        engines, tag, pool = None, "", cases
        if cv:
            pool = in_folds(cases, cv, seed, {int(f) for f in folds.split(",")})
        scored = random.Random(seed).sample(pool, min(sample, len(pool)))
        if cv:
            engines = cv_engines(driver, cfg.database, cases, cv, seed, train_extra, {c.id for c in scored})
            tag = f"-cv{cv}-folds{folds.replace(',', '_')}"
        recs = gather_all(driver, cfg.database, scored, cache, engines, tag)
    rows = []
    for budget in (int(b) for b in budgets.split(",")):
        rows += score(scored, recs, budget, base_mod, base_cal)
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "results.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    lines = ["| selection | questions | budget | share of the top 10's gold §§ in the pack | pack § recall | "
             "top-10 § recall | words | units |", "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['selection']} | {r['questions']} | {r['budget']:,} | "
                     f"{r['share_of_top10_gold']:.3f} [{r['share_low']:.3f}, {r['share_high']:.3f}] | "
                     f"{r['pack_recall']:.3f} [{r['pack_recall_low']:.3f}, {r['pack_recall_high']:.3f}] | "
                     f"{r['top10_recall']:.3f} | {r['words_mean']:.0f} | {r['units_mean']:.1f} |")
    (out / "results.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
