"""The broken-reference report (``legalkg references --broken``) over all 6,821 laws of the shared all-laws
archive, counted as counts-5.json counts it over the 58 default codes: rows by status and the references
left out as likely parser gaps, by reason. Not judged (the judged samples draw from the 58 codes).
Writes broken-all.json:

    .venv/bin/python eval/facts/broken_all.py [--workers 2]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import time
from collections import Counter
from pathlib import Path

from legalkg import paths
from legalkg.cite import LawRegistry
from legalkg.cite.broken import broken_references
from legalkg.parse import ParseError, iter_laws

HERE = Path(__file__).resolve().parent
OUT = HERE / "broken-all.json"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=2, help="parser processes")
    args = ap.parse_args()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=HERE).stdout.strip()
    started = time.perf_counter()
    laws = [law for _, law in iter_laws(paths.gii_all_archive(), None, workers=args.workers)
            if not isinstance(law, ParseError)]
    parsed = time.perf_counter()
    gaps: Counter = Counter()
    rows = list(broken_references(laws, LawRegistry.default(), gaps=gaps))
    out = {"command": f"python eval/facts/broken_all.py --workers {args.workers}", "commit": commit,
           "laws": len(laws), "rows": len(rows), "by_status": dict(Counter(r.status for r in rows)),
           "citing_laws": len({r.source.split("/", 1)[0] for r in rows}),
           "left_out_as_parser_gaps": dict(sorted(gaps.items())), "left_out": sum(gaps.values()),
           "seconds": {"parse": round(parsed - started, 1), "report": round(time.perf_counter() - parsed, 1)}}
    OUT.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", "utf-8")
    print(json.dumps(out, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
