"""uvicorn's HTTP/1.1 protocol (h11) with a deadline for a request's headers.

Why: uvicorn bounds an idle keep-alive connection (``timeout_keep_alive``) but not a request whose
headers arrive a byte at a time: each such connection stays open for good, so a few hundred of them
hold the server's sockets and memory (issue 44's probe kept 40 for over a minute). Here a
connection waiting for a request's headers (a new connection, or one whose last answer went out)
gets ``HEADER_TIMEOUT_S`` seconds for them; after that it is answered 408 and closed. The body has
a deadline of its own in the app (``http.BODY_TIMEOUT_S``).
"""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.h11_impl import H11Protocol

#: Seconds a request's headers may take to arrive in full.
HEADER_TIMEOUT_S = 20
LATE = b"HTTP/1.1 408 Request Timeout\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"


class HeaderDeadline(H11Protocol):
    """``H11Protocol`` whose connection closes when a request's headers are not in within
    ``HEADER_TIMEOUT_S``: armed when the connection opens and after each answer, disarmed when
    h11 has parsed a request's headers (a new request cycle)."""

    header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self.disarm()
        super().connection_lost(exc)

    def handle_events(self) -> None:
        cycle = self.cycle
        super().handle_events()
        if self.cycle is not cycle:  # a request's headers arrived
            self.disarm()

    def on_response_complete(self) -> None:
        self.arm()  # before: a pipelined request that follows disarms it again
        super().on_response_complete()

    def arm(self) -> None:
        self.disarm()
        self.header_timer = self.loop.call_later(HEADER_TIMEOUT_S, self.headers_late)

    def disarm(self) -> None:
        if self.header_timer is not None:
            self.header_timer.cancel()
            self.header_timer = None

    def headers_late(self) -> None:
        self.header_timer = None
        if not self.transport.is_closing():
            self.transport.write(LATE)
            self.transport.close()
