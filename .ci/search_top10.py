"""The top 10 ids of `legalkg search --json` for the wheel smoke's 15 queries, in the default mode and
with `--level auto`, from whichever legalkg the running python imports; printed as one JSON object.

.ci/smoke_wheel.sh runs it twice on the same graph, with the installed wheel's python and with the
checkout's, and requires equal answers: the wheel must rank as the checkout does, with every shipped
model (a wheel without the rankers would rank otherwise or fail). The 15 queries: the 10 lay
questions of .ci/smoke_questions.txt and 5 windows of BAG decisions (LER, CC BY-NC-SA 4.0, Leitner,
Rehm & Moreno-Schneider 2019) cut at run time from $LEGALKG_SHARED, never committed: in the shared
file's order, the first records with a GS span naming the BGB, WINDOW words from the span's start.

The searches run in one process per install through one ``Retriever``, as `legalkg search` runs its
one search (``legalkg/cli/search.py``), with its JSON's seeds: 60 calls of the console script would pay
its start-up (imports, model loads) 60 times. smoke_wheel.sh also runs the console script for one
query per mode and checks that its ids equal these.

Usage: python .ci/search_top10.py QUESTIONS.txt  (env: LEGALKG_SHARED, NEO4J_URI, NEO4J_PASSWORD)
"""

from __future__ import annotations

import gzip
import json
import os
import re
import sys
from pathlib import Path

import legalkg
from legalkg.graph.config import load_config
from legalkg.graph.connection import session_driver
from legalkg.retrieve import Retriever, SearchRequest

DECISIONS = 5
WINDOW = 200
MODES = {"default": {}, "auto": {"level": "auto"}}
BGB = re.compile(r"\bBGB\b")


def decision_windows(shared: Path) -> list[str]:
    """``DECISIONS`` windows of BAG decisions, each opening at a citation of the BGB."""
    out: list[str] = []
    with gzip.open(shared / "data" / "eval" / "ler_courts" / "dev.jsonl.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            span = next((n for n in rec["norms"] if BGB.search(n["text"])), None) if rec["court"] == "BAG" else None
            if span is not None:
                out.append(" ".join(rec["text"][span["start"]:].split()[:WINDOW]))
                if len(out) == DECISIONS:
                    return out
    sys.exit(f"search_top10: only {len(out)} BAG records cite the BGB in {shared}; the shared data changed")


def queries(questions: Path) -> list[tuple[str, str, dict]]:
    """(name, text, request fields) of each query: the lay questions, then the decision windows (task
    case: a window is shorter than the 480 words from which search picks the case predictor itself)."""
    lay = [q for q in questions.read_text("utf-8").splitlines() if q.strip()]
    cases = decision_windows(Path(os.environ["LEGALKG_SHARED"]))
    return ([(f"lay-{i}", q, {}) for i, q in enumerate(lay, 1)]
            + [(f"case-{i}", t, {"task": "case"}) for i, t in enumerate(cases, 1)])


def run(questions: Path) -> dict:
    cfg = load_config()
    answers = {}
    with session_driver(cfg) as driver:
        engine = Retriever(driver, cfg.database)
        for name, text, fields in queries(questions):
            for mode, extra in MODES.items():
                res = engine.search(SearchRequest(query=text, k=10, **fields, **extra))
                answers[f"{name} {mode}"] = [hit["id"] for hit in res.model_dump()["seeds"]]
    return {"package": str(Path(legalkg.__file__).parent), "top10": answers}


if __name__ == "__main__":
    print(json.dumps(run(Path(sys.argv[1])), ensure_ascii=False, indent=1))
