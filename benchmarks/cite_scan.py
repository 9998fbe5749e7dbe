"""Statute citation extraction with each top unit tokenized once vs every text scanned on its own.

Runs ``statute_edges`` over every law of ``--codes`` in 2 forked worker processes, once with
``unitscan.unit_chains`` (what ingest does) and once with its plain peer ``unitscan.scan_each``,
interleaved for ``--repeat`` rounds. Both must give the same edges: the script compares their number
and a SHA-256 over every edge (source, target, kind, level, text) and exits 1 when they differ
(or, with one line naming it, when a code cannot be read).
Reports the median wall seconds and the workers' CPU seconds, and appends a table to
docs/benchmarks/cite.md.

    .venv/bin/python benchmarks/cite_scan.py --codes all --repeat 1
    .venv/bin/python benchmarks/cite_scan.py --codes default --repeat 3
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import multiprocessing
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from legalkg import codes as codes_mod
from legalkg.cite import KnownUnits, LawRegistry, statute, statute_edges, unitscan
from legalkg.graph.extraction import parsed_unit_ids
from legalkg.parse import ParseError, iter_laws
from legalkg.paths import REPO_ROOT

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # research/ is not installed
from research.machine import calibration_ms, children_cpu, cpu_times, steal_text  # noqa: E402

_STATE: tuple = ()


def _edges(i: int) -> tuple[int, str]:
    laws, registry, known, repealed = _STATE
    edges, _ = statute_edges(laws[i], registry, known, repealed)
    h = hashlib.sha256()
    for e in edges:
        h.update(f"{e.source_id}>{e.target_id}>{e.kind}>{e.target_level.value}>{e.text}\n".encode())
    return len(edges), h.hexdigest()


def run(laws: list, registry, known, repealed: set[str], chains) -> tuple[int, str, float, float]:
    """(edges, digest, wall seconds, worker CPU seconds) with ``chains`` as the unit scanner."""
    global _STATE
    _STATE = (laws, registry, known, repealed)
    statute.unit_chains = chains  # the workers fork from here and scan with it
    order = sorted(range(len(laws)), key=lambda i: len(laws[i].units), reverse=True)
    t, c = time.perf_counter(), children_cpu()
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork")) as pool:
        done = dict(zip(order, pool.map(_edges, order, chunksize=8)))
    wall, cpu = time.perf_counter() - t, children_cpu() - c
    statute.unit_chains = unitscan.unit_chains
    digest = hashlib.sha256("".join(done[i][1] for i in range(len(laws))).encode()).hexdigest()[:16]
    return sum(n for n, _ in done.values()), digest, wall, cpu


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--codes", default="default")
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    cpu_start, calibration = cpu_times(), calibration_ms()
    laws, unreadable = [], []
    for _slug, law in iter_laws(None, codes_mod.resolve_codes(args.codes), workers=2):
        (unreadable if isinstance(law, ParseError) else laws).append(law)
    if unreadable or not laws:
        sys.exit(f"cite_scan: {unreadable[0] if unreadable else 'no laws selected'}: pass --codes default, "
                 f"all, or codes of ../shared/data/gii/DEFAULT_CODES.tsv")
    ids, repealed = parsed_unit_ids(laws)
    known, registry = KnownUnits(ids), LawRegistry.default()
    variants = {"every text scanned on its own (scan_each)": unitscan.scan_each,
                "top units tokenized once (unit_chains)": unitscan.unit_chains}
    walls: dict[str, list[float]] = {k: [] for k in variants}
    cpus: dict[str, list[float]] = {k: [] for k in variants}
    results: dict[str, set[tuple[int, str]]] = {k: set() for k in variants}
    for i in range(args.repeat):
        for name, chains in variants.items():
            n, digest, wall, cpu = run(laws, registry, known, repealed, chains)
            walls[name].append(wall)
            cpus[name].append(cpu)
            results[name].add((n, digest))
            print(f"round {i + 1}: {name}: {n:,} edges, digest {digest}, {wall:.1f} s, workers {cpu:.1f} CPU s",
                  flush=True)
    same = len({frozenset(r) for r in results.values()}) == 1 and all(len(r) == 1 for r in results.values())
    n, digest = sorted(next(iter(results.values())))[0]
    (before, now) = variants
    lines = [f"\n### {dt.date.today()}: citation scan, {len(laws):,} laws "
             f"(`python benchmarks/cite_scan.py --codes {args.codes} --repeat {args.repeat}`)\n",
             f"2 forked workers; median of {args.repeat} interleaved round(s). CPU steal {steal_text(cpu_start)}, "
             f"calibration loop {calibration:.1f} ms at the start, {calibration_ms():.1f} ms at the end. "
             + (f"Both give the same {n:,} edges (digest `{digest}`)." if same else
                "**The edges differ** between the two: " + repr(results)) + "\n",
             "| scanner | wall s | workers' CPU s |", "|---|---:|---:|"]
    for name in variants:
        lines.append(f"| {name} | {statistics.median(walls[name]):.1f} | {statistics.median(cpus[name]):.1f} |")
    lines.append(f"| ratio (before / now) | {statistics.median(walls[before]) / statistics.median(walls[now]):.2f}x "
                 f"| {statistics.median(cpus[before]) / statistics.median(cpus[now]):.2f}x |")
    text = "\n".join(lines) + "\n"
    print(text)
    with (REPO_ROOT / "docs" / "benchmarks" / "cite.md").open("a", encoding="utf-8") as fh:
        fh.write(text)
    sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()
