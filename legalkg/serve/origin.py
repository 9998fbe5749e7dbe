"""Who may talk to ``serve --http`` on loopback: a pure ASGI guard in front of the app.

Why a Host check: a server on 127.0.0.1 is reachable from any web page the user opens. With DNS
rebinding, ``evil.example`` resolves to 127.0.0.1 after the page loaded, and the browser then sends
the page's requests, and hands it the answers, with ``Host: evil.example``. Only the machine's own
names are answered (421 otherwise). Behind a token (any other address) the token is the guard.
Why the headers: the pages must not be framed by another site (clickjacking), nor a body be
sniffed into another type.
"""

from __future__ import annotations

import json
from typing import Any

#: Names a browser on this machine sends for a loopback server.
LOCAL_NAMES = frozenset({"127.0.0.1", "localhost", "[::1]", "::1"})
#: Added to every answer.
HEADERS = [(b"x-frame-options", b"DENY"), (b"x-content-type-options", b"nosniff")]


def host_name(host: str) -> str:
    """The name of a ``Host`` header without its port ("[::1]:8765" -> "[::1]")."""
    if host.startswith("["):
        return host[:host.find("]") + 1]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


class LocalOnly:
    """Refuse requests whose ``Host`` is no name of this machine; add ``HEADERS`` to every answer."""

    def __init__(self, app: Any, *, check_host: bool = True) -> None:
        self.app = app
        self.check_host = check_host

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = dict(scope["headers"]).get(b"host", b"").decode("latin-1").strip().lower()
        if self.check_host and host_name(host) not in LOCAL_NAMES:
            body = json.dumps({"error": f"this server answers only requests for 127.0.0.1 or localhost, "
                                        f"not {host[:60]!r} (a page of another site cannot use it)"}).encode()
            await send({"type": "http.response.start", "status": 421,
                        "headers": [(b"content-type", b"application/json"), *HEADERS]})
            await send({"type": "http.response.body", "body": body})
            return

        async def with_headers(message: dict) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *HEADERS]}
            await send(message)

        await self.app(scope, receive, with_headers)
