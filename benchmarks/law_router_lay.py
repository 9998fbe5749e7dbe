"""The law router (``legalkg.retrieve.laws``) on lay questions: is the gold law among its top laws?

    NEO4J_URI=bolt://127.0.0.1:7687 .venv/bin/python benchmarks/law_router_lay.py \
        --data eval/lay-beyond/dev.jsonl --data $LEGALKG_SHARED/data/eval/gerlayqa/dev.jsonl \
        [--sample 300] [--seed 0] --out eval/law-router

Data: lay JSONL files of the generic form (``{id, question, gold}``), each scored on its own: a
question's gold laws are the laws of its gold citations (``legalkg.predict.load_examples``). A
file over ``--sample`` questions is scored on a seeded sample of that many.

Signals are read as ``legalkg search --law auto`` reads them (``laws.law_runs``, the shipped lay
predictor, the graph at ``NEO4J_URI``); rows: each signal alone and the router (all fused with
``laws.WEIGHTS``), all from the same run. The shipped lay predictor was trained on GerLayQA, so
its signal (and the router's) is in-sample there; the beyond-BGB questions were seen by no model.

Metrics per question, mean over questions, 95 % bootstrap CIs (``legalkg.eval.stats.bootstrap_ci``):
hit@k = 1 if any gold law is among the top k laws, for k = 1 and 3.
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import time
from pathlib import Path

import numpy as np

from legalkg import paths
from legalkg.eval.stats import bootstrap_ci
from legalkg.graph.config import load_config
from legalkg.graph.connection import open_driver
from legalkg.predict import load_examples
from legalkg.retrieve import Retriever, laws
from legalkg.vocab import Task

KS = (1, 3)


def portable(path: Path) -> str:
    """``path`` as a recorded command shows it: under the shared folder as ``$LEGALKG_SHARED/...``,
    else relative to the working directory where it lies below it."""
    path = path.resolve()
    for root, name in ((paths.shared_dir().resolve(), "$LEGALKG_SHARED"), (Path.cwd(), ".")):
        if path.is_relative_to(root):
            return f"{name}/{path.relative_to(root)}"
    return path.name


def hits(ranking: list[str], gold: set[str]) -> list[float]:
    return [float(bool(gold & set(ranking[:k]))) for k in KS]


def score_file(engine: Retriever, path: Path, sample: int, seed: int) -> list[dict]:
    examples = load_examples([path], "lay").examples
    if len(examples) > sample:
        examples = random.Random(seed).sample(examples, sample)
    rows: dict[str, list[list[float]]] = {}
    t0 = time.perf_counter()
    for e in examples:
        gold = {lab.split("/", 1)[0] for lab in e.labels}
        runs = laws.law_runs(engine, e.text, Task.LAY)
        for name, ranking in runs.items():
            rows.setdefault(name, []).append(hits(ranking, gold))
        rows.setdefault("router", []).append(hits(laws.routed_laws(runs, max(KS)), gold))
    ms = 1000 * (time.perf_counter() - t0) / max(len(examples), 1)
    out = []
    for name, vals in rows.items():
        arr = np.asarray(vals)
        point, low, high = bootstrap_ci(arr)
        out.append({"data": portable(path), "signal": name, "n": len(arr), "ms_per_question": round(ms, 1),
                    **{f"hit@{k}": round(float(point[i]), 3) for i, k in enumerate(KS)},
                    **{f"hit@{k}_ci": f"[{low[i]:.3f}, {high[i]:.3f}]" for i, k in enumerate(KS)}})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", action="append", required=True, type=Path)
    ap.add_argument("--sample", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--predictor", type=Path, default=None,
                    help="the lay predictor to route with (default: the shipped one), e.g. one trained without "
                         "the scored questions, so that its figures are out of sample")
    args = ap.parse_args()
    cfg = load_config()
    driver = open_driver(cfg)
    try:
        engine = Retriever(driver, cfg.database, predictors={Task.LAY: args.predictor} if args.predictor else None)
        rows = [r for path in args.data for r in score_file(engine, path, args.sample, args.seed)]
    finally:
        driver.close()
    args.out.mkdir(parents=True, exist_ok=True)
    with (args.out / "results.csv").open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    (args.out / "run.json").write_text(json.dumps({
        "command": "benchmarks/law_router_lay.py " + " ".join(
            f"--data {portable(p)}" for p in args.data) + f" --sample {args.sample} --seed {args.seed}"
        + (f" --predictor {portable(args.predictor)}" if args.predictor else ""),
        "weights": {str(k): v for k, v in laws.WEIGHTS.items()}}, indent=2) + "\n", encoding="utf-8")
    for r in rows:
        print(r)


if __name__ == "__main__":
    main()
