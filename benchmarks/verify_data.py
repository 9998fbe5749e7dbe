"""Shared by the verify benchmarks: the LER decisions with their gold GS spans, the dev graph's
unit ids, and the real citations that ``verify`` finds inside the gold spans.

Read only: the benchmarks connect with NEO4J_URI / NEO4J_PASSWORD and run read queries.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from neo4j import READ_ACCESS  # noqa: E402

from legalkg import jsonl, paths  # noqa: E402
from legalkg.eval.datasets import NAMED  # noqa: E402
from legalkg.graph.config import load_config  # noqa: E402
from legalkg.graph.connection import open_driver  # noqa: E402
from legalkg.graph.cypher import query  # noqa: E402
from legalkg.verify import CitationRecord, Verifier  # noqa: E402

DATASETS = ("ler_bgh", "ler_courts")


def load_docs(name: str) -> list[dict]:
    """The raw LER records (``text``, ``norms`` with offsets) of a named dataset."""
    path = paths.eval_dir() / NAMED[name]
    return [rec for _, rec in jsonl.records(path, "dataset file", "see $LEGALKG_SHARED/data/eval/README.md")]


def connect():
    cfg = load_config(None, None, None, None)
    return open_driver(cfg), cfg.database


def unit_ids(driver, db: str) -> dict[str, bool]:
    """Every unit id of the graph -> repealed (``cypher/load/all_unit_ids``, read transaction)."""
    with driver.session(database=db, default_access_mode=READ_ACCESS) as s:
        rows = s.execute_read(lambda tx: list(tx.run(query("load/all_unit_ids"), {"skip": []})))
    return {r["id"]: bool(r["repealed"]) for r in rows}


def overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def real_citations(verifier: Verifier, docs: list[dict], *, support: bool) -> list[tuple[int, str, CitationRecord]]:
    """(doc index, the doc's text, record) of every record whose chain overlaps a gold GS span."""
    out = []
    for di, d in enumerate(docs):
        gold = sorted((n["start"], n["end"]) for n in d["norms"])
        if not gold:
            continue
        report = verifier.verify(d["text"], support=support)
        for r in report.records:
            if any(overlaps((r.chain_start, r.chain_end), g) for g in gold):
                out.append((di, d["text"], r))
    return out


def paras_by_law(ids: dict[str, bool]) -> dict[str, list[str]]:
    """law -> its § / Art ids (the second id segment), for perturbations."""
    out: dict[str, list[str]] = defaultdict(list)
    for uid in ids:
        parts = uid.split("/")
        if len(parts) == 2:
            out[parts[0]].append(parts[1])
    return out
