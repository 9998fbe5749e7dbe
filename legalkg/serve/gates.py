"""How much work the HTTP server takes on at once: a bound per tool, a line for the expensive one,
a thread per call, cancellation.

Why a bound that refuses: a rush of 50 requests on a server that answers 10 a second would wait in
line past every client's timeout while memory grows; a full tool answers 503 with ``Retry-After``
at once, and the client retries when the server has room. Why a short line for context packs
(``DEFAULT_QUEUES``): a pack takes seconds, and at 32 clients the packs in flight filled the tool
for minutes; the refused clients retried once a second, and whichever retry came first after a
pack ended took its place, so some clients were refused 60 times in a row while others were
served (19 of 1,059 requests failed, docs/benchmarks/reliability.md). A call that finds the tool
full now waits in a bounded line, first come first served, at most ``QUEUE_WAIT_S``; the line full
or the wait over, it is the same 503. The cheap tools (search, get_unit) keep their own limits and
never wait behind a pack. Why threads:
the tools are blocking library code (Neo4j round trips, numpy, the grammar); run on the event loop,
one 1 MB verify would stall every other request. Each call runs under a ``cancel.scope``, set when
the client hangs up or the server stops, so abandoned work ends at its next checkpoint.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from .. import cancel
from ..errors import UserError

#: Calls in flight per tool before a request is refused with 503 or waits in its tool's line (verify
#: is CPU-bound: fewer; context: two per worker process, so that a pack's wait is in the line,
#: where it is first come first served and bounded, not in the pool's queue).
DEFAULT_LIMITS: dict[str, int] = {"search": 32, "get_unit": 32, "verify": 4, "context": 4}
#: Calls that wait, in arrival order, for a place of a full tool before it refuses more (tools not
#: named refuse at once): the context packs, seconds each, on two worker processes.
DEFAULT_QUEUES: dict[str, int] = {"context": 32}
#: Seconds a call waits in its tool's line before it is refused (503 with ``Retry-After``).
QUEUE_WAIT_S = 60.0
#: Seconds a refused client is told to wait (``Retry-After``).
RETRY_AFTER_S = 1
#: How often a running call looks whether its client is still there.
POLL_S = 0.25
#: Characters of text the check page verifies. A page draws every citation with its tooltip and
#: table row: a dense chain is about 100 bytes of HTML per character, so 1 MB gave 40 MB of page
#: (and 70 s in the server). Longer texts: ``POST /verify`` or ``legalkg verify``.
PAGE_TEXT_CHARS = 100_000


class Busy(UserError):
    """The tool has as many calls in flight as it takes: HTTP 503 with ``Retry-After``."""


@dataclass
class Gates:
    """In-flight counts per tool and the cancel tokens of the running calls."""

    limits: dict[str, int] = field(default_factory=lambda: dict(DEFAULT_LIMITS))
    queues: dict[str, int] = field(default_factory=lambda: dict(DEFAULT_QUEUES))
    queue_wait_s: float = QUEUE_WAIT_S
    in_flight: dict[str, int] = field(default_factory=dict)
    #: per tool, the calls waiting for a place, first come first; each is handed its place by ``_leave``
    waiting: dict[str, deque[asyncio.Future]] = field(default_factory=dict)
    tokens: set[threading.Event] = field(default_factory=set)
    lock: threading.Lock = field(default_factory=threading.Lock)
    executor: ThreadPoolExecutor | None = None
    #: set when the server stops: a cancelled call then answers 503, not "cancelled"
    stopping: bool = False

    def pool(self) -> ThreadPoolExecutor:
        """One thread per call the limits admit, so an admitted call never waits for a thread."""
        with self.lock:
            if self.executor is None:
                self.executor = ThreadPoolExecutor(max_workers=max(1, sum(self.limits.values())),
                                                   thread_name_prefix="legalkg-tool")
            return self.executor

    def limit(self, tool: str) -> int:
        return self.limits.get(tool, min(self.limits.values(), default=4))

    async def _enter(self, tool: str, gone: Callable[[], Awaitable[Any]]) -> None:
        """Take a place of ``tool``: at once while it has one and nobody waits, else in its line (if
        it has one with room) until ``_leave`` hands this call a place; ``Busy`` when the line is full
        or the wait is over, ``cancel.Cancelled`` when the client hangs up or the server stops."""
        limit = self.limit(tool)
        with self.lock:
            line = self.waiting.setdefault(tool, deque())
            if self.in_flight.get(tool, 0) < limit and not line:
                self.in_flight[tool] = self.in_flight.get(tool, 0) + 1
                return
            if len(line) >= self.queues.get(tool, 0):
                waiting = f" and {len(line)} waiting" if line else ""
                raise Busy(f"{tool} has {limit} requests in flight{waiting}, as many as it takes: "
                           f"retry in {RETRY_AFTER_S} s")
            turn = asyncio.get_running_loop().create_future()
            line.append(turn)
        try:
            await self._wait_turn(tool, turn, gone)
        except BaseException:
            with self.lock:
                handed = turn not in line
                if not handed:
                    line.remove(turn)
            if handed:  # the place came while this call gave up: the next in line gets it
                self._release(tool)
            raise

    async def _wait_turn(self, tool: str, turn: asyncio.Future, gone: Callable[[], Awaitable[Any]]) -> None:
        deadline = time.monotonic() + self.queue_wait_s
        while True:
            left = deadline - time.monotonic()
            done, _ = await asyncio.wait({turn}, timeout=max(0.0, min(POLL_S, left)))
            if done:
                return
            if self.stopping:
                raise cancel.Cancelled("the server is stopping")
            if await gone():
                raise cancel.Cancelled("the client hung up")
            if left <= 0:
                raise Busy(f"{tool} had no free place for {self.queue_wait_s:g} s ({self.limit(tool)} requests in "
                           f"flight): retry in {RETRY_AFTER_S} s")

    def _release(self, tool: str) -> None:
        """A place of ``tool`` is free: handed to the first call in line, else counted free. Runs in
        the event loop's thread (the calls' done callbacks), where the waiting calls' futures live."""
        with self.lock:
            line = self.waiting.get(tool)
            while line:
                turn = line.popleft()
                if not turn.done():
                    turn.set_result(True)  # the place goes over; in_flight stays as it is
                    return
            self.in_flight[tool] -= 1

    def _leave(self, tool: str, token: threading.Event) -> None:
        with self.lock:
            self.tokens.discard(token)
        self._release(tool)

    async def run(self, tool: str, work: Callable[[], Any], gone: Callable[[], Any]) -> Any:
        """``work()`` in a thread, counted against ``tool``'s limit until the thread ends (not
        until the client stops waiting); when the tool is full, after a wait in its line (``_enter``).
        ``gone``: an async check whether the client hung up; then the token is set and
        ``cancel.Cancelled`` raised here."""
        await self._enter(tool, gone)
        token = threading.Event()
        with self.lock:
            self.tokens.add(token)

        def call() -> Any:
            with cancel.scope(token):
                cancel.checkpoint()
                return work()

        try:
            future = asyncio.get_running_loop().run_in_executor(self.pool(), call)
        except BaseException:
            self._leave(tool, token)
            raise
        future.add_done_callback(lambda f: self._done(tool, token, f))
        while True:
            done, _ = await asyncio.wait({future}, timeout=POLL_S)
            if done:
                return future.result()
            if self.stopping:  # the thread ends at its next checkpoint; the answer goes now
                raise cancel.Cancelled("the server is stopping")
            if await gone():
                token.set()
                raise cancel.Cancelled("the client hung up")

    def _done(self, tool: str, token: threading.Event, future: asyncio.Future) -> None:
        self._leave(tool, token)
        if not future.cancelled():
            future.exception()  # retrieved: an abandoned call's Cancelled is no "never retrieved" log

    def cancel_all(self) -> None:
        """Set every running call's token (the server is stopping)."""
        with self.lock:
            for token in self.tokens:
                token.set()

    def busy_threads(self) -> int:
        with self.lock:
            return sum(self.in_flight.values())

    def snapshot(self) -> dict[str, dict[str, int]]:
        with self.lock:
            return {t: {"in_flight": self.in_flight.get(t, 0), "limit": n,
                        **({"waiting": len(self.waiting.get(t, ()))} if t in self.queues else {})}
                    for t, n in self.limits.items()}


async def page_call(request: Any, tool: str, work: Callable[[], Any], text: str = "") -> Any:
    """A web page's ``work()`` under the same limits as the JSON API's ``tool`` (``request.app.state.gates``):
    the pages shared the JSON API's tools but not its admission, so eight pasted texts all ran at
    once in the server. ``text``: the page's input, refused over ``PAGE_TEXT_CHARS`` or where the form
    parser replaced invalid UTF-8 (the page answered "0 citations" for the mangled text)."""
    if len(text) > PAGE_TEXT_CHARS:
        raise UserError(f"the text has {len(text):,} characters, more than the {PAGE_TEXT_CHARS:,} this page "
                        "checks: split it, or use POST /verify or `legalkg verify` (up to 1,000,000)")
    if "\ufffd" in text:  # the form parser replaced bytes that were not UTF-8: nothing left to check
        raise UserError("the text was not UTF-8 (the form held invalid bytes): send it as UTF-8")
    return await request.app.state.gates.run(tool, work, request.is_disconnected)
