"""Cold start of ``legalkg serve --http`` (issue 44): before the port opens the server has asked every
page and tool route once (``serve.warmup``), so the first page and the first search answer within 1 s;
context packs and long verify texts run in worker processes (``serve.workers``)."""

from __future__ import annotations

import socket
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest

from legalkg.serve import Tools, build_app
from legalkg.serve.warmup import warm_app
from legalkg.server.process import free_port
from tests.serve.test_serve import LEGALKG, server_env


@pytest.fixture(scope="module")
def graph(load_graph, neo4j_cfg):
    load_graph("BGB,ZPO", model="usem3")
    return neo4j_cfg


def routes(app) -> set[tuple[str, str]]:
    """(method, path template) of every route of ``app`` but FastAPI's own documentation."""
    out = set()
    for route in app.routes:
        for method in getattr(route, "methods", None) or ():
            if method != "HEAD" and not route.path.startswith(("/docs", "/redoc", "/openapi")):
                out.add((method, route.path))
    return out


def template(path: str) -> str:
    if path.startswith("/static/"):
        return "/static/{name}"
    return "/unit/{uid:path}" if path.startswith("/unit/") else path


def test_the_warm_up_asks_every_page_and_tool_route_and_each_answers(graph, driver):
    app = build_app(Tools(driver, graph.database))
    done = warm_app(app)
    asked = {(method, template(path)) for method, path, _ in done}
    missing = routes(app) - asked - {("GET", "/health"), ("GET", "/tools"), ("POST", "/check")}
    assert missing == set(), f"routes the warm-up leaves cold: {sorted(missing)}"
    assert [(m, p, s) for m, p, s in done if s != 200] == []


def timed(url: str, body: bytes | None = None) -> tuple[int, float]:
    headers = {"Content-Type": "application/json"} if body else {}
    clock = time.monotonic()
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=body, headers=headers), timeout=60) as resp:
            resp.read()
            status = resp.status
    except urllib.error.HTTPError as err:
        status = err.code
    return status, time.monotonic() - clock


def test_the_first_page_and_the_first_search_answer_within_a_second_of_the_port_opening(graph):
    port = free_port()
    proc = subprocess.Popen([LEGALKG, "serve", "--http", "--port", str(port)], env=server_env(graph),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    first = {"ask page": f"{base}/?" + urllib.parse.urlencode({"q": "Das gebrauchte Auto hat einen Mangel"}),
             "unit page": f"{base}/unit/" + urllib.parse.quote("BGB/§433"),
             "search": f"{base}/search"}
    got: dict[str, tuple[int, float]] = {}
    try:
        deadline = time.monotonic() + 300
        while True:  # until the port accepts: a refused connection is immediate, never a timeout
            assert proc.poll() is None, proc.stderr.read().decode()
            assert time.monotonic() < deadline, "the port did not open"
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.02)
        body = b'{"query": "Ab wann ist man vollj\\u00e4hrig?"}'

        def one(key: str, url: str) -> None:
            got[key] = timed(url, body if key == "search" else None)

        threads = [threading.Thread(target=one, args=item) for item in first.items()]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert {k: s for k, (s, _) in got.items()} == dict.fromkeys(first, 200)
    slow = {k: round(t, 2) for k, (_, t) in got.items() if t > 1.0}
    assert slow == {}, f"first requests over 1 s: {slow}"
