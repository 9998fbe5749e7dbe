"""Latency of `legalkg search`'s default (learned) mode with its models loaded, beside fulltext, vector and fusion.

What is timed: one ``Retriever.search(question, level="§", k=5, mode=...)`` call per question and
mode, as `legalkg search` makes it, on one Retriever whose models are loaded and warmed first (the
predictor's file and its bridge texts from the graph are read once per process, not per search).
The modes of one question run back to back, their order rotating question by question, so a slow
minute of this shared machine hits every mode alike. The graph is whatever ``NEO4J_URI`` points at
(the 58 default codes, or all laws); a level without vectors leaves the vector mode out and the
learned mode without its vector run, which the output states. The row ``learned, no ranker`` is the
learned mode with the same shipped predictor but without the shipped ranker (a second Retriever), in
the same rotation: what the ranker costs per search.

    NEO4J_PASSWORD=... .venv/bin/python benchmarks/search_latency.py --out eval/search-latency/codes58

``--against DIR`` compares the learned mode of two code versions side by side in one run: DIR is a
source tree of another commit (``git archive REF | tar -x -C DIR``). Each version runs in its own
worker process (this script with ``--worker``, ``PYTHONPATH`` set to its tree) holding one warmed
Retriever; the two answer every question in turn, which one goes first alternating, so both see the
same load. The table gives each version's p50 and the median of the per-question differences.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from legalkg.errors import UserError
from legalkg.eval.datasets import load_dataset
from legalkg.graph.config import load_config
from legalkg.graph.connection import open_driver
from legalkg.graph.inspect import label_counts
from legalkg.retrieve import Retriever
from legalkg.vocab import Mode, RetrievalLevel, Task

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # research/ is not installed
from research.machine import calibration_ms, cpu_model, cpu_times, steal_text  # noqa: E402
from research.results import percentile_ci, write_results  # noqa: E402

LEVEL = RetrievalLevel.PARAGRAPH
K = 5
#: The row of the learned mode with the shipped predictors but no ranker (``Retriever(rankers=...)``).
NO_RANKER = "learned, no ranker"


def worker() -> None:
    """``--worker``: one warmed Retriever of the legalkg on PYTHONPATH; a JSON line with a question
    in, the milliseconds of its default search out, until stdin closes."""
    cfg = load_config()
    driver = open_driver(cfg)
    retriever = Retriever(driver, cfg.database)
    for line in sys.stdin:
        text = json.loads(line)["text"]
        t0 = time.perf_counter()
        retriever.search(text, level=LEVEL, k=K, mode=Mode.LEARNED)
        print(json.dumps({"ms": (time.perf_counter() - t0) * 1000}), flush=True)
    driver.close()


def compare(args: argparse.Namespace) -> None:
    """``--against DIR``: the learned mode of this tree and of DIR, question by question."""
    here = Path(__file__).resolve().parents[1]
    mine, theirs = (args.names.split(",", 1) + ["", ""])[:2] if args.names else ("", "")
    trees = {mine or "this checkout": here, theirs or str(args.against): args.against.resolve()}
    procs = {name: subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--worker"],
                                    env={**os.environ, "PYTHONPATH": str(tree)}, cwd=tree, text=True,
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE)
             for name, tree in trees.items()}

    def ask(name: str, text: str) -> float:
        proc = procs[name]
        proc.stdin.write(json.dumps({"text": text}) + "\n")
        proc.stdin.flush()
        reply = proc.stdout.readline()
        if not reply:
            raise SystemExit(f"error: the worker for {name} stopped (see its error above)")
        return json.loads(reply)["ms"]

    texts = [c.query for c in load_dataset("gerlayqa")[: args.questions + args.warmup]]
    names = list(trees)
    started = time.perf_counter()
    for text in texts[: args.warmup]:
        for name in names:
            ask(name, text)
    load_s = time.perf_counter() - started
    calib, cpu0, load0 = calibration_ms(), cpu_times(), os.getloadavg()[0]
    timings: dict[str, list[float]] = {name: [] for name in names}
    for i, text in enumerate(texts[args.warmup:]):
        for name in (names if i % 2 == 0 else names[::-1]):
            timings[name].append(ask(name, text))
    load1 = os.getloadavg()[0]
    for proc in procs.values():
        proc.stdin.close()
        proc.wait(timeout=60)
    a, b = (np.asarray(timings[n]) for n in names)
    diff = np.median(a - b)
    rng = np.random.default_rng(0)
    idx = rng.integers(0, len(a), size=(1000, len(a)))
    lo, hi = np.percentile(np.median(a[idx] - b[idx], axis=1), [2.5, 97.5])
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [f"# `legalkg search` latency, learned mode, level §, k {K}: two code versions side by side", "",
             f"- date: {when}; command: `.venv/bin/python benchmarks/search_latency.py --questions "
             f"{args.questions} --against {args.against} --out {args.out}"
             + (f" --names '{args.names}'" if args.names else "") + "`",
             f"- graph: {args.label or load_config().uri}",
             f"- machine: {cpu_model()}; 1-min load {load0:.1f} at start, {load1:.1f} at the end; "
             f"CPU steal {steal_text(cpu0)}; calibration loop {calib:.1f} ms",
             f"- questions: GerLayQA dev {args.warmup + 1}..{args.warmup + args.questions} (the first "
             f"{args.warmup} warm both workers up, {load_s:.1f} s with the model loads); the two versions "
             "answer each question in turn, the first alternating", "",
             "| code | p50 ms [95 % CI] | p90 ms [95 % CI] | p95 ms [95 % CI] | mean ms |", "|---|---:|---:|---:|---:|"]
    rows = []
    for name in names:
        arr = np.asarray(timings[name])
        p50, lo50, hi50 = percentile_ci(arr, 50)
        p90, lo90, hi90 = percentile_ci(arr, 90)
        p95, lo95, hi95 = percentile_ci(arr, 95)
        rows.append({"code": name, "n": len(arr), "p50_ms": round(p50, 2), "p50_ci_low": round(lo50, 2),
                     "p50_ci_high": round(hi50, 2), "p90_ms": round(p90, 2), "p95_ms": round(p95, 2),
                     "mean_ms": round(float(arr.mean()), 2)})
        lines.append(f"| {name} | {p50:.1f} [{lo50:.1f}, {hi50:.1f}] | {p90:.1f} [{lo90:.1f}, {hi90:.1f}] | "
                     f"{p95:.1f} [{lo95:.1f}, {hi95:.1f}] | {arr.mean():.1f} |")
    lines += ["", f"Median of the per-question differences ({names[0]} minus {names[1]}): "
                  f"{diff:+.1f} ms [{lo:+.1f}, {hi:+.1f}]."]
    write_results(args.out, rows, lines, {
        "date": when, "against": str(args.against), "questions": args.questions, "warmup": args.warmup,
        "calibration_ms": calib, "loadavg": [load0, load1], "rows": rows, "median_diff_ms": float(diff),
        "median_diff_ci": [float(lo), float(hi)], "timings_ms": timings})
    print("\n".join(lines))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--questions", type=int, default=200, help="first N GerLayQA dev questions")
    ap.add_argument("--warmup", type=int, default=10, help="questions searched before timing")
    ap.add_argument("--out", type=Path, help="folder for results.csv, results.md, run.json")
    ap.add_argument("--label", default="", help="what the graph holds, for the table (e.g. '58 default codes')")
    ap.add_argument("--against", type=Path, default=None,
                    help="a source tree of another commit: time the learned mode of both side by side")
    ap.add_argument("--names", default=None, help="with --against: the two rows' names, this tree's first "
                                                  "(e.g. 'c0cb824,706a086')")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        return worker()
    if args.out is None:
        ap.error("--out is required")
    if args.against is not None:
        return compare(args)

    cfg = load_config()
    driver = open_driver(cfg)
    try:
        counts = label_counts(driver, cfg.database)
        retriever = Retriever(driver, cfg.database)
        # the shipped predictors without their rankers: what the ranker costs, in the same rotation
        plain = Retriever(driver, cfg.database, rankers={task: None for task in Task})
        has_vectors = retriever.graph.index_model(LEVEL) is not None
        modes = [Mode.LEARNED, Mode.FULLTEXT] + ([Mode.VECTOR, Mode.FUSION] if has_vectors else [])
        runs = [(str(m), retriever, m) for m in modes] + [(NO_RANKER, plain, Mode.LEARNED)]
        texts = [c.query for c in load_dataset("gerlayqa")[: args.questions + args.warmup]]
        started = time.perf_counter()
        for _, engine, mode in runs:  # loads the predictor, its bridge texts and the embedder once
            engine.search(texts[0], level=LEVEL, k=K, mode=mode)
        load_s = time.perf_counter() - started
        shipped_ranker = retriever.models.ranker(Task.LAY) is not None  # the questions are lay ones
        for text in texts[1: args.warmup]:
            for _, engine, mode in runs:
                engine.search(text, level=LEVEL, k=K, mode=mode)
        calib = calibration_ms()
        cpu0 = cpu_times()
        load0 = os.getloadavg()[0]
        timings: dict[str, list[float]] = {name: [] for name, _, _ in runs}
        for i, text in enumerate(texts[args.warmup:]):
            for j in range(len(runs)):
                name, engine, mode = runs[(i + j) % len(runs)]
                t0 = time.perf_counter()
                engine.search(text, level=LEVEL, k=K, mode=mode)
                timings[name].append((time.perf_counter() - t0) * 1000)
        load1 = os.getloadavg()[0]
    except UserError as err:
        raise SystemExit(f"error: {err}") from None
    finally:
        driver.close()

    rows = []
    for mode, ms in timings.items():
        arr = np.asarray(ms)
        p50, lo50, hi50 = percentile_ci(arr, 50)
        p90, lo90, hi90 = percentile_ci(arr, 90)
        p95, lo95, hi95 = percentile_ci(arr, 95)  # issue 27's goal over all laws is a p95
        rows.append({"mode": str(mode), "n": len(arr), "p50_ms": round(p50, 2), "p50_ci_low": round(lo50, 2),
                     "p50_ci_high": round(hi50, 2), "p90_ms": round(p90, 2), "p90_ci_low": round(lo90, 2),
                     "p90_ci_high": round(hi90, 2), "p95_ms": round(p95, 2), "p95_ci_low": round(lo95, 2),
                     "p95_ci_high": round(hi95, 2), "mean_ms": round(float(arr.mean()), 2)})
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    units = counts.get("Paragraph", 0)
    learned_p50 = next(r["p50_ms"] for r in rows if r["mode"] == Mode.LEARNED)
    lines = [f"# `legalkg search` latency, level §, k {K} ({args.label or 'graph at ' + cfg.uri})", "",
             f"- date: {when}; command: `.venv/bin/python benchmarks/search_latency.py --questions "
             f"{args.questions} --out {args.out}" + (f" --label '{args.label}'" if args.label else "") + "`",
             f"- graph: {counts.get('Gesetz', 0):,} laws, {units:,} §§; § vectors: "
             f"{'yes' if has_vectors else 'none (vector and fusion modes and the learned vector run left out)'}",
             f"- learned: the shipped lay predictor {'with' if shipped_ranker else 'and no'} its shipped ranker; "
             f"'{NO_RANKER}': the same predictor on a second Retriever without the ranker, in the same rotation",
             f"- machine: {cpu_model()}; 1-min load {load0:.1f} at start, {load1:.1f} at the end; "
             f"CPU steal {steal_text(cpu0)}; calibration loop {calib:.1f} ms",
             f"- questions: GerLayQA dev {args.warmup + 1}..{args.warmup + args.questions} "
             f"(the first {args.warmup} warm up); model load and bridge texts: {load_s:.1f} s once", "",
             "| mode | p50 ms [95 % CI] | p90 ms [95 % CI] | p95 ms [95 % CI] | mean ms | ratio of p50 to fulltext |",
             "|---|---:|---:|---:|---:|---:|"]
    ft = next(r["p50_ms"] for r in rows if r["mode"] == Mode.FULLTEXT)
    for r in rows:
        lines.append(f"| {r['mode']} | {r['p50_ms']:.1f} [{r['p50_ci_low']:.1f}, {r['p50_ci_high']:.1f}] | "
                     f"{r['p90_ms']:.1f} [{r['p90_ci_low']:.1f}, {r['p90_ci_high']:.1f}] | "
                     f"{r['p95_ms']:.1f} [{r['p95_ci_low']:.1f}, {r['p95_ci_high']:.1f}] | {r['mean_ms']:.1f} | "
                     f"{r['p50_ms'] / ft:.2f} |")
    lines += ["", f"learned (the default) p50: {learned_p50:.1f} ms."]
    write_results(args.out, rows, lines, {
        "date": when, "uri": cfg.uri, "label": args.label, "labels": counts, "has_vectors": has_vectors,
        "questions": args.questions, "warmup": args.warmup, "load_s": load_s, "calibration_ms": calib,
        "loadavg": [load0, load1], "rows": rows, "shipped_ranker": shipped_ranker})
    print("\n".join(lines))


if __name__ == "__main__":
    main()
