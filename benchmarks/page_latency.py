"""Latency of the pages of `legalkg serve --http` with the model loaded, as a browser's request sees it.

What is timed: one HTTP GET per page and question, from request to the last byte of the HTML, sent
by this script to a `legalkg serve --http` process it starts on a free port over the graph that
``NEO4J_URI`` points at (uvicorn, the routes, the tools, the templates; no browser rendering):

- ``ask``: ``/?q=<question>`` (the default learned engine, level §, k 5);
- ``unit``: ``/unit/<id>`` of the previous question's top § hit (text, breadcrumbs, children, cites,
  cited_by per law, the drawing's elements);
- ``cite``: ``/?cite=<that unit's citation>`` (resolve the citation, answer with the redirect);
- ``check``: ``/check?text=<the question with the previous question's top three citations written
  into it>``;
- ``context``: ``/context?q=<question>&budget=1000``.

The reference in the same run: each page's tool calls through the JSON API of the same server
(``POST /search``; ``/get_unit`` + ``/related``; ``/get_unit`` by citation; ``/verify``;
``/context``), so "page minus API" is what the pages themselves add (routing, templates, escaping)
and the rest is the tools' own time. The questions are GerLayQA dev; the first ``--warmup`` load
the models and warm the caches. The requests of one question run back to back, their order rotating
question by question, so a slow minute of this shared machine hits every page alike.

    NEO4J_PASSWORD=... .venv/bin/python benchmarks/page_latency.py --out eval/page-latency/bgb-zpo --label "BGB + ZPO"
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlencode

import numpy as np

from legalkg.eval.datasets import load_dataset
from legalkg.graph.config import load_config
from legalkg.graph.connection import open_driver
from legalkg.graph.inspect import label_counts
from legalkg.server.process import free_port

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # research/ is not installed
from research.machine import calibration_ms, cpu_model, cpu_times, steal_text  # noqa: E402
from research.results import percentile_ci, write_results  # noqa: E402

PAGES = ("ask", "unit", "cite", "check", "context")
GOAL_MS = 300.0
HIT = re.compile(r'<h3><a href="(/unit/[^"]+)">([^<]+)</a>')


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


OPENER = urllib.request.build_opener(NoRedirect)


def get(url: str, body: dict | None = None) -> tuple[int, str, float]:
    """(status, body, milliseconds) of one GET, or of a JSON POST when ``body`` is given; a redirect
    is answered, not followed."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data, {"Content-Type": "application/json"} if data else {})
    t0 = time.perf_counter()
    try:
        with OPENER.open(request, timeout=120) as resp:
            body, status = resp.read().decode("utf-8"), resp.status
    except urllib.error.HTTPError as err:
        body, status = err.read().decode("utf-8", "replace"), err.code
    return status, body, (time.perf_counter() - t0) * 1000


def start_server(legalkg: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    proc = subprocess.Popen([legalkg, "serve", "--http", "--port", str(port)], stdout=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:
        try:
            urllib.request.urlopen(base + "/tools", timeout=2).close()
            return proc, base
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("error: legalkg serve --http did not come up (see its error above)") from None
            time.sleep(0.3)


def requests_of(base: str, question: str, hits: list[tuple[str, str]]) -> dict[str, list[tuple[str, dict | None]]]:
    """Per page: its URL, and (key ``<page>-api``) the JSON API calls of the same tools. The unit,
    cite and check pages take ``hits``, the (href, citation) pairs of the previous question's ask
    page, so no untimed request warms anything for the question timed."""
    uid = urllib.request.unquote(hits[0][0].removeprefix("/unit/"))
    citation = html.unescape(hits[0][1])
    text = question + " Siehe " + ", ".join(html.unescape(c) for _, c in hits[:3]) + "."
    return {"ask": [(f"{base}/?{urlencode({'q': question, 'k': 5})}", None)],
            "ask-api": [(f"{base}/search", {"query": question, "k": 5})],
            "unit": [(base + hits[0][0], None)],
            "unit-api": [(f"{base}/get_unit", {"id": uid}), (f"{base}/related", {"id": uid})],
            "cite": [(f"{base}/?{urlencode({'cite': citation})}", None)],
            "cite-api": [(f"{base}/get_unit", {"citation": citation})],
            "check": [(f"{base}/check?{urlencode({'text': text})}", None)],
            "check-api": [(f"{base}/verify", {"text": text})],
            "context": [(f"{base}/context?{urlencode({'q': question, 'budget': 1000})}", None)],
            "context-api": [(f"{base}/context", {"query": question, "budget": 1000})]}


def timed(calls: list[tuple[str, dict | None]], name: str) -> tuple[float, str]:
    """Milliseconds of the calls together, and the first one's body."""
    total, first = 0.0, None
    for url, body in calls:
        status, text, ms = get(url, body)
        if status not in (200, 303):
            raise SystemExit(f"error: {name} answered {status} for {url[:120]}")
        total += ms
        first = text if first is None else first
    return total, first or ""


def ask_hits(base: str, question: str, body: str | None = None) -> list[tuple[str, str]]:
    hits = HIT.findall(body if body is not None else get(f"{base}/?{urlencode({'q': question, 'k': 5})}")[1])
    if not hits:
        raise SystemExit(f"error: the ask page found no unit for {question[:60]!r}")
    return hits


def measure(base: str, texts: list[str], warmup: int) -> tuple[dict[str, list[float]], float]:
    """Milliseconds per page and per API reference over the questions after the warm-up, and the
    warm-up's seconds. Per question the pages come in rotating order, and each page and its API
    reference swap places question by question."""
    started = time.perf_counter()
    hits = ask_hits(base, texts[0])
    for text in texts[1:warmup]:
        for name, calls in requests_of(base, text, hits).items():
            timed(calls, name)
        hits = ask_hits(base, text)
    load_s = time.perf_counter() - started
    timings: dict[str, list[float]] = {name: [] for page in PAGES for name in (page, page + "-api")}
    for i, text in enumerate(texts[warmup:]):
        calls = requests_of(base, text, hits)
        for j in range(len(PAGES)):
            page = PAGES[(i + j) % len(PAGES)]
            for name in ((page, page + "-api") if i % 2 == 0 else (page + "-api", page)):
                ms, body = timed(calls[name], name)
                timings[name].append(ms)
                if name == "ask":
                    next_hits = ask_hits(base, text, body)
        hits = next_hits
    return timings, load_s


def table(timings: dict[str, list[float]]) -> list[dict]:
    """One row per page: its percentiles, the same tools' percentiles over the API, and the median
    of the per-question differences (page minus API)."""
    rows = []
    for page in PAGES:
        arr, api = np.asarray(timings[page]), np.asarray(timings[page + "-api"])
        p50, lo50, hi50 = percentile_ci(arr, 50)
        p95, lo95, hi95 = percentile_ci(arr, 95)
        rows.append({"page": page, "n": len(arr), "p50_ms": round(p50, 1), "p50_ci_low": round(lo50, 1),
                     "p50_ci_high": round(hi50, 1), "p95_ms": round(p95, 1), "p95_ci_low": round(lo95, 1),
                     "p95_ci_high": round(hi95, 1), "max_ms": round(float(arr.max()), 1),
                     "api_p50_ms": round(float(np.percentile(api, 50)), 1),
                     "api_p95_ms": round(float(np.percentile(api, 95)), 1),
                     "page_minus_api_median_ms": round(float(np.median(arr - api)), 1), "goal_met": p95 <= GOAL_MS})
    return rows


def write(args: argparse.Namespace, rows: list[dict], info: dict) -> list[str]:
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    counts = info["labels"]
    lines = [f"# `legalkg serve --http` page latency ({args.label or 'graph at ' + info['uri']})", "",
             f"- date: {when}; command: `.venv/bin/python benchmarks/page_latency.py --questions "
             f"{args.questions} --out {args.out}" + (f" --label '{args.label}'" if args.label else "") + "`",
             f"- graph: {counts.get('Gesetz', 0):,} laws, {counts.get('Paragraph', 0):,} §§",
             f"- machine: {cpu_model()}; 1-min load {info['load'][0]:.1f} at start, {info['load'][1]:.1f} at "
             f"the end; CPU steal {info['steal']}; calibration loop {info['calibration_ms']:.1f} ms",
             f"- questions: GerLayQA dev {args.warmup + 1}..{args.warmup + args.questions} (the first "
             f"{args.warmup} warm up, {info['load_s']:.1f} s with the model loads); goal: p95 ≤ {GOAL_MS:.0f} ms",
             "", "| page | n | p50 ms [95 % CI] | p95 ms [95 % CI] | max ms | API p50 / p95 ms | "
             "page − API, median ms | p95 ≤ 300 ms |", "|---|---:|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        lines.append(f"| {r['page']} | {r['n']} | {r['p50_ms']:.1f} [{r['p50_ci_low']:.1f}, {r['p50_ci_high']:.1f}] | "
                     f"{r['p95_ms']:.1f} [{r['p95_ci_low']:.1f}, {r['p95_ci_high']:.1f}] | {r['max_ms']:.1f} | "
                     f"{r['api_p50_ms']:.1f} / {r['api_p95_ms']:.1f} | {r['page_minus_api_median_ms']:+.1f} | "
                     f"{'yes' if r['goal_met'] else 'no'} |")
    write_results(args.out, rows, lines, {"date": when, "label": args.label, **info, "rows": rows})
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--questions", type=int, default=100, help="GerLayQA dev questions timed after the warm-up")
    ap.add_argument("--warmup", type=int, default=5, help="questions whose pages are fetched before timing")
    ap.add_argument("--out", type=Path, required=True, help="folder for results.csv, results.md, run.json")
    ap.add_argument("--label", default="", help="what the graph holds, for the table (e.g. 'BGB + ZPO')")
    args = ap.parse_args()
    cfg = load_config()
    driver = open_driver(cfg)
    try:
        counts = label_counts(driver, cfg.database)
    finally:
        driver.close()
    texts = [c.query for c in load_dataset("gerlayqa")[: args.questions + args.warmup]]
    proc, base = start_server(str(Path(sys.executable).with_name("legalkg")))
    try:
        calib, cpu0, load0 = calibration_ms(), cpu_times(), os.getloadavg()[0]
        timings, load_s = measure(base, texts, args.warmup)
        info = {"uri": cfg.uri, "labels": counts, "load_s": load_s, "calibration_ms": calib,
                "load": [load0, os.getloadavg()[0]], "steal": steal_text(cpu0), "timings_ms": timings}
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    print("\n".join(write(args, table(timings), info)))


if __name__ == "__main__":
    main()
