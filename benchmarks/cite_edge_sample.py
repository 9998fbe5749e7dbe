"""Parse the 58 default codes, build all citation edges, print totals and a random edge sample.

Usage: .venv/bin/python benchmarks/cite_edge_sample.py [--n 100] [--seed 4] [--codes BGB,ZPO]

Each sampled edge prints the citing unit's text, the reference as written and the target's text,
so a reader can judge it; the judgement is recorded by hand in docs/citations.md.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from legalkg import codes, paths  # noqa: E402
from legalkg.cite import KnownUnits, LawRegistry, statute_edges  # noqa: E402
from legalkg.cite.statute import EdgeStats  # noqa: E402
from legalkg.parse import parse_file  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=100)
    ap.add_argument("--seed", type=int, default=4)
    ap.add_argument("--codes", default="default")
    args = ap.parse_args()
    slugs = codes.resolve_codes(args.codes) or []
    t0 = time.perf_counter()
    laws = [parse_file(paths.gii_dir() / f"{slug}.xml") for slug in slugs]
    t_parse = time.perf_counter() - t0
    units = {u.id: u for law in laws for u in law.units}
    repealed = {uid for uid, u in units.items() if u.repealed}
    reg = LawRegistry.default()
    t0 = time.perf_counter()
    known = KnownUnits(units.keys())
    all_edges = []
    total = EdgeStats()
    per_law = []
    for law in laws:
        edges, stats = statute_edges(law, reg, known, repealed)
        all_edges.extend(edges)
        total = total.merge(stats)
        per_law.append((law.key, stats.edges, stats.by_kind.get("cross", 0)))
    t_edges = time.perf_counter() - t0
    print(f"codes: {len(laws)}; units: {len(units)}; parse {t_parse:.0f} s; edges {t_edges:.0f} s")
    print(f"references: {total.references}; edges: {total.edges}; by kind: {total.by_kind}")
    print(f"by target level: {total.by_level}")
    print(f"unresolved: {total.unresolved}")
    print(f"fallback to ancestor: {total.fallback_to_ancestor}; self references: "
          f"{total.self_references}; duplicate (source, target): {total.duplicates}")
    for reason, examples in total.examples.items():
        print(f"  e.g. {reason}: {examples[:3]}")
    print("top citing codes:", sorted(per_law, key=lambda r: -r[1])[:10])
    rng = random.Random(args.seed)
    sample = rng.sample(all_edges, min(args.n, len(all_edges)))
    for i, e in enumerate(sample, 1):
        src, dst = units[e.source_id], units[e.target_id]
        print(f"\n[{i}] {e.source_id} -> {e.target_id} ({e.kind}, {e.target_level.value})")
        print(f"    ref:    {e.text}")
        print(f"    source: {src.text[:300]}")
        print(f"    target: {(dst.title or '') + ' ' if dst.title else ''}{dst.text[:200]}")


if __name__ == "__main__":
    main()
