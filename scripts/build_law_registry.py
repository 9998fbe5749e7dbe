"""Write legalkg/data/gii_laws.tsv.gz: jurabk, amtabk and title of every law of gii's MANIFEST.tsv.

Why a packaged copy: the citation registry resolves all 6,821 laws by abbreviation and title only
with the manifest, which lives in the shared data folder, not in the package. With this file (about
200 KB, gzip) a checkout without the shared data resolves the same laws. Rebuild it when the gii data
is refreshed:

    .venv/bin/python scripts/build_law_registry.py [--manifest PATH]

The output is byte-stable (gzip without a timestamp, rows in manifest order).
"""

from __future__ import annotations

import argparse
import csv
import gzip
import io
from pathlib import Path

from legalkg import paths

OUT = Path(__file__).resolve().parents[1] / "legalkg" / "data" / "gii_laws.tsv.gz"
FIELDS = ("jurabk", "amtabk", "title")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--manifest", type=Path, default=None, help="gii MANIFEST.tsv (default: the shared one)")
    manifest = ap.parse_args().manifest or paths.gii_manifest()
    if manifest is None or not manifest.is_file():
        raise SystemExit("no gii MANIFEST.tsv found: pass --manifest PATH")
    with manifest.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    buf = io.StringIO()
    w = csv.writer(buf, delimiter="\t", lineterminator="\n")
    w.writerow(FIELDS)
    for r in rows:
        w.writerow([(r.get(f) or "").strip() for f in FIELDS])
    OUT.write_bytes(gzip.compress(buf.getvalue().encode("utf-8"), compresslevel=9, mtime=0))
    print(f"{OUT}: {len(rows):,} laws, {OUT.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
