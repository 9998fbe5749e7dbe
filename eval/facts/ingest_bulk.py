"""What the statute facts of issue 45 add to a whole ingest by bulk import (``legalkg ingest``'s plan for a
fresh local server: CSV files, neo4j-admin import, restart, schema), measured inside one ingest with the
facts, per code set (the 58 default codes, all 6,821 laws), each on a fresh throwaway Neo4j.

Why not two ingests, with and without the facts: on this shared 2-core host other sessions' jobs move an
ingest's wall time by more than the facts cost (the 58 codes took 164.9 s with and 281.4 s without the
facts in one try here). CPU seconds move much less. So the ingest runs once, and

- ``facts_cpu_s``: CPU seconds spent in the two facts steps of each law's CSV
  (``import_files.enabling_rows``: preamble -> AUTHORIZED_BY; ``import_files.term_rows``: definitions ->
  Term, DEFINES; ``graph.broken.law_broken_rows``: broken references -> BrokenReference), timed around
  each call in the (forked) extraction workers;
- ``python_cpu_s``: CPU seconds of the ingest's own processes (main, workers, neo4j-admin import);
  ``server_cpu_s``: of the Neo4j server restarted by the import (start, indexes);
- ``facts_rows``: nodes and relationships the facts add (Term, CitedLaw, BrokenReference, DEFINES,
  AUTHORIZED_BY, HAS_BROKEN_REFERENCE), of all.

``growth_estimate`` = facts_cpu / (all CPU - facts_cpu) + facts_rows / (all rows - facts_rows): the
extraction the facts add, plus, for the import and index work, their share of the rows (an upper bound
where their rows are cheaper than the units with text and full-text indexes). Writes ingest-bulk.json:

    .venv/bin/python eval/facts/ingest_bulk.py [--codes default,all] [--workers 2]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from legalkg import codes
from legalkg.graph import broken as graph_broken, import_files
from legalkg.graph.config import Neo4jConfig
from legalkg.graph.connection import open_driver
from legalkg.graph.ingest import ingest_laws, plan_load
from legalkg.graph.inspect import label_counts, relationship_counts
from legalkg.graph.load import LoadSettings
from legalkg.parse import iter_laws
from legalkg.server.conf import ServerSettings
from legalkg.server.process import free_port, read_pid, stop
from legalkg.server.startup import start

HERE = Path(__file__).resolve().parent
OUT = HERE / "ingest-bulk.json"
FACT_LABELS = ("Term", "CitedLaw", "BrokenReference")
FACT_RELS = ("DEFINES", "AUTHORIZED_BY", "HAS_BROKEN_REFERENCE")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=2, help="parser and extraction processes")
    ap.add_argument("--codes", default="default,all", help="code sets, in order")
    args = ap.parse_args()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=HERE).stdout.strip()  # the code the ingests run (read before they start)
    out = {"command": f"python eval/facts/ingest_bulk.py --workers {args.workers} --codes {args.codes}",
           "machine": f"{platform.machine()}, {platform.system()}, {os.cpu_count()} CPUs "
                                        "shared with other sessions' jobs (load1 at the end of each run)",
           "loader": "bulk import (plan_load 'import'), one ingest with the facts per set", "sets": {}}
    if OUT.is_file():  # a rerun of some sets keeps the others' records, and the file's other notes
        kept = json.loads(OUT.read_text("utf-8"))
        out = {**kept, **out, "sets": kept.get("sets", {})}
    for name in args.codes.split(","):
        out["sets"][name] = {**_one(codes.resolve_codes(name), args.workers), "commit": commit,
                             "command": f"python eval/facts/ingest_bulk.py --workers {args.workers} --codes {name}"}
        print(name, out["sets"][name], flush=True)
        OUT.write_text(json.dumps(out, indent=1) + "\n", "utf-8")


def _timed(fn, log: Path):
    def wrapper(*a, **k):
        started = time.process_time()
        try:
            return fn(*a, **k)
        finally:
            with log.open("a", encoding="ascii") as fh:
                fh.write(f"{time.process_time() - started:.6f}\n")
    return wrapper


def _cpu(pid: int | None) -> float:
    """User + system CPU seconds of a live process (Linux /proc)."""
    if not pid:
        return 0.0
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rusage() -> float:
    a, b = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return a.ru_utime + a.ru_stime + b.ru_utime + b.ru_stime


def _one(slugs: list[str] | None, workers: int) -> dict:
    home = Path(tempfile.mkdtemp(prefix="facts-bulk-"))
    log = home / "facts-cpu.txt"
    s = ServerSettings(home=home / "neo4j", bolt_port=free_port(), http_port=free_port(), auth=False, heap="2g",
                       pagecache="1g")
    enabling_rows, term_rows = import_files.enabling_rows, import_files.term_rows
    broken_rows = graph_broken.law_broken_rows
    start(s, timeout=300, record=False)
    try:
        import_files.enabling_rows = _timed(enabling_rows, log)
        import_files.term_rows = _timed(term_rows, log)
        graph_broken.law_broken_rows = _timed(broken_rows, log)
        cfg = Neo4jConfig(uri=s.bolt_uri)
        driver = open_driver(cfg)
        pid0 = read_pid(s)
        server0 = _cpu(pid0)
        child = bool(pid0) and Path(f"/proc/{pid0}/stat").read_text().rsplit(")", 1)[1].split()[1] == str(os.getpid())
        cpu0, started = _rusage(), time.perf_counter()
        report = ingest_laws(driver, cfg.database, iter_laws(None, slugs, workers=workers),
                             plan=plan_load(cfg.uri, "import", s.home), total=len(slugs) if slugs else None,
                             settings=LoadSettings(progress=False, workers=workers))
        wall, python_cpu = time.perf_counter() - started, _rusage() - cpu0
        pid1 = read_pid(s)
        server_cpu = _cpu(pid1) - (server0 if pid1 == pid0 else 0.0)
        if pid1 != pid0 and child:  # the first server, stopped and reaped in the ingest: only its part after cpu0
            python_cpu -= server0
        assert report.ok, report.failures
        labels, rels = label_counts(driver, cfg.database), relationship_counts(driver, cfg.database)
        driver.close()
    finally:
        import_files.enabling_rows, import_files.term_rows = enabling_rows, term_rows
        graph_broken.law_broken_rows = broken_rows
        stop(s)
    calls = [float(x) for x in log.read_text("ascii").split()]
    shutil.rmtree(home, ignore_errors=True)
    nodes = sum(v for k, v in labels.items() if k != "Unit")
    rows = nodes + sum(rels.values())
    facts_rows = sum(labels.get(k, 0) for k in FACT_LABELS) + sum(rels.get(k, 0) for k in FACT_RELS)
    facts_cpu = sum(calls)
    all_cpu = python_cpu + server_cpu
    return {"laws": len(report.laws), "wall_s": round(wall, 1),
            "phases": {k: round(v, 1) for k, v in report.phases.items()},
            "python_cpu_s": round(python_cpu, 1), "server_cpu_s": round(server_cpu, 1),
            "server_restarted": pid1 != pid0, "facts_calls": len(calls), "facts_cpu_s": round(facts_cpu, 1),
            "facts_cpu_share": round(facts_cpu / all_cpu, 4),
            "rows": rows, "facts_rows": facts_rows, "facts_rows_share": round(facts_rows / rows, 4),
            "fact_counts": {k: labels.get(k, 0) for k in FACT_LABELS} | {k: rels.get(k, 0) for k in FACT_RELS},
            "growth_estimate": round(facts_cpu / (all_cpu - facts_cpu) + facts_rows / (rows - facts_rows), 4),
            "facts_wall_estimate_s": round(wall * facts_cpu / all_cpu, 1),
            "ended": time.strftime("%H:%M:%S", time.gmtime()), "load1": round(os.getloadavg()[0], 1)}


if __name__ == "__main__":
    main()
