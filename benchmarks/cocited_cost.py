"""The cost of the ``CO_CITED`` edges that `legalkg ingest` writes (issue 34), on a loaded graph.

Times the two parts of the step (``cocite.shipped_rows``: load both shipped predictors and build
their tables; ``graph.cocited.write_cocited``: the MERGE batches) ``--repeat`` times on the graph at
``NEO4J_URI`` (a graph the step already wrote is rewritten: what every later ingest pays; with
``--fresh`` the edges are removed before each write, as in a first ingest), checks
that no pair is stored twice, and writes a JSON result file. The whole step's seconds inside a real
ingest are printed by `legalkg ingest` itself ("co-citations: ... in X s").

    NEO4J_URI=bolt://127.0.0.1:17941 .venv/bin/python benchmarks/cocited_cost.py --out docs/benchmarks/cocited-cost.json
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import statistics
import sys
import time
from pathlib import Path

from legalkg.graph.cocited import write_cocited
from legalkg.graph.config import load_config
from legalkg.graph.connection import open_driver
from legalkg.graph.inspect import label_counts, relationship_counts
from legalkg.predict.cocite import shipped_rows

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # research/ is not installed
from research.machine import calibration_ms, cpu_model  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--fresh", action="store_true",
                    help="remove the edges before each write, so every write creates them (a first ingest)")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    cfg = load_config()
    driver = open_driver(cfg)
    rows_s, write_s, written = [], [], {}
    try:
        for _ in range(args.repeat):
            t = time.perf_counter()
            rows = shipped_rows()
            rows_s.append(time.perf_counter() - t)
            if args.fresh:
                write_cocited(driver, cfg.database, {task: [] for task in rows})
            t = time.perf_counter()
            written = write_cocited(driver, cfg.database, rows)
            write_s.append(time.perf_counter() - t)
        rels = relationship_counts(driver, cfg.database)
        paragraphs = label_counts(driver, cfg.database).get("Paragraph", 0)
    finally:
        driver.close()
    result = {
        "fresh": args.fresh,
        "command": "python benchmarks/cocited_cost.py " + " ".join(sys.argv[1:]),
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{cpu_model()}, load average {os.getloadavg()[0]:.1f}, "
                   f"calibration {calibration_ms():.1f} ms",
        "graph": {"paragraphs": paragraphs, "relationships": sum(rels.values())},
        "pairs_per_task": {task: len(r) for task, r in rows.items()},
        "edges_per_task": written,
        "co_cited_in_graph": rels.get("CO_CITED", 0),
        "rows_seconds": [round(s, 2) for s in rows_s],
        "write_seconds": [round(s, 2) for s in write_s],
        "median_step_seconds": round(statistics.median(a + b for a, b in zip(rows_s, write_s, strict=True)), 2),
    }
    assert result["co_cited_in_graph"] == sum(written.values()), "a pair is stored twice"
    args.out.write_text(json.dumps(result, indent=2) + "\n", "utf-8")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
