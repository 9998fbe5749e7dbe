"""Counts and seeded samples of the three statute facts of issue 45 (enabling provisions, legal
definitions, broken references), over the 58 default codes and over all 6,821 laws of gii.

Pure: the laws are parsed from the shared data, no Neo4j. Writes counts.json and the samples to
judge (samples/*.jsonl, seeded); the judgements are added by hand to judged/*.jsonl and scored by
score.py. Run from the checkout:

    .venv/bin/python eval/facts/build.py [--workers 2]
    .venv/bin/python eval/facts/build.py --seed 4545 --size 50 --samples samples-2 --counts counts-2.json

The second form draws a fresh sample (another seed) after the extractors were fixed on the first one's
verdicts: the first sample is their development data, the second the held-out measurement.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter
from pathlib import Path

from legalkg import codes, paths
from legalkg.cite import KnownUnits, LawRegistry
from legalkg.cite.broken import broken_references
from legalkg.cite.definitions import definitions
from legalkg.cite.preamble import enabling_facts
from legalkg.model import TEXT_LEVELS, Law
from legalkg.parse import ParseError, iter_laws

HERE = Path(__file__).resolve().parent
SEED = 45


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--size", type=int, default=100, help="records drawn per kind")
    ap.add_argument("--samples", default="samples", help="folder under eval/facts for the samples")
    ap.add_argument("--counts", default="counts.json", help="file under eval/facts for the counts")
    args = ap.parse_args()
    registry = LawRegistry.default()
    default = {c.slug for c in codes.default_codes()}
    started = time.perf_counter()
    ids: set[str] = set()
    repealed: set[str] = set()
    preambles: list[Law] = []
    defs: list[dict] = []
    slugs: dict[str, str] = {}
    failed = 0
    for slug, law in iter_laws(paths.gii_all_archive(), None, workers=args.workers):
        if isinstance(law, ParseError):
            failed += 1
            continue
        slugs[law.key] = slug
        for u in law.units:
            if u.level in TEXT_LEVELS:
                ids.add(u.id)
                if u.repealed:
                    repealed.add(u.id)
        if law.preamble:
            preambles.append(Law.model_construct(key=law.key, jurabk=law.jurabk, preamble=law.preamble, slug=slug,
                                                 doknr=law.doknr, units=[]))
        for d in definitions(law):
            defs.append({"law": law.key, "slug": slug, "term": d.term, "unit": d.unit, "scope": d.scope,
                         "scope_kind": d.scope_kind, "pattern": d.pattern, "text": d.text})
    parse_s = time.perf_counter() - started
    known = KnownUnits(ids)
    enabling = []
    for law in preambles:
        f = enabling_facts(law, registry, known.ids, repealed, known.laws)
        enabling.append({"law": law.key, "slug": law.slug, "preamble": law.preamble, "issuer": f.issuer,
                         "edges": [{k: e[k] for k in ("citation", "target", "role", "exact", "text")} for e in f.edges],
                         "unresolved": [{k: u[k] for k in ("citation", "status", "role", "text")}
                                        for u in f.unresolved]})
    enabling_s = time.perf_counter() - started - parse_s
    laws58 = [law for _, law in iter_laws(None, codes.resolve_codes("default")) if not isinstance(law, ParseError)]
    gaps: Counter = Counter()
    broken = [r.model_dump() for r in broken_references(laws58, registry, gaps=gaps)]
    counts = {
        "all_laws": _counts(enabling, defs, slugs, lambda s: True) | {"parse_failures": failed},
        "default_codes": _counts(enabling, defs, slugs, lambda s: s in default),
        "broken_58": {"rows": len(broken), "by_status": dict(Counter(r["status"] for r in broken)),
                      "left_out_as_parser_gaps": dict(gaps)},
        "seconds": {"parse_all_laws": round(parse_s, 1), "enabling_all_laws": round(enabling_s, 1)},
    }
    (HERE / args.counts).write_text(json.dumps(counts, indent=1, ensure_ascii=False) + "\n", "utf-8")
    _samples(enabling, defs, broken, args.seed, args.size, HERE / args.samples)
    print(json.dumps(counts, indent=1, ensure_ascii=False))


def _counts(enabling: list[dict], defs: list[dict], slugs: dict[str, str], keep) -> dict:
    ords = [e for e in enabling if keep(e["slug"])]
    status = Counter(u["status"] for e in ords for u in e["unresolved"])
    return {
        "laws": sum(1 for s in slugs.values() if keep(s)),
        "files_named_v": sum(1 for s in slugs.values() if keep(s) and s.endswith("v")),
        "with_preamble": len(ords),
        "v_with_preamble": sum(1 for e in ords if e["slug"].endswith("v")),
        "linked_laws": sum(1 for e in ords if e["edges"]),
        "laws_with_a_reference": sum(1 for e in ords if e["edges"] or e["unresolved"]),
        "authorized_by_edges": sum(len(e["edges"]) for e in ords),
        "unresolved": dict(status),
        "definitions": sum(1 for d in defs if keep(d["slug"])),
        "definitions_by_pattern": dict(Counter(d["pattern"] for d in defs if keep(d["slug"]))),
        "terms": len({(d["scope"], d["term"].lower()) for d in defs if keep(d["slug"])}),
    }


def _samples(enabling: list[dict], defs: list[dict], broken: list[dict], seed: int, size: int, out: Path) -> None:
    rng = random.Random(seed)
    out.mkdir(exist_ok=True)
    ordinances = sorted((e for e in enabling if e["slug"].endswith("v")), key=lambda e: e["slug"])
    for name, pool in (("enabling", ordinances), ("definitions", defs), ("broken", broken)):
        rows = rng.sample(pool, min(size, len(pool)))
        with (out / f"{name}.jsonl").open("w", encoding="utf-8") as fh:
            for row in rows:
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
