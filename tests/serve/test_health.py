"""``GET /health`` says whether the server can answer now, asked of Neo4j each time (issue 44).

Before, the warm-up settled readiness once: after Neo4j stopped, ``/health`` still answered 200
``{"ready": true}`` while every tool answered 503. Now a stopped Neo4j, a listener that never
answers and a graph without a finished law are each a 503 with one line naming the problem, within
``HEALTH_S`` (and a little for the request itself), and a server that comes back is ready again.
"""

from __future__ import annotations

import socket
import threading
import time

import pytest
from fastapi.testclient import TestClient

from legalkg.cli.serve import SERVE_RETRY_S
from legalkg.graph.config import Neo4jConfig
from legalkg.graph.connection import open_driver
from legalkg.graph.ingest import ingest_laws
from legalkg.graph.load import LoadSettings
from legalkg.parse import iter_laws
from legalkg.serve import Tools, build_app
from legalkg.serve.health import HEALTH_S
from legalkg.server.process import free_port, stop
from legalkg.server.startup import start

from ..conftest import started_server

#: Seconds a /health may take: the check's own bound and the request around it on a loaded machine.
BOUND_S = HEALTH_S + 3


def health(client: TestClient) -> tuple[int, dict, float, str]:
    """(status, body, seconds, Retry-After) of one ``GET /health``."""
    clock = time.monotonic()
    resp = client.get("/health")
    return resp.status_code, resp.json(), time.monotonic() - clock, resp.headers.get("retry-after", "")


def assert_not_ready(answer: tuple[int, dict, float, str], words: str) -> None:
    status, body, seconds, retry = answer
    assert status == 503 and body["ready"] is False, (status, body)
    assert words in body["problem"] and "\n" not in body["problem"], body["problem"]
    assert retry.isdigit() and seconds < BOUND_S, (retry, seconds)
    assert set(body["tools"]) >= {"search", "verify", "context"}


def app_over(uri: str) -> tuple[TestClient, object]:
    """The app as ``serve`` builds it, its driver opened as ``serve`` opens it (not verified here)."""
    driver = open_driver(Neo4jConfig(uri=uri, password="not-used"), verify=False, retry_time=SERVE_RETRY_S)
    return TestClient(build_app(Tools(driver, vectors=False)), raise_server_exceptions=False), driver


def test_a_closed_port_is_503_at_once_naming_neo4j():
    client, driver = app_over(f"bolt://127.0.0.1:{free_port()}")
    try:
        assert_not_ready(health(client), "Neo4j is not reachable")
    finally:
        driver.close()


def test_a_listener_that_never_answers_is_503_within_the_bound_and_asked_once():
    """A socket that accepts and says nothing (no Bolt handshake): the driver would wait its
    connection timeout; /health answers within ``HEALTH_S``, and checks while the first query is
    still out wait for it instead of starting more."""
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(16)
    client, driver = app_over(f"bolt://127.0.0.1:{silent.getsockname()[1]}")
    try:
        first = health(client)
        assert_not_ready(first, f"did not answer within {HEALTH_S:g} s")
        assert first[2] >= HEALTH_S - 0.1, first  # it waited its bound, then said so
        # the query is still out (the driver gives up after its acquisition time, ACQUIRE_S): one thread
        assert sum(t.name == "legalkg-health" for t in threading.enumerate()) == 1
        again = health(client)  # waits for the same query: no answer yet, or the driver's failure
        assert_not_ready(again, "Neo4j")
        assert "did not answer" in again[1]["problem"] or "not reachable" in again[1]["problem"], again
    finally:
        driver.close()
        silent.close()


@pytest.mark.slow
def test_health_follows_a_scratch_neo4j_that_is_emptied_filled_stopped_and_started(tmp_path_factory):
    """A server of the test's own: empty (no finished law), then KSchG loaded and the tools warmed
    as ``serve`` warms them (ready), then stopped mid-test (503 naming Neo4j, at once and on every
    later check), then started again (ready again, through the same driver)."""
    for settings, cfg in started_server(tmp_path_factory.mktemp("health-home")):
        driver = open_driver(cfg, retry_time=SERVE_RETRY_S)
        try:
            tools = Tools(driver, cfg.database, vectors=False)
            client = TestClient(build_app(tools), raise_server_exceptions=False)
            first = health(client)  # a cold connection and query plan may take the bound: asked again
            assert_not_ready(first if "did not answer" not in first[1]["problem"] else health(client),
                             "holds no finished law")
            assert ingest_laws(driver, cfg.database, iter_laws(None, ["kschg"]),
                               settings=LoadSettings(progress=False)).ok
            tools.warm()
            assert tools.ready, tools.problem
            time.sleep(1.1)  # past the reuse of the last check
            status, body, _, _ = health(client)
            assert status == 200 and body["ready"] is True and body["problem"] is None, body

            stop(settings)
            time.sleep(1.1)
            for _ in range(3):
                assert_not_ready(health(client), "Neo4j is not reachable")
            assert client.post("/get_unit", json={"id": "KSchG/§4"}).status_code == 503  # the tools agree

            start(settings, timeout=240, record=False)
            deadline = time.monotonic() + 60
            while (answer := health(client))[0] != 200:
                assert time.monotonic() < deadline, answer
                time.sleep(0.5)
            assert answer[1]["ready"] is True
        finally:
            driver.close()
