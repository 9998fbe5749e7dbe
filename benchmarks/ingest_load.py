"""Benchmark `legalkg ingest` (structure + citations, no embeddings) on a fresh local Neo4j.

Starts its own throwaway server (auth off, free ports, temporary home), loads the chosen codes with the
batched Cypher loader or the bulk import (``--method``; ``both`` loads twice, each on a fresh server), then loads ONE law with a naive loop (one write transaction per node and per edge)
into a second, empty database state and reports nodes/s of both and their ratio. Appends a row to
docs/benchmarks/ingest-runs.md (the result record that docs/benchmarks/ingest.md quotes).

    .venv/bin/python benchmarks/ingest_load.py --workers 2     # 58 default codes + naive loop on BGB
    .venv/bin/python benchmarks/ingest_load.py --codes all --workers 2 --naive-law ''  # all 6,821 laws
    .venv/bin/python benchmarks/ingest_load.py --workers 2 --method both --naive-law ''  # bulk import vs Cypher

``--before REV`` first runs the same load with the library of git revision REV (a temporary
worktree put first on PYTHONPATH, this script unchanged) and writes its row beside this tree's, so
a change is measured before/after on the same laws in one run. The main process's RSS is sampled
every 0.2 s and reported per phase (parse, then the bulk import's csv/import/start/schema steps):
where the peak comes from. ``LEGALKG_SHARED`` points ``--codes all`` at another archive (a subset).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from legalkg import codes as codes_mod
from legalkg.graph.admin import wipe
from legalkg.graph.config import Neo4jConfig
from legalkg.graph.connection import open_driver
from legalkg.graph.ingest import ingest_laws, plan_load
from legalkg.graph.inspect import label_counts, relationship_counts
from legalkg.graph.load import LoadSettings
from legalkg.graph.rows import law_rows
from legalkg.model import TEXT_LEVELS
from legalkg.parse import iter_laws, parse_file
from legalkg.paths import REPO_ROOT, gii_dir
from legalkg.server import caches, jvm
from legalkg.server.conf import ServerSettings
from legalkg.server.jars import ensure_jars
from legalkg.server.process import free_port, stop
from legalkg.server.startup import start

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # research/ is not installed
from research.machine import calibration_ms, cpu_model, cpu_times, default_workers, steal_text  # noqa: E402

NAIVE_NODE = "MERGE (n:{label} {{id: $id}}) SET n += $props"
NAIVE_EDGE = "MATCH (p {{id: $parent}}) MATCH (c:{label} {{id: $id}}) MERGE (p)-[:CONTAINS_{rel}]->(c)"


def naive_load(driver, db: str, slug: str) -> tuple[int, float]:
    """The peer: one auto-commit write per node and one per CONTAINS edge, no batching."""
    law = parse_file(gii_dir() / f"{slug}.xml")
    rows = law_rows(law)
    started = time.perf_counter()
    n = 0
    with driver.session(database=db) as session:
        session.run("MERGE (g:Gesetz {id: $id})", id=law.key).consume()
        for (_, _, _parent, level), group in sorted(rows.groups.items(), key=lambda kv: kv[0][:2]):
            label = level.value + (":Unit" if level in TEXT_LEVELS else "")
            for row in group:
                session.run(NAIVE_NODE.format(label=label), id=row["id"], props=row["props"]).consume()
                session.run(NAIVE_EDGE.format(label=level.value, rel=level.value.upper()),
                            parent=row["parent"], id=row["id"]).consume()
                n += 1
    return n, time.perf_counter() - started


def rss_mb() -> float:
    """Resident set size of this process now (Linux /proc), in MB."""
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


class RssSampler:
    """(seconds since start, RSS MB) of this process every ``every`` seconds, in a thread."""

    def __init__(self, every: float = 0.2) -> None:
        self.every, self.samples, self._stop = every, [], threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        t0 = time.perf_counter()
        while not self._stop.is_set():
            self.samples.append((time.perf_counter() - t0, rss_mb()))
            self._stop.wait(self.every)

    def __enter__(self) -> RssSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()

    def by_phase(self, wall: float, phases: dict[str, float]) -> dict[str, float]:
        """Peak RSS in each phase: 'parse' until the bulk steps start (wall minus their sum, which
        also holds the few seconds after them), then each step in order."""
        bounds, t = [], max(0.0, wall - sum(phases.values()))
        bounds.append(("parse", 0.0, t))
        for name, seconds in phases.items():
            bounds.append((name, t, t + seconds))
            t += seconds
        return {name: max((r for s, r in self.samples if lo <= s < hi), default=0.0) for name, lo, hi in bounds}


def _server() -> ServerSettings:
    home = Path(tempfile.mkdtemp(prefix="legalkg-bench-"))
    return ServerSettings(home=home, bolt_port=free_port(), http_port=free_port(), auth=False,
                          heap="2g", pagecache="1g")


def load_once(method: str, slugs, workers: int, naive_law: str) -> dict:
    """One fresh server, one ingest by ``method`` (and the naive peer on that server when asked)."""
    settings = _server()
    print(f"[{method}]", start(settings, timeout=300), flush=True)
    out: dict = {"method": method, "ratio": "-"}
    try:
        cfg = Neo4jConfig(uri=settings.bolt_uri)
        driver = open_driver(cfg)
        t0 = time.perf_counter()
        with RssSampler() as sampler:
            report = ingest_laws(driver, cfg.database, iter_laws(None, slugs, workers=workers),
                                 plan=plan_load(cfg.uri, method, settings.home),
                                 total=len(slugs) if slugs else None, settings=LoadSettings(workers=workers))
        wall = time.perf_counter() - t0
        out["rss_phases"] = sampler.by_phase(wall, report.phases)
        out["rss_peak"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        labels, rels = label_counts(driver, cfg.database), relationship_counts(driver, cfg.database)
        nodes = sum(v for k, v in labels.items() if k not in ("Unit",))
        edges = sum(rels.values())
        out.update(laws=len(report.laws), nodes=nodes, edges=edges, wall=wall, failures=len(report.failures),
                   phases=report.phases, structure=report.structure_seconds,
                   ended=dt.datetime.now(dt.UTC).strftime("%H:%M"))
        print(f"[{method}] {len(report.laws)} laws, {nodes:,} nodes, {edges:,} relationships in {wall:.1f} s "
              f"(structure {report.structure_seconds:.1f} s, phases {report.phases}) -> {nodes / wall:,.0f} "
              f"nodes/s, {edges / wall:,.0f} rels/s; failures {len(report.failures)}; peak RSS main process "
              f"{out['rss_peak']:,.0f} MB; by phase {_rss_text(out)}", flush=True)
        if naive_law:  # batched vs naive on the same single law, each into an empty database
            wipe(driver, cfg.database)
            one = parse_file(gii_dir() / f"{naive_law}.xml")
            t1 = time.perf_counter()
            ingest_laws(driver, cfg.database, [(naive_law, one)], settings=LoadSettings(progress=False))
            batched_one = time.perf_counter() - t1
            n_one = law_rows(one).node_count
            wipe(driver, cfg.database)
            n_naive, naive_s = naive_load(driver, cfg.database, naive_law)
            ratio = (n_one / batched_one) / (n_naive / naive_s)
            out["ratio"] = f"{naive_law}: {ratio:.1f}x"
            print(f"{naive_law}: batched {n_one / batched_one:,.0f} nodes/s (incl. citations) vs naive "
                  f"{n_naive / naive_s:,.0f} nodes/s (structure only) -> {ratio:.1f}x", flush=True)
        driver.close()
    finally:
        stop(settings)
        shutil.rmtree(settings.home, ignore_errors=True)  # a loaded home holds 0.2-0.6 GB
    return out


def _rss_text(run: dict) -> str:
    phases = ", ".join(f"{k} {v:,.0f}" for k, v in run.get("rss_phases", {}).items())
    return f"peak RSS main process {run['rss_peak']:,.0f} MB ({phases} MB)" if "rss_peak" in run else ""


def before_runs(rev: str, argv: list[str]) -> list[dict]:
    """This script's runs with the library of ``rev`` (a temporary worktree first on PYTHONPATH)."""
    tree = Path(tempfile.mkdtemp(prefix="legalkg-before-"))
    subprocess.run(["git", "-C", str(REPO_ROOT), "worktree", "add", "--detach", str(tree / "src"), rev],
                   check=True, capture_output=True)
    try:
        out = tree / "runs.json"
        env = {**os.environ, "PYTHONPATH": str(tree / "src")}
        subprocess.run([sys.executable, __file__, *argv, "--json-out", str(out)], env=env, check=True)
        return json.loads(out.read_text("utf-8"))
    finally:
        subprocess.run(["git", "-C", str(REPO_ROOT), "worktree", "remove", "--force", str(tree / "src")],
                       check=False, capture_output=True)
        shutil.rmtree(tree, ignore_errors=True)


def _when_and_phases(run: dict) -> str:
    """The run's end time and, for a bulk import, the seconds of each step; "rest" is the wall time
    outside the steps (mostly parsing, which comes before them). The row then holds what a later
    reader needs to compare runs."""
    text = f"; {run['ended']} UTC"
    if run.get("rev"):
        text += f"; library of {run['rev']}"
    if "rss_peak" in run:
        text += f"; {_rss_text(run)}"
    if run["phases"]:
        steps = ", ".join(f"{k} {v:.1f}" for k, v in run["phases"].items())
        text += f"; phases {steps}, rest {run['wall'] - sum(run['phases'].values()):.1f}"
    return text


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--codes", default="default")
    ap.add_argument("--naive-law", default="bgb",
                    help="slug of the law for the naive peer ('' skips the peer, e.g. for --codes all)")
    ap.add_argument("--workers", type=int, default=default_workers(),
                    help="parser and citation-extraction processes (as `legalkg ingest --workers`; "
                         "default as there: the usable CPUs, at most 8)")
    ap.add_argument("--method", choices=("cypher", "import", "both"), default="cypher",
                    help="loader: Cypher batches, the neo4j-admin bulk import, or both in this run "
                         "(each on its own fresh server; the naive peer runs after the Cypher load)")
    ap.add_argument("--before", default=None, metavar="REV",
                    help="first run the same load with the library of git revision REV (see the module doc)")
    ap.add_argument("--json-out", default=None, help=argparse.SUPPRESS)  # a --before child's results
    args = ap.parse_args()
    slugs = codes_mod.resolve_codes(args.codes)
    child_argv = [a for a in sys.argv[1:]]
    if args.before:
        i = child_argv.index("--before")
        del child_argv[i:i + 2]
    earlier = before_runs(args.before, child_argv) if args.before else []
    for r in earlier:
        r["rev"] = args.before
    methods = ["import", "cypher"] if args.method == "both" else [args.method]
    java = jvm.find()
    if "import" in methods and java.aot and not caches.admin_archive(ensure_jars()).exists():
        print("note: no AOT cache of the admin tool yet: this run's import records it (its training run, "
              "slower once); rerun for a steady figure", flush=True)
    cpu_start, calibration = cpu_times(), calibration_ms()
    runs = [load_once(m, slugs, args.workers, args.naive_law if m == "cypher" else "") for m in methods]
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(runs), "utf-8")
        return
    if args.before:
        head = subprocess.run(["git", "-C", str(REPO_ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=False).stdout.strip()
        for r in runs:
            r["rev"] = f"this tree (HEAD {head})"
    runs = earlier + runs
    if len(runs) == 2 and args.method == "both":
        print(f"cypher / import wall time: {runs[1]['wall'] / runs[0]['wall']:.2f}x", flush=True)
    out = REPO_ROOT / "docs" / "benchmarks" / "ingest-runs.md"
    java_text = f"Java {java.major}, {'AOT cache' if java.aot else 'class-data archive'}"
    host = cpu_model()
    load = (f"{os.getloadavg()[0]:.1f} (steal {steal_text(cpu_start)}, calibration {calibration:.1f} ms, "
            f"{java_text}, {host})")
    print(f"CPU steal during the run: {steal_text(cpu_start)}; calibration loop at start: {calibration:.1f} ms; "
          f"{java_text} ({java.path}); {host}")
    if not out.exists():
        out.write_text("# Ingest benchmark\n\nFresh local Neo4j 5.26 (2 GB heap, 1 GB page cache), no embeddings; "
                       "wall time includes parsing and citation extraction. The ratio compares nodes/s of the "
                       "batched loader (with citations) against a naive one-write-per-node-and-edge loop "
                       "(structure only) on the same law in the same run.\n\n"
                       "| date | command | laws | nodes | relationships | seconds | nodes/s | rels/s | "
                       "batched / naive | load avg |\n|---|---|---|---|---|---|---|---|---|---|\n", "utf-8")
    with out.open("a", encoding="utf-8") as fh:
        for r in runs:
            before = f" --before {args.before}" if args.before else ""
            shared = f"LEGALKG_SHARED={os.environ['LEGALKG_SHARED']} " if os.environ.get("LEGALKG_SHARED") else ""
            fh.write(f"| {dt.date.today()} | `{shared}python benchmarks/ingest_load.py --codes {args.codes} --workers "
                     f"{args.workers} --method {args.method}{before}` ({r['method']}) | {r['laws']} | {r['nodes']:,} | "
                     f"{r['edges']:,} | {r['wall']:.1f} | {r['nodes'] / r['wall']:,.0f} | "
                     f"{r['edges'] / r['wall']:,.0f} | {r['ratio']} | {load}{_when_and_phases(r)} |\n")
    print(f"appended to {out} ({platform.node()}, python {sys.version.split()[0]})")


if __name__ == "__main__":
    main()
