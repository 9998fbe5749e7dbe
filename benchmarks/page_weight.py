"""Weight and cold time of a unit page of `legalkg serve --http` (issue 43's goals: ≤ 150 KB
compressed, a cold first unit page ≤ 1 s).

What is measured, over the graph that ``NEO4J_URI`` points at:

- ``weight``: headless Chromium (the system ``chromium``, Playwright) opens each unit page as a
  browser does (``Accept-Encoding: gzip``) and sums the bytes that came over the wire for the page
  and everything it loads (``performance`` entries' ``transferSize``, headers included): once as
  loaded (``initial``), once after scrolling to the drawing, which fetches its script then (``full``).
- ``cold``: a fresh server process is started ``--cold`` times; once it answers ``/health`` (its
  warm-up done, as ``legalkg serve`` listens only then), the first GET of the first unit page is
  timed to the last byte (uncompressed, as a script sees it), then the same page again (warm).
  ``start_s`` is the process start to ``/health``.

    NEO4J_PASSWORD=... .venv/bin/python benchmarks/page_weight.py --out eval/page-weight/bgb-zpo
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote

from legalkg.server.process import free_port

LEGALKG = str(Path(sys.executable).with_name("legalkg"))
#: § 573 BGB (the issue's example), its Abs. 2 Satz 1 Nr. 2 (a list item), a much-cited § and a ZPO §
UNITS = ["BGB/§573", "BGB/§573/Abs2/S1/Nr2", "BGB/§242", "ZPO/§574"]
TRANSFERRED = """() => [performance.getEntriesByType('navigation')[0], ...performance.getEntriesByType('resource')]
    .map(e => ({name: e.name, bytes: e.transferSize, body: e.encodedBodySize, raw: e.decodedBodySize}))"""


def start(port: int) -> tuple[subprocess.Popen, float]:
    """A server process on ``port`` and the seconds until it answered ``/health``."""
    began = time.perf_counter()
    proc = subprocess.Popen([LEGALKG, "serve", "--http", "--port", str(port)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2).close()
            return proc, time.perf_counter() - began
        except OSError:
            if proc.poll() is not None or time.perf_counter() - began > 300:
                raise SystemExit("legalkg serve --http did not come up") from None
            time.sleep(0.2)


def fetch_s(url: str) -> float:
    began = time.perf_counter()
    with urllib.request.urlopen(url, timeout=120) as answer:
        answer.read()
    return time.perf_counter() - began


def cold(repeats: int) -> list[dict]:
    rows = []
    for _ in range(repeats):
        port = free_port()
        proc, start_s = start(port)
        try:
            url = f"http://127.0.0.1:{port}/unit/{quote(UNITS[0], safe='/')}"
            first = fetch_s(url)
            rows.append({"start_s": round(start_s, 2), "first_s": round(first, 3), "warm_s": round(fetch_s(url), 3)})
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    return rows


def weights(base: str) -> list[dict]:
    from playwright.sync_api import sync_playwright

    chromium = os.environ.get("LEGALKG_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    rows = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True)
        for uid in UNITS:
            context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="de-DE")
            page = context.new_page()
            page.goto(f"{base}/unit/{quote(uid, safe='/')}", wait_until="load")
            initial = page.evaluate(TRANSFERRED)
            page.locator("#graph").scroll_into_view_if_needed()
            # a selector, not a JavaScript string: the pages' Content-Security-Policy refuses eval
            page.wait_for_selector("#graph[data-nodes]:not([data-nodes='0'])", timeout=30000)
            full = page.evaluate(TRANSFERRED)
            rows.append({"unit": uid, "initial_bytes": sum(e["bytes"] for e in initial),
                         "full_bytes": sum(e["bytes"] for e in full),
                         "html_bytes": initial[0]["body"], "html_raw_bytes": initial[0]["raw"],
                         "files": [{k: e[k] for k in ("name", "bytes")} for e in full]})
            context.close()
        browser.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--cold", type=int, default=3)
    args = parser.parse_args()
    port = free_port()
    proc, _ = start(port)
    try:
        weight = weights(f"http://127.0.0.1:{port}")
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    runs = cold(args.cold)
    summary = {"max_initial_kb": round(max(r["initial_bytes"] for r in weight) / 1000, 1),
               "max_full_kb": round(max(r["full_bytes"] for r in weight) / 1000, 1),
               "cold_first_median_s": round(statistics.median(r["first_s"] for r in runs), 3),
               "cold_first_max_s": max(r["first_s"] for r in runs)}
    args.out.mkdir(parents=True, exist_ok=True)
    result = {"summary": summary, "weight": weight, "cold": runs, "units": UNITS,
              "load": os.getloadavg(), "date": time.strftime("%Y-%m-%d")}
    (args.out / "results.json").write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", "utf-8")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
