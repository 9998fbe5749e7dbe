"""Benchmark the parser on all gii laws (gii-all.tar.xz) and on the 58 default codes.

Measures wall time, peak memory (resource.getrusage, this process and its worker processes),
nodes per level and failures, and compares with a naive peer in the same run: a plain lxml
full-tree parse + itertext of every file (the floor cost of reading the same XML).

    .venv/bin/python benchmarks/parse_all.py --workers 2 [--out docs/benchmarks/parse-runs.md]
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import resource
import sys
import tarfile
import time
from pathlib import Path

from lxml import etree

from legalkg import codes, paths
from legalkg.parse import ParseError, corpus_stats, iter_law_stats

PARSER_KW = dict(load_dtd=False, no_network=True, resolve_entities=False, huge_tree=True)


def peak_mb() -> tuple[float, float]:
    me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return me, kids


def naive_archive(archive: Path) -> tuple[float, int, int]:
    """Peer: read every member, lxml full parse, join all text. Returns (s, files, chars)."""
    t0 = time.perf_counter()
    files = chars = 0
    with tarfile.open(archive, "r:xz") as tf:
        for m in tf:
            if not m.isfile():
                continue
            root = etree.fromstring(tf.extractfile(m).read(), etree.XMLParser(**PARSER_KW))
            chars += len(" ".join(root.itertext()))
            files += 1
    return time.perf_counter() - t0, files, chars


def naive_folder(folder: Path, slugs: list[str]) -> float:
    t0 = time.perf_counter()
    for s in slugs:
        root = etree.fromstring((folder / f"{s}.xml").read_bytes(), etree.XMLParser(**PARSER_KW))
        " ".join(root.itertext())
    return time.perf_counter() - t0


def ours(source, slugs, workers: int) -> tuple[float, object, list[str]]:
    failures: list[str] = []

    def good():
        for slug, law in iter_law_stats(source, slugs, workers=workers):
            if isinstance(law, ParseError):
                failures.append(f"{slug}: {law}")
                continue
            yield law

    t0 = time.perf_counter()
    stats = corpus_stats(good())
    return time.perf_counter() - t0, stats, failures


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, default=None, help="write the markdown report here")
    ap.add_argument("--skip-all", action="store_true", help="only the 58 default codes")
    args = ap.parse_args()
    default = codes.resolve_codes("default")
    lines: list[str] = []
    say = lambda s="": (print(s), lines.append(s))  # noqa: E731

    say(f"- date: {dt.datetime.now().isoformat(timespec='seconds')}")
    say(f"- command: `.venv/bin/python benchmarks/parse_all.py --workers {args.workers}`")
    say(f"- machine: {platform.machine()}, Python {platform.python_version()}, "
        f"workers={args.workers}, 1-min load average at the start {os.getloadavg()[0]:.2f}")
    say()

    t_def, s_def, f_def = ours(paths.gii_dir(), default, args.workers)
    n_def = naive_folder(paths.gii_dir(), default)
    say("## 58 default codes (`gii/` folder)")
    say()
    say("| run | wall s | laws | units | failures |")
    say("| --- | ---: | ---: | ---: | ---: |")
    units = sum(x.nodes for x in s_def.per_level)
    say(f"| legalkg.parse (workers={args.workers}) | {t_def:.1f} | {s_def.laws} | {units:,} | {len(f_def)} |")
    say(f"| naive peer: lxml parse + itertext (1 process) | {n_def:.1f} | {len(default)} | - | 0 |")
    say(f"| ratio ours / naive | {t_def / n_def:.1f}x | | | |")
    say()
    say("| level | nodes | mean words |")
    say("| --- | ---: | ---: |")
    for x in s_def.per_level:
        say(f"| {x.level} | {x.nodes:,} | {x.mean_words} |")
    say()
    if not args.skip_all:
        t_all, s_all, f_all = ours(paths.gii_all_archive(), None, args.workers)
        n_all, files, _ = naive_archive(paths.gii_all_archive())
        me, kids = peak_mb()
        say(f"## All laws (`gii-all.tar.xz`, {s_all.laws + len(f_all):,} files; the issue says 6,877, "
            "the shared snapshot of 2025-03-31 has 6,821)")
        say()
        say("| run | wall s | laws | units | failures |")
        say("| --- | ---: | ---: | ---: | ---: |")
        units = sum(x.nodes for x in s_all.per_level)
        say(f"| legalkg.parse (workers={args.workers}) | {t_all:.1f} | {s_all.laws:,} | {units:,} | {len(f_all)} |")
        say(f"| naive peer: xz read + lxml parse + itertext (1 process) | {n_all:.1f} | {files:,} | - | 0 |")
        say(f"| ratio ours / naive | {t_all / n_all:.1f}x | | | |")
        say()
        say(f"Peak RSS: main process {me:.0f} MB, largest worker {kids:.0f} MB.")
        say()
        say("| level | nodes | mean words |")
        say("| --- | ---: | ---: |")
        for x in s_all.per_level:
            say(f"| {x.level} | {x.nodes:,} | {x.mean_words} |")
        say()
        for f in f_all[:20]:
            say(f"- failure: {f}")
    else:
        me, kids = peak_mb()
        say(f"Peak RSS: main process {me:.0f} MB, largest worker {kids:.0f} MB.")
    if args.out:
        args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
