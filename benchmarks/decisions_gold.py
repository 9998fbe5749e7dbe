"""Ingest the shared LER decisions into a graph of the 58 codes and measure the CITES_* edges (issue 46).

Usage: .venv/bin/python benchmarks/decisions_gold.py --uri bolt://127.0.0.1:PORT --out eval/decisions
       [--workers 2] [--sample 50] [--seed 46]

1. ``legalkg ingest-cases`` (the library call) on ``ler_bgh`` and ``ler_courts/dev``: decisions/s, edges/s.
2. Gold coverage: every annotated statute span (``norms``) is read by the citation grammar like the
   evaluation reads it (``cases.gold.parse_gold_spans``); each gold citation whose unit exists in the
   graph (resolved to the deepest existing unit) counts as covered when the decision has a CITES_* edge
   to exactly that unit. Per span: covered when all its citations with a unit are. Citations outside
   the graph (law not loaded, § missing) are counted apart. The misses are written out.
3. A seeded sample of edges with the decision text around the citation, for the hand check
   (``sample.md``; the verdicts are recorded in ``sample_checked.tsv``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from legalkg import jsonl, paths  # noqa: E402
from legalkg.cases.gold import parse_gold_spans  # noqa: E402
from legalkg.cite import LawRegistry, resolve  # noqa: E402
from legalkg.graph.config import Neo4jConfig  # noqa: E402
from legalkg.graph.connection import open_driver  # noqa: E402
from legalkg.graph.cypher import query  # noqa: E402
from legalkg.graph.decisions import CaseSettings, ingest_cases, known_units  # noqa: E402

FILES = ("ler_bgh/bgh_documents.jsonl", "ler_courts/dev.jsonl.gz")


def coverage(records: dict[str, dict], edges: dict[str, set[str]], known, registry) -> dict:
    """Gold citations and spans with a unit in the graph, and how many became an edge to it."""
    c: Counter = Counter()
    per_court: dict[str, Counter] = defaultdict(Counter)
    misses = []
    for rid, rec in records.items():
        text, court = rec["text"], rec.get("court") or "?"
        for n in rec.get("norms", []):
            cits = parse_gold_spans(text, [(n["start"], n["end"])], registry).citations
            c["spans"] += 1
            in_graph = hit = 0
            for cit in cits:
                target = resolve(cit, known)
                if cit.law not in known.laws:
                    c["citations_law_not_in_graph"] += 1
                    continue
                if target is None:
                    c["citations_unit_not_in_graph"] += 1
                    continue
                in_graph += 1
                ok = target in edges.get(rid, ())
                hit += ok
                if not ok:
                    misses.append({"decision": rid, "span": n["text"], "gold_unit": target,
                                   "decision_edges_in_law": sorted(t for t in edges.get(rid, ())
                                                                   if t.startswith(cit.law + "/"))[:12]})
            c["citations_in_graph"] += in_graph
            c["citations_edged"] += hit
            per_court[court]["citations_in_graph"] += in_graph
            per_court[court]["citations_edged"] += hit
            if in_graph:
                c["spans_in_graph"] += 1
                c["spans_edged"] += hit == in_graph
    return {"totals": dict(c), "per_court": {k: dict(v) for k, v in sorted(per_court.items())},
            "misses": misses}


def context(text: str, cited: str, width: int = 160) -> str:
    i = text.find(cited)
    if i < 0:
        return "(citation text not found verbatim)"
    return text[max(0, i - width):i] + "[[" + cited + "]]" + text[i + len(cited):i + len(cited) + width]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--uri", required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--sample", type=int, default=50)
    ap.add_argument("--seed", type=int, default=46)
    ap.add_argument("--fresh", action="store_true", help="remove every decision of the graph first")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    files = [paths.eval_dir() / f for f in FILES]
    driver = open_driver(Neo4jConfig(uri=args.uri))
    db = "neo4j"
    if args.fresh:
        with driver.session(database=db) as session:
            session.run(query("cases/delete_all")).consume()
    t0 = time.perf_counter()
    report = ingest_cases(driver, db, files, CaseSettings(workers=args.workers, progress=False))
    seconds = time.perf_counter() - t0
    rows = [r.data() for r in driver.execute_query(query("cases/decision_edges"), database_=db).records]
    edges: dict[str, set[str]] = defaultdict(set)
    for r in rows:
        edges[r["decision"]].add(r["target"])
    records = {str(rec["id"]): rec for f in files for _, rec in jsonl.records(f, "decision file", "")}
    cov = coverage(records, edges, known_units(driver, db), LawRegistry.default())
    t = cov["totals"]
    result = {
        "files": list(FILES), "workers": args.workers, "decisions": report.read, "bad": report.bad,
        "seconds": round(seconds, 2), "decisions_per_s": round(report.read / seconds, 1),
        "edges": len(rows), "edges_per_s": round(len(rows) / seconds, 1), "unresolved": report.unresolved,
        "in_graph": report.in_graph, "coverage": t, "per_court": cov["per_court"],
        "citation_share": round(t["citations_edged"] / t["citations_in_graph"], 4),
        "span_share": round(t["spans_edged"] / t["spans_in_graph"], 4),
    }
    (args.out / "results.json").write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", "utf-8")
    with (args.out / "misses.jsonl").open("w", encoding="utf-8") as fh:
        for m in cov["misses"]:
            fh.write(json.dumps(m, ensure_ascii=False) + "\n")
    sample = random.Random(args.seed).sample(rows, min(args.sample, len(rows)))
    lines = ["| # | decision | edge | cited unit | text around the citation |", "|---|---|---|---|---|"]
    for i, r in enumerate(sample, 1):
        ctx = context(records[r["decision"]]["text"], r["text"]).replace("|", "/").replace("\n", " ")
        lines.append(f"| {i} | {r['decision']} | {r['type']} `{r['text']}` ×{r['count']} | {r['target']} "
                     f"({r['citation']}) | {ctx} |")
    (args.out / "sample.md").write_text("\n".join(lines) + "\n", "utf-8")
    print(json.dumps({k: v for k, v in result.items() if k != "per_court"}, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
