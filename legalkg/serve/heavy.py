"""Long verify texts in a worker process of their own, so that they cannot starve other requests.

Why a process: verify's grammar, records and support score are pure Python. In a thread of the
server, one verify of 1 MB held the interpreter lock for most of its 30 s, and every search that
ran meanwhile waited for it at each of its I/O returns (7x its latency). The worker has its own
interpreter, driver and models; the server's thread only waits for the answer, already encoded
as JSON bytes (encoding the 45 MB answer was seconds of lock as well). Texts up to ``HEAVY_CHARS``
stay in the server: for them the hand-over would cost more than it saves.

The worker is spawned (not forked: the server holds threads and a driver) and warmed before the
port opens; ``close`` kills it, so SIGTERM does not wait for a verify the worker is still running.
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import Future, ProcessPoolExecutor, TimeoutError as FutureTimeout
from typing import Any

from .. import cancel
from ..graph.config import Neo4jConfig
from ..graph.connection import open_driver
from .tools import Tools, encoded

#: Texts longer than this (characters) are verified in the worker process.
HEAVY_CHARS = 20_000
#: How often a waiting thread looks whether its call was cancelled.
WAIT_S = 0.25

_TOOLS: Any = None  # the worker process's Tools (made by ``_start``)


def _start(cfg: dict[str, Any], database: str, vectors: bool, retry_time: float) -> None:
    global _TOOLS  # noqa: PLW0603 - a process pool's worker state lives in its module
    _TOOLS = Tools(open_driver(Neo4jConfig(**cfg), retry_time=retry_time), database, vectors=vectors)


def _verify_json(text: str, default_law: str | None) -> bytes:
    return encoded(_TOOLS.verify(text, default_law))


class HeavyVerifier:
    """One worker process for long verify texts (started by ``warm``)."""

    def __init__(self, cfg: Neo4jConfig, database: str, *, vectors: bool = True, retry_time: float = 3.0) -> None:
        self.initargs = (cfg.model_dump(), database, vectors, retry_time)
        self.pool: ProcessPoolExecutor | None = None

    def _pool(self) -> ProcessPoolExecutor:
        if self.pool is None:
            self.pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                            initializer=_start, initargs=self.initargs)
        return self.pool

    def warm(self, text: str) -> None:
        """Start the worker and load its models (a short verify), before the server takes requests."""
        self._pool().submit(_verify_json, text, None).result()

    def verify_json(self, text: str, default_law: str | None = None) -> bytes:
        """The answer of ``Tools.verify`` as JSON bytes; ``cancel.Cancelled`` once the caller's token is set."""
        future: Future = self._pool().submit(_verify_json, text, default_law)
        while True:
            try:
                return future.result(timeout=WAIT_S)
            except FutureTimeout:
                if cancel.cancelled():
                    future.cancel()
                    raise cancel.Cancelled("the request was cancelled") from None

    def close(self) -> None:
        """Kill the worker (its verify, if any, is abandoned) and drop the pool."""
        if self.pool is None:
            return
        for proc in list(getattr(self.pool, "_processes", {}).values()):  # no public kill in the stdlib
            proc.kill()
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.pool = None
