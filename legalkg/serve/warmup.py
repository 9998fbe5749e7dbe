"""Ask every route of the HTTP app once, in the process, before the port opens.

Why: ``Tools.warm`` loaded the search and verify models, but the first unit page still compiled its
template and had Neo4j plan its queries, and the first context pack read its candidates' models: a cold
first page took 2.5-4.4 s where later ones take 0.05 s. Going through the app itself (not the tools)
warms what a request touches, templates and middleware included, whatever a later change adds to a
page. The requests are plain ASGI calls on a private event loop; nothing listens yet, so no client
can see a half-warm server (before the port opens a connection is refused at once, not left waiting).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any
from urllib.parse import quote, urlencode

from .tools import WARM_QUERY, WARM_TEXT

log = logging.getLogger("legalkg.serve")


async def asgi_call(app: Any, method: str, path: str, query: str = "", body: Any = None,
                    headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    """(status, body) of one request to the ASGI ``app``."""
    raw = b"" if body is None else json.dumps(body).encode()
    head = [(b"host", b"127.0.0.1"), *((k.lower().encode(), v.encode()) for k, v in (headers or {}).items())]
    if body is not None:
        head += [(b"content-type", b"application/json"), (b"content-length", str(len(raw)).encode())]
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
             "scheme": "http", "path": path, "raw_path": quote(path).encode(), "query_string": query.encode(),
             "root_path": "", "headers": head, "client": ("127.0.0.1", 0), "server": ("127.0.0.1", 0)}
    sent = False
    status = 0
    chunks: list[bytes] = []

    async def receive() -> dict:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": raw, "more_body": False}
        await asyncio.sleep(3600)  # the client stays: is_disconnected() cancels this wait at once
        return {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, receive, send)
    return status, b"".join(chunks)


def requests(unit: str | None, pages: bool) -> list[tuple[str, str, str, Any]]:
    """(method, path, query, JSON body) of the warm-up: each tool, and each page when served."""
    out: list[tuple[str, str, str, Any]] = [
        ("POST", "/verify", "", {"text": WARM_TEXT}),
        ("POST", "/context", "", {"query": WARM_QUERY, "budget": 300}),
    ]
    if unit:
        out += [("POST", "/get_unit", "", {"id": unit}), ("POST", "/related", "", {"id": unit})]
    if pages:
        out += [("GET", "/", "", None), ("GET", "/", urlencode({"q": WARM_QUERY}), None),
                ("GET", "/check", urlencode({"text": WARM_TEXT}), None),
                ("GET", "/context", urlencode({"q": WARM_QUERY}), None),
                ("GET", "/references/broken", "", None),
                ("GET", "/static/style.css", "", None), ("GET", "/favicon.ico", "", None)]
        if unit:
            out.append(("GET", f"/unit/{unit}", "", None))
    return out


async def warm(app: Any, token: str | None) -> list[tuple[str, str, int]]:
    """(method, path, status) of every warm-up request, the first search's included."""
    headers = {} if token is None else {"authorization": f"Bearer {token}"}
    status, body = await asgi_call(app, "POST", "/search", body={"query": WARM_QUERY}, headers=headers)
    done = [("POST", "/search", status)]
    try:
        unit = json.loads(body)["seeds"][0]["id"] if status == 200 else None
    except (ValueError, KeyError, IndexError, TypeError):
        unit = None
    for method, path, query, payload in requests(unit, pages=token is None):
        status, _ = await asgi_call(app, method, path, query, payload, headers)
        done.append((method, path, status))
    return done


def warm_app(app: Any, token: str | None = None) -> list[tuple[str, str, int]]:
    """Run ``warm`` to its end on a loop of its own; a route that fails is logged, never fatal (the
    server still serves, and ``GET /health`` says what is not ready)."""
    clock = time.monotonic()
    done = asyncio.run(warm(app, token))
    failed = [f"{m} {p} {s}" for m, p, s in done if s != 200]
    if failed:
        log.warning("warm-up: %s", ", ".join(failed))
    log.debug("warm-up: %d requests in %.1f s", len(done), time.monotonic() - clock)
    return done
