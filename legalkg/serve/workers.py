"""The CPU-bound tool calls of ``serve --http`` in worker processes, so that they cannot starve the rest.

Why processes: a context pack is about 0.4 s of pure Python per question (three learned searches,
their records decoded, the gains and the greedy choice), and a long verify text seconds to minutes
(grammar, records, support score). In threads of the server they held the interpreter lock: at 8
clients with context in the mix the lock was busy 75 % of the time, three quarters of it with the
packs' work, and every search waited for it at each of its I/O returns (a sampling profile,
docs/benchmarks/reliability.md). A worker has its own interpreter, driver and models; the server's
thread only waits for the answer, already encoded as JSON bytes. Why niced: the kernel then gives
a core to the server's short calls first when the packs and Neo4j want both (admission by the
scheduler: a cheap call is never queued behind an expensive one). Calls beyond the workers queue in
the pool, each counted against its tool's limit in ``gates``; a queued call whose client hung up is
dropped before it starts.

The workers are spawned (not forked: the server holds threads and a driver), all from the thread
that starts the server, and each loads its models before the port opens. ``close`` kills them, so
SIGTERM does not wait for a verify a worker is still running; they also end when the server dies
without ``close`` (``legalkg.procs``). A worker that dies (an OOM kill) is one 503 with
``Retry-After``; the next call starts a new pool.
"""

from __future__ import annotations

import json
import logging
import multiprocessing
import os
import time
from concurrent.futures import Future, ProcessPoolExecutor, TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from neo4j import Driver

from .. import cancel
from ..graph.config import Neo4jConfig
from ..graph.connection import open_driver
from ..procs import process_pool
from .args import ToolArgs
from .gates import Busy
from .tools import WARM_QUERY, WARM_TEXT, Tools

#: Verify texts longer than this (characters) go to the verify worker: for shorter ones the
#: hand-over would cost more than it saves.
HEAVY_CHARS = 20_000
#: Worker processes for context packs (the machine's cores, at most 2: each holds its own models).
CONTEXT_WORKERS = max(1, min(2, os.cpu_count() or 1))
#: The workers' niceness: below the server process, which answers the short calls.
WORKER_NICE = 10
#: How often a waiting thread looks whether its call was cancelled.
WAIT_S = 0.25
#: Seconds a start-up ping holds its worker.
PING_S = 0.2
#: What a worker answers once before it takes calls (its models, the queries' plans).
WARM_CALLS: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "verify": [("verify", {"text": WARM_TEXT})],
    "context": [("context", {"query": WARM_QUERY, "budget": 300})],
}
log = logging.getLogger("legalkg.serve")

_TOOLS: Any = None  # the worker process's Tools (made by ``_start``)


def _start(cfg: dict[str, Any], database: str, vectors: bool, retry_time: float, nice: int,
           warm: list[tuple[str, dict[str, Any]]]) -> None:
    global _TOOLS  # noqa: PLW0603 - a process pool's worker state lives in its module
    if nice:
        os.nice(nice)
    _TOOLS = Tools(open_driver(Neo4jConfig(**cfg), retry_time=retry_time), database, vectors=vectors)
    for name, kwargs in warm:
        _TOOLS.call_json(name, kwargs)


def _call(name: str, kwargs: dict[str, Any]) -> bytes:
    return _TOOLS.call_json(name, kwargs)


def _ping() -> int:
    time.sleep(PING_S)  # held a moment, so that the next ping finds this worker busy
    return os.getpid()


class ToolWorkers:
    """``workers`` processes, each with a ``Tools`` of its own, for one kind of call."""

    def __init__(self, cfg: Neo4jConfig, database: str, kind: str, *, workers: int = 1, vectors: bool = True,
                 retry_time: float = 3.0, nice: int = WORKER_NICE) -> None:
        self.kind, self.workers = kind, workers
        self.initargs = (cfg.model_dump(), database, vectors, retry_time, nice, WARM_CALLS.get(kind, []))
        self.pool: ProcessPoolExecutor | None = None
        self.pings: list[Future] = []

    def _pool(self) -> ProcessPoolExecutor:
        if self.pool is None:
            self.pool = process_pool(self.workers, _start, self.initargs,
                                     mp_context=multiprocessing.get_context("spawn"))
        return self.pool

    def launch(self) -> None:
        """Start every worker now, from this thread, without waiting: the pool starts a worker when
        a call finds none idle, so ``workers`` calls at once start them all."""
        pool = self._pool()
        self.pings = [pool.submit(_ping) for _ in range(self.workers)]

    def wait(self) -> None:
        """Until every worker has answered a ping, that is, has loaded its models (its initializer)."""
        seen: set[int] = set()
        for _ in range(20):
            seen.update(f.result() for f in self.pings)
            if len(seen) >= self.workers:
                return
            self.pings = [self._pool().submit(_ping) for _ in range(self.workers)]

    def call(self, name: str, kwargs: dict[str, Any]) -> bytes:
        """Tool ``name``'s answer as JSON bytes; ``cancel.Cancelled`` once the caller's token is set
        (a call still queued is dropped; a running one runs on in its worker)."""
        try:
            future: Future = self._pool().submit(_call, name, kwargs)
            while True:
                try:
                    return future.result(timeout=WAIT_S)
                except FutureTimeout:
                    if cancel.cancelled():
                        future.cancel()
                        raise cancel.Cancelled("the request was cancelled") from None
        except BrokenProcessPool:
            self.discard()
            raise Busy(f"a {self.kind} worker process ended (the server's log may say why): retry in a moment; "
                       "a new one is starting") from None

    def discard(self) -> None:
        """Drop a broken pool; the next call starts a new one."""
        pool, self.pool = self.pool, None
        if pool is not None:
            log.warning("a %s worker process ended; starting new ones", self.kind)
            pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Kill the workers (their calls, if any, are abandoned) and drop the pool. Waiting for the
        pool's manager thread (quick once the workers are dead) frees its semaphores, so the resource
        tracker ends without a "leaked semaphore objects" warning."""
        if self.pool is None:
            return
        for proc in list(getattr(self.pool, "_processes", {}).values()):  # no public kill in the stdlib
            proc.kill()
        self.pool.shutdown(wait=True, cancel_futures=True)
        self.pool = None


class ServedTools(Tools):
    """The server's ``Tools``: context packs and verify texts over ``HEAVY_CHARS`` go to worker
    processes, for the JSON API and the pages alike; the rest runs in the server's threads."""

    def __init__(self, driver: Driver, database: str = "neo4j", *, vectors: bool = True,
                 offload: dict[str, ToolWorkers] | None = None) -> None:
        super().__init__(driver, database, vectors=vectors)
        self.offload = dict(offload or {})

    def worker_for(self, name: str, kwargs: dict[str, Any]) -> ToolWorkers | None:
        if name == "verify" and len(kwargs.get("text") or "") <= HEAVY_CHARS:
            return None
        return self.offload.get(name)

    def call_json(self, name: str, args: ToolArgs | dict[str, Any]) -> bytes:
        kwargs = args if isinstance(args, dict) else args.model_dump()
        workers = self.worker_for(name, kwargs)
        return super().call_json(name, kwargs) if workers is None else workers.call(name, kwargs)

    def remote(self, name: str, kwargs: dict[str, Any]) -> dict[str, Any] | None:
        workers = self.worker_for(name, kwargs)
        return None if workers is None else json.loads(workers.call(name, kwargs))

    def verify(self, text: str, default_law: str | None = None, definitions: bool = False) -> dict[str, Any]:
        out = self.remote("verify", {"text": text, "default_law": default_law, "definitions": definitions})
        return super().verify(text, default_law, definitions) if out is None else out

    def context(self, query: str, budget: int = 1000, task: str | None = None,
                law: str | None = None) -> dict[str, Any]:
        out = self.remote("context", {"query": query, "budget": budget, "task": task, "law": law})
        return super().context(query, budget, task, law) if out is None else out

    def close(self) -> None:
        for workers in self.offload.values():
            workers.close()


def launch_workers(cfg: Neo4jConfig, database: str, *, vectors: bool = True,
                   retry_time: float = 3.0) -> dict[str, ToolWorkers]:
    """The verify and context workers, started (they load their models meanwhile: ``wait_workers``)."""
    out: dict[str, ToolWorkers] = {}
    for kind, n in (("verify", 1), ("context", CONTEXT_WORKERS)):
        out[kind] = ToolWorkers(cfg, database, kind, workers=n, vectors=vectors, retry_time=retry_time)
        out[kind].launch()
    return out


def wait_workers(workers: dict[str, ToolWorkers], warn=print) -> dict[str, ToolWorkers]:
    """``workers`` once each has loaded its models; a kind whose workers failed is closed and left out
    (its calls run in the server) with one warning line."""
    out: dict[str, ToolWorkers] = {}
    for kind, pool in workers.items():
        try:
            pool.wait()
        except Exception as err:  # noqa: BLE001 - whatever a worker raised, the server still serves
            pool.close()
            warn(f"warning: no worker process for {kind} ({type(err).__name__}: {err}); it runs in the server")
            continue
        out[kind] = pool
    return out
