"""An ASGI app served by uvicorn in a thread of the test process, on a free port.

Why in process: tests that drive the app's HTTP layer (hostile clients, a Neo4j that is away) need a
real socket but not the models' start-up of ``legalkg serve``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn

from legalkg.server.process import free_port


@contextmanager
def app_in_thread(app, log_level: str = "warning", config=None) -> Iterator[int]:
    """Serve ``app`` on a free loopback port until the block ends; yields the port. ``config``:
    the product's ``(app, host, port) -> uvicorn.Config`` (``serve.http.http_config``), else uvicorn's."""
    port = free_port()
    made = config(app, "127.0.0.1", port) if config else uvicorn.Config(app, port=port, log_level=log_level)
    server = uvicorn.Server(made)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    try:
        while not server.started:
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.05)
        yield port
    finally:
        server.should_exit = True
        thread.join(timeout=10)
