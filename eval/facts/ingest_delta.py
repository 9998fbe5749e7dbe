"""What the statute facts of issue 45 add to an ingest's compute: seconds to read the preambles
(``graph.enabling.enabling_rows``) and the definitions (``graph.terms.term_rows``) beside the seconds
of the steps every ingest had before them (parsing, citation extraction), in one process, one worker;
CPU seconds of the process (``time.process_time``), as the host is shared.

Compute only: no Neo4j, so the writes of the edges and Term nodes are not in it (the goal of issue 45
is about the whole ingest, which this does not time). Writes ingest-delta.json:

    .venv/bin/python eval/facts/ingest_delta.py            # the 58 default codes
    .venv/bin/python eval/facts/ingest_delta.py --all      # all 6,821 laws (several minutes)
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path

from legalkg import codes, paths
from legalkg.cite import KnownUnits, LawRegistry, statute_edges
from legalkg.graph.enabling import enabling_rows
from legalkg.graph.extraction import parsed_unit_ids
from legalkg.graph.terms import term_rows
from legalkg.parse import ParseError, iter_laws

HERE = Path(__file__).resolve().parent
OUT = HERE / "ingest-delta.json"


def measure(all_laws: bool) -> dict:
    registry = LawRegistry.default()
    started = time.process_time()
    source = paths.gii_all_archive() if all_laws else None
    wanted = None if all_laws else codes.resolve_codes("default")
    laws = [law for _, law in iter_laws(source, wanted, workers=1) if not isinstance(law, ParseError)]
    parse_s = time.process_time() - started
    ids, repealed = parsed_unit_ids(laws)
    known = KnownUnits(ids)
    t = time.process_time()
    cites = sum(len(statute_edges(law, registry, known, repealed)[0]) for law in laws)
    cites_s = time.process_time() - t
    t = time.process_time()
    edges = sum(len(enabling_rows(law, registry, known, repealed)[0]) for law in laws)
    enabling_s = time.process_time() - t
    t = time.process_time()
    terms = sum(len(term_rows(law)[0]) for law in laws)
    terms_s = time.process_time() - t
    before = parse_s + cites_s
    return {"laws": len(laws), "citation_edges": cites, "authorized_by_edges": edges, "definitions": terms,
            "cpu_seconds": {"parse": round(parse_s, 1), "citations": round(cites_s, 1),
                        "enabling": round(enabling_s, 2), "definitions": round(terms_s, 2)},
            "facts_over_parse_and_citations": round((enabling_s + terms_s) / before, 4)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--all", action="store_true", help="all laws of the archive instead of the 58 codes")
    args = ap.parse_args()
    result = json.loads(OUT.read_text("utf-8")) if OUT.exists() else {}
    result["all_laws" if args.all else "default_codes"] = measure(args.all)
    result["machine"] = f"{platform.machine()}, {platform.python_version()}, one worker, shared 2-core host"
    OUT.write_text(json.dumps(result, indent=1) + "\n", "utf-8")
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
