"""The whole ingest of the 58 default codes with and without the statute facts of issue 45, in one run on
one machine: a fresh local Neo4j, the laws parsed from the shared data, then ``ingest_laws`` (the Cypher
loader, every step: parse, structure, citations, facts, indexes) into the emptied database, alternating
with the facts step (``graph.load.load_all_enabling``: preambles -> AUTHORIZED_BY, definitions -> Term
nodes) and without it (that one step replaced by nothing, here only). Wall seconds of each ingest, and the
seconds the report gives the facts step. Writes ingest-whole.json:

    .venv/bin/python eval/facts/ingest_whole.py [--rounds 1] [--workers 1]
"""

from __future__ import annotations

import argparse
import json
import platform
import secrets
import subprocess
import tempfile
import time
from pathlib import Path

from legalkg import codes
from legalkg.graph import load as load_module
from legalkg.graph.admin import wipe
from legalkg.graph.config import Neo4jConfig
from legalkg.graph.connection import open_driver
from legalkg.graph.ingest import ingest_laws
from legalkg.graph.load import LoadSettings
from legalkg.parse import iter_laws
from legalkg.server.conf import ServerSettings
from legalkg.server.process import free_port, stop
from legalkg.server.startup import start

HERE = Path(__file__).resolve().parent
OUT = HERE / "ingest-whole.json"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=1, help="ingests of each kind, alternating")
    ap.add_argument("--workers", type=int, default=1, help="citation extraction processes")
    args = ap.parse_args()
    slugs = codes.resolve_codes("default")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=HERE).stdout.strip()  # the code the ingests run (read before they start)
    with tempfile.TemporaryDirectory(prefix="facts-ingest-") as home:
        s = ServerSettings(home=Path(home), bolt_port=free_port(), http_port=free_port(), auth=True,
                           password="t-" + secrets.token_hex(8), heap="1g", pagecache="512m")
        start(s, timeout=240, record=False)
        try:
            runs = _runs(Neo4jConfig(uri=s.bolt_uri, user="neo4j", password=s.password), slugs, args)
        finally:
            stop(s)
    with_ = [r["seconds"] for r in runs if r["facts"]]
    without = [r["seconds"] for r in runs if not r["facts"]]
    out = {"command": "python eval/facts/ingest_whole.py " + f"--rounds {args.rounds} --workers {args.workers}",
           "commit": commit,
           "machine": f"{platform.machine()}, {platform.system()}, shared host", "laws": len(slugs),
           "loader": "cypher (ingest_laws, the default plan)", "runs": runs,
           "median_with_facts_s": _median(with_), "median_without_facts_s": _median(without),
           "facts_add_s": round(_median(with_) - _median(without), 1),
           "facts_step_median_s": _median([r["facts_step_s"] for r in runs if r["facts"]]),
           "facts_add_share": round((_median(with_) - _median(without)) / _median(without), 4)}
    OUT.write_text(json.dumps(out, indent=1) + "\n", "utf-8")
    print(json.dumps(out, indent=1))


def _runs(cfg: Neo4jConfig, slugs: list[str], args) -> list[dict]:
    driver = open_driver(cfg)
    facts_step = load_module.load_all_enabling
    runs = []
    try:
        for _ in range(args.rounds):
            for facts in (True, False):
                wipe(driver, cfg.database)
                load_module.load_all_enabling = facts_step if facts else (lambda *a, **k: None)
                started = time.perf_counter()
                report = ingest_laws(driver, cfg.database, iter_laws(None, slugs),
                                     settings=LoadSettings(progress=False, workers=args.workers))
                seconds = time.perf_counter() - started
                assert report.ok, report.failures
                runs.append({"facts": facts, "seconds": round(seconds, 1),
                             "facts_step_s": round(report.enabling_seconds + report.definitions_seconds, 1),
                             "edges": report.enabling.get("edges", 0) if report.enabling else 0,
                             "definitions": report.definitions})
                print(runs[-1], flush=True)
    finally:
        load_module.load_all_enabling = facts_step
        driver.close()
    return runs


def _median(xs: list[float]) -> float:
    xs = sorted(xs)
    n = len(xs)
    return round((xs[n // 2] + xs[(n - 1) // 2]) / 2, 1)


if __name__ == "__main__":
    main()
