"""How long does ``verify`` take on a brief of 50,000 characters with 200 citations, server warm?

Usage: NEO4J_URI=... NEO4J_PASSWORD=... .venv/bin/python benchmarks/verify_speed.py [--repeats N]

The brief: sentences (lines) of ``ler_courts`` dev in source order, first those whose citations
are all ``ok`` until ``verify`` reports 200 records (every one resolved, so every one gets a
support score: the costly case), then sentences without any until 50,000 characters. The
library call (``Verifier.verify``, one Verifier reused, so the embedding model is loaded once) is
timed warm, after one untimed call, in three settings interleaved per repeat: the full support
score, lexical only (``vectors=False``), and status only (``support=False``). Then the whole
``legalkg verify FILE --json`` command, a fresh process each time (imports, model load and
connection included).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from verify_data import connect, load_docs

from legalkg.cite import extract
from legalkg.verify import Status, Verifier

TARGET_CHARS = 50_000
TARGET_CITATIONS = 200


def brief(verifier: Verifier) -> str:
    cited: list[str] = []
    plain: list[str] = []
    n = 0
    for d in load_docs("ler_courts"):
        for line in d["text"].split("\n"):
            if extract(line, registry=verifier.registry):
                if n < TARGET_CITATIONS:
                    recs = verifier.verify(line, support=False).records
                    k = len(recs)
                    if n + k <= TARGET_CITATIONS and all(r.status is Status.OK for r in recs):
                        cited.append(line)
                        n += k
            elif "§" not in line and len(line) > 40:
                plain.append(line)
        if n >= TARGET_CITATIONS and sum(map(len, cited + plain)) > TARGET_CHARS:
            break
    out = list(cited)
    for line in plain:
        if sum(map(len, out)) + len(out) >= TARGET_CHARS:
            break
        out.append(line)
    return "\n".join(out)[:TARGET_CHARS]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--cli-repeats", type=int, default=3)
    args = ap.parse_args()
    driver, db = connect()
    full = Verifier(driver, db)
    lexical = Verifier(driver, db, vectors=False)
    text = brief(full)
    report = full.verify(text)
    lexical.verify(text)
    print(f"brief: {len(text):,} characters, {len(report.records)} records "
          f"({report.counts()})")
    times: dict[str, list[float]] = {"full support": [], "lexical support": [], "status only": []}
    for _ in range(args.repeats):
        for name, call in (("full support", lambda: full.verify(text)),
                           ("lexical support", lambda: lexical.verify(text)),
                           ("status only", lambda: full.verify(text, support=False))):
            t0 = time.perf_counter()
            call()
            times[name].append(time.perf_counter() - t0)
    print("\n| setting | median s | min s | max s | repeats |\n|---|---|---|---|---|")
    for name, ts in times.items():
        print(f"| Verifier.verify, {name} | {statistics.median(ts):.3f} | {min(ts):.3f} | {max(ts):.3f} | {len(ts)} |")
    exe = str(Path(sys.executable).with_name("legalkg"))
    with tempfile.NamedTemporaryFile("w", suffix=".txt", encoding="utf-8", delete=False) as f:
        f.write(text)
    cli: dict[str, list[float]] = {"": [], "--no-vectors": []}
    for _ in range(args.cli_repeats):
        for flag in cli:
            t0 = time.perf_counter()
            proc = subprocess.run([exe, "verify", f.name, "--json", *([flag] if flag else [])],
                                  capture_output=True, text=True)
            cli[flag].append(time.perf_counter() - t0)
            assert proc.returncode in (0, 1), proc.stderr
    for flag, ts in cli.items():
        print(f"| legalkg verify FILE --json {flag} (fresh process) | {statistics.median(ts):.3f} | {min(ts):.3f} | "
              f"{max(ts):.3f} | {len(ts)} |")
    Path(f.name).unlink()
    driver.close()


if __name__ == "__main__":
    main()
