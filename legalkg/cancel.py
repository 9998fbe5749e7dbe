"""Cancellation of work whose caller has gone: a token per request, checked at checkpoints.

Why checkpoints: a thread cannot be stopped from outside. ``legalkg serve`` runs each tool call
in a worker thread under a ``scope(token)``; when the HTTP client hangs up or the server shuts
down, the token is set, and the next ``checkpoint()`` in the long loops (verify's phases, its
records, its embedding batches) raises ``Cancelled``. Outside a scope ``checkpoint`` costs a
context-variable read and never raises: the CLI and the library are not affected.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_TOKEN: ContextVar[threading.Event | None] = ContextVar("legalkg_cancel", default=None)


class Cancelled(Exception):  # noqa: N818 - what happened, not an error of the caller
    """The caller of this work has gone (client hung up, server shutting down)."""


@contextmanager
def scope(token: threading.Event) -> Iterator[None]:
    """Run the enclosed work under ``token``: ``checkpoint`` raises once it is set."""
    reset = _TOKEN.set(token)
    try:
        yield
    finally:
        _TOKEN.reset(reset)


def cancelled() -> bool:
    """Whether the current work's token is set (False outside a ``scope``)."""
    token = _TOKEN.get()
    return token is not None and token.is_set()


def checkpoint() -> None:
    if cancelled():
        raise Cancelled("the request was cancelled")
