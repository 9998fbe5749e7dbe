"""Time the full evaluation grid (6 levels x 4 expansions x 3 modes, k=5) on a live graph.

Goal (issue 7): once the graph holds embeddings, the grid over the 2,154 GerLayQA questions takes
<= 10 min on 2 cores. The naive peer is the obvious loop, one ``Retriever.search`` per query and
cell (embedding the query in each vector/fusion call, as `legalkg search` does), timed on a sample
of queries and extrapolated linearly to the whole dataset; the ratio compares the two.

    NEO4J_PASSWORD=... .venv/bin/python benchmarks/eval_grid.py --dataset gerlayqa --peer-sample 20

Prints a JSON object with the timings (record it in docs/benchmarks/eval-runs.md).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from datetime import UTC, datetime

from legalkg.eval import datasets, runner
from legalkg.eval.request import EvalRequest
from legalkg.graph.config import load_config
from legalkg.graph.connection import session_driver
from legalkg.graph.inspect import label_counts
from legalkg.retrieve import Retriever


def naive_peer(driver, db, cases, cells, k: int) -> float:
    """Seconds for one Retriever.search per (query, cell): the unbatched reference path."""
    retr = Retriever(driver, db)
    retr.queries.embed_query(cases[0].query, "Satz")  # load the model outside the timing
    t = time.perf_counter()
    for case in cases:
        for cell in cells:
            retr.search(case.query, cell.level, k, cell.mode, cell.expansion)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dataset", default="gerlayqa")
    ap.add_argument("--limit", type=int, default=None, help="first N cases only (default all)")
    ap.add_argument("-k", type=int, default=5)
    ap.add_argument("--peer-sample", type=int, default=20, help="queries for the naive peer (0 = skip)")
    ap.add_argument("--bootstrap", type=int, default=1000)
    args = ap.parse_args()

    cfg = load_config(None, None, None, None)
    cases = datasets.load_dataset(args.dataset)
    if args.limit:
        cases = cases[: args.limit]
    request = EvalRequest(dataset=args.dataset, level="all", expand="all", mode="all", k=args.k,
                          bootstrap=args.bootstrap)
    cells = request.cells()
    with session_driver(cfg) as driver:
        counts = label_counts(driver, cfg.database)
        t = time.perf_counter()
        run = runner.run_eval(driver, cfg.database, request, cases=cases)
        wall = time.perf_counter() - t
        peer = None
        if args.peer_sample:
            kept = set(run.case_scores.case_id)
            sample = [c for c in cases if c.id in kept][: args.peer_sample]
            peer_s = naive_peer(driver, cfg.database, sample, cells, args.k)
            peer = {"sample_queries": len(sample), "seconds": round(peer_s, 2),
                    "per_query_all_cells_s": round(peer_s / len(sample), 3),
                    "extrapolated_full_s": round(peer_s / len(sample) * run.n_cases, 1)}
    out = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "command": "benchmarks/eval_grid.py " + " ".join(f"--{k.replace('_', '-')} {v}" for k, v in vars(args).items()
                                                         if v is not None),
        "machine": f"{platform.node()} {os.cpu_count()} cores, python {platform.python_version()}",
        "dataset": args.dataset, "cases": run.n_cases, "cells": len(cells), "k": args.k,
        "graph": {k: counts.get(k, 0) for k in ("Gesetz", "Paragraph", "Absatz", "Satz", "Nummer", "Buchstabe",
                                                "Chunk")},
        "model": sorted({m["name"] for m in run.models.values()}),
        "grid_wall_s": round(wall, 1),
        "timings_s": {k: round(v, 1) for k, v in run.timings.items()},
        "searches": run.n_cases * len(cells),
        "searches_per_s": round(run.n_cases * len(cells) / wall, 1),
        "naive_peer": peer,
        "speedup_vs_peer": round(peer["extrapolated_full_s"] / wall, 1) if peer else None,
    }
    print(json.dumps(out, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
