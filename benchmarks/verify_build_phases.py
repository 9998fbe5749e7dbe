"""CPU seconds of the graph-free phases of ``verify`` on one text: the grammar's matches (``extract``),
the ids to look up (``lookup_ids``) and the records (``build_records``), as ``Verifier.verify`` runs them
on a long text (under ``gcpolicy.relaxed``). No Neo4j: the units are one row, § 1 BGB.

Usage: .venv/bin/python benchmarks/verify_build_phases.py [--kind chain] [--size 1000000]

Run it from a checkout of each side to compare two commits on the same text (the line it prints names
the checkout it imported).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import legalkg  # noqa: E402
from legalkg.cite import extract  # noqa: E402
from legalkg.gcpolicy import relaxed  # noqa: E402
from legalkg.verify.records import build_records  # noqa: E402
from legalkg.verify.status import UnitRow, lookup_ids  # noqa: E402

sys.path.insert(0, str(ROOT / "benchmarks"))
from verify_scaling import make_text  # noqa: E402

UNITS = {"BGB/§1": UnitRow(id="BGB/§1", citation="§ 1 BGB", level="Paragraph",
                           text="Die Rechtsfähigkeit des Menschen beginnt mit der Vollendung der Geburt.")}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--kind", default="chain")
    ap.add_argument("--size", type=int, default=1_000_000)
    args = ap.parse_args()
    text = make_text(args.kind, args.size)
    with relaxed():
        clock = time.process_time()
        matches = extract(text)
        extract_s, clock = time.process_time() - clock, time.process_time()
        lookup_ids(matches)
        lookup_s, clock = time.process_time() - clock, time.process_time()
        build_records(text, matches, UNITS, {"BGB"})
        build_s = time.process_time() - clock
    print(f"{Path(legalkg.__file__).parents[1]} {args.kind} {len(text)} matches {len(matches)} "
          f"extract {extract_s:.2f} lookup_ids {lookup_s:.2f} build {build_s:.2f}", flush=True)


if __name__ == "__main__":
    main()
