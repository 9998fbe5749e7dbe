"""Clients that hang up mid-body, send it at a trickle, come from another site's page (DNS
rebinding, a form or text/plain POST), against the app as ``run_http`` serves it (``LocalOnly``
around ``build_app``) by uvicorn on a socket (no graph: the refusals come before any tool runs;
issue 44)."""

from __future__ import annotations

import http.client
import logging
import socket
import time

import pytest

from legalkg.serve import Tools, build_app
from legalkg.serve.deadline import HEADER_TIMEOUT_S
from legalkg.serve.http import BODY_TIMEOUT_S, http_config
from legalkg.serve.origin import LocalOnly

from ..servers import app_in_thread

HEAD = (b"POST /verify HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: 1000\r\n\r\n")


@pytest.fixture
def port():
    with app_in_thread(LocalOnly(build_app(Tools(None))), config=http_config) as port:
        yield port


def test_clients_that_hang_up_mid_body_log_nothing(port, caplog):
    """Each used to log two tracebacks (7 KB): 200 aborted POSTs wrote 1.5 MB of log in 2 s."""
    caplog.set_level(logging.INFO)
    for _ in range(20):
        with socket.create_connection(("127.0.0.1", port)) as conn:
            conn.sendall(HEAD + b'{"text": "Nach \xc2\xa7 4')
            time.sleep(0.02)
    time.sleep(0.5)
    assert [r.getMessage()[:80] for r in caplog.records if r.levelno >= logging.WARNING] == []


@pytest.mark.slow
def test_a_body_sent_at_a_trickle_is_cut_off_with_408(port):
    with socket.create_connection(("127.0.0.1", port), timeout=BODY_TIMEOUT_S + 30) as conn:
        conn.sendall(HEAD)
        clock = time.monotonic()
        answer = b""
        conn.settimeout(1)
        while time.monotonic() - clock < BODY_TIMEOUT_S + 20 and not answer:
            try:
                conn.sendall(b"x")  # one byte a second: a 1,000-byte body would take 17 minutes
                answer = conn.recv(4096)
            except TimeoutError:
                continue
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert time.monotonic() - clock < BODY_TIMEOUT_S + 5


@pytest.mark.slow
def test_headers_sent_at_a_trickle_are_cut_off_with_408(port):
    """40 such connections used to stay open for good (issue 44's probe): the body had a deadline,
    the headers none."""
    with socket.create_connection(("127.0.0.1", port), timeout=HEADER_TIMEOUT_S + 30) as conn:
        clock = time.monotonic()
        answer, sent = b"", 0
        conn.settimeout(1)
        while time.monotonic() - clock < HEADER_TIMEOUT_S + 20 and not answer:
            try:
                conn.sendall(HEAD[sent % 20:sent % 20 + 1])  # a byte a second, never the blank line
                sent += 1
                answer = conn.recv(4096)
            except TimeoutError:
                continue
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert HEADER_TIMEOUT_S - 1 < time.monotonic() - clock < HEADER_TIMEOUT_S + 5


def test_a_kept_alive_connection_serves_one_request_after_another(port):
    """The header deadline is disarmed by each request's headers and armed again after its answer:
    three requests on one connection, the last one pipelined behind the second, are all answered."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        get = b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        conn.sendall(get)
        first = conn.recv(65536)
        conn.sendall(get + get)
        rest = b""
        while rest.count(b"HTTP/1.1 ") < 2:
            chunk = conn.recv(65536)
            assert chunk, rest
            rest += chunk
    assert first.startswith(b"HTTP/1.1 ") and b" 408 " not in first + rest


def request(port: int, path: str, headers: dict[str, str], body: bytes | None = None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.putrequest("POST" if body is not None else "GET", path, skip_host=True)
    for name, value in headers.items():
        conn.putheader(name, value)
    conn.putheader("Content-Length", str(len(body or b"")))
    conn.endheaders(body)
    resp = conn.getresponse()
    return resp.status, resp.headers, resp.read()


def test_a_request_for_another_host_name_is_refused(port):
    """DNS rebinding: evil.example resolved to 127.0.0.1 sends its own name as Host."""
    for host in ("evil.example", "evil.example:8765", "127.0.0.1.evil.example"):
        status, _, body = request(port, "/health", {"Host": host})
        assert status == 421 and b"only requests for 127.0.0.1" in body, (host, status, body)
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", "localhost"):  # the front page needs no graph
        assert request(port, "/", {"Host": host})[0] == 200, host


def test_a_tool_body_that_a_browser_sends_cross_site_is_refused(port):
    """text/plain and forms need no CORS preflight; only application/json reaches a tool."""
    body = b'{"query": "Kaution", "k": 3}'
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None):
        headers = {"Host": "127.0.0.1"} | ({"Content-Type": kind} if kind else {})
        status, _, answer = request(port, "/search", headers, body)
        assert status == 415 and b"application/json" in answer, (kind, status, answer)


def test_every_answer_forbids_framing_and_sniffing(port):
    status, headers, _ = request(port, "/", {"Host": "127.0.0.1"})
    assert status == 200 and headers["X-Frame-Options"] == "DENY"
    assert headers["X-Content-Type-Options"] == "nosniff"


def test_a_check_form_with_invalid_utf8_is_refused(port):
    """The form parser replaced the bytes and the page answered "0 citations" with 200."""
    status, _, body = request(port, "/check", {"Host": "127.0.0.1",
                                                "Content-Type": "application/x-www-form-urlencoded"},
                              b"text=Nach+%A7+433+BGB")
    assert status == 400 and "Der Text war kein UTF-8" in body.decode(), (status, body[:300])  # the page, in German
