"""Write legalkg/data/gii_names.tsv.gz: slug, jurabk, amtabk, short title and long title of every law
in the all-laws archive, read from each file's header norm.

Why from the XML and not from MANIFEST.tsv: the manifest has no short title (``<kurzue>``), and the
short title is how statutes name each other in words ("des Bundes-Immissionsschutzgesetzes", whose long
title is "Gesetz zum Schutz vor schädlichen Umwelteinwirkungen ..."); ``--codes`` needs the slug of a
law named by its abbreviation ("BKatV" is the file ``bkatv_2013.xml``). Rebuild when gii is refreshed:

    .venv/bin/python scripts/build_law_names.py [--archive PATH]

The output is byte-stable (gzip without a timestamp, rows in archive order). Several ``<jurabk>`` of
one law are joined by `` | `` as in the manifest.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import io
import tarfile
from pathlib import Path

from lxml import etree

from legalkg import paths
from legalkg.parse.xmltext import flat_text, norm_ws

OUT = Path(__file__).resolve().parents[1] / "legalkg" / "data" / "gii_names.tsv.gz"
FIELDS = ("slug", "jurabk", "amtabk", "kurzue", "title")
_PARSER = etree.XMLParser(load_dtd=False, no_network=True, resolve_entities=False, huge_tree=True)


def header_row(slug: str, data: bytes) -> list[str]:
    """The names of one gii file's header norm, in ``FIELDS`` order."""
    root = etree.fromstring(data, _PARSER)
    head = root.find("norm/metadaten")
    if head is None:
        return [slug, "", "", "", ""]
    jurabk = " | ".join(norm_ws(j.text or "") for j in head.findall("jurabk") if (j.text or "").strip())

    def text(tag: str) -> str:
        el = head.find(tag)
        return flat_text(el) if el is not None else ""

    return [slug, jurabk, norm_ws(head.findtext("amtabk") or ""), text("kurzue"), text("langue")]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--archive", type=Path, default=None, help="gii-all.tar.xz (default: the shared one)")
    archive = ap.parse_args().archive or paths.gii_all_archive()
    if not archive.is_file():
        raise SystemExit(f"no all-laws archive at {archive}: pass --archive PATH")
    buf = io.StringIO()
    w = csv.writer(buf, delimiter="\t", lineterminator="\n")
    w.writerow(FIELDS)
    n = 0
    with tarfile.open(archive, "r:*") as tf:
        for member in tf:
            if member.isfile() and member.name.endswith(".xml"):
                fh = tf.extractfile(member)
                if fh is not None:
                    w.writerow(header_row(Path(member.name).stem, fh.read()))
                    n += 1
    OUT.write_bytes(gzip.compress(buf.getvalue().encode("utf-8"), compresslevel=9, mtime=0))
    print(f"{OUT}: {n:,} laws, {OUT.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
