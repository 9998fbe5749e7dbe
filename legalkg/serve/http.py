"""``legalkg serve --http``: the same tools as a small JSON API (FastAPI), on 127.0.0.1 by default.

Why POST with a JSON body for every tool: the arguments are the MCP tools' arguments, so one
client can switch transports; ``GET /tools`` lists them, ``GET /health`` says whether the server
is ready. Every error has one shape, ``{"error": "<one line>"}``: 400 for a bad argument (the
shared ``serve.args`` models), 401 without the token, 404/405 for a wrong path or method, 413 for
a body over ``MAX_BODY_BYTES``, 503 with ``Retry-After`` when a tool is full, Neo4j is not
reachable or the graph is not ready (no finished law, the unit's law half loaded), 500 only for a
bug (logged with its traceback, never sent).
"""

from __future__ import annotations

import hmac
import json
import logging
import os
import sys
import time
from typing import Any

from neo4j import exceptions as nx

from .. import cancel
from ..errors import NotReady, UserError
from .args import TOOL_ARGS, parse_args
from .gates import RETRY_AFTER_S, Busy, Gates
from .heavy import HEAVY_CHARS, HeavyVerifier
from .mcp_server import INSTALL_HINT
from .tools import DESCRIPTIONS, Tools, encoded

try:
    import uvicorn
    from fastapi import FastAPI, Request
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import JSONResponse, Response
    from starlette.exceptions import HTTPException

    from .web import mount as mount_pages
except ImportError:
    FastAPI = None

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
#: Largest request body: verify's 1,000,000 characters, JSON-escaped (UTF-8 up to 4 bytes each).
MAX_BODY_BYTES = 8_000_000
#: Seconds SIGTERM leaves the requests in flight before the server stops (docs/reliability.md).
GRACEFUL_S = 1
#: The interpreter's thread switch interval while serving (``sys.setswitchinterval``; default 5 ms).
SWITCH_INTERVAL_S = 0.001
#: Seconds a client is told to wait while the graph is not ready (an ingest to finish or resume).
NOT_READY_RETRY_S = 30
#: Addresses that need no token: the machine itself.
LOOPBACK = ("127.0.0.1", "::1", "localhost")
log = logging.getLogger("legalkg.serve")


def require_http() -> None:
    if FastAPI is None:
        raise UserError(f"`legalkg serve --http` needs fastapi and uvicorn: {INSTALL_HINT}")


#: Longest error line sent: the messages cut echoed input already, this bounds any that does not.
MAX_ERROR_CHARS = 400


def one_line(message: object) -> str:
    text = " ".join(str(message).split())
    return text if len(text) <= MAX_ERROR_CHARS else text[:MAX_ERROR_CHARS - 1] + "…"


def error(status: int, message: object, **headers: str) -> JSONResponse:
    return JSONResponse(status_code=status, content={"error": one_line(message)}, headers=headers)


def install_errors(app) -> None:
    """One JSON shape for every error, FastAPI's own 422 and Starlette's 404 included."""

    @app.exception_handler(UserError)
    async def user_error(_request, err: UserError):
        if isinstance(err, Busy):
            return error(503, str(err), **{"Retry-After": str(RETRY_AFTER_S)})
        if isinstance(err, NotReady):
            return error(503, str(err), **{"Retry-After": str(NOT_READY_RETRY_S)})
        return error(400, str(err))

    @app.exception_handler(RequestValidationError)
    async def invalid(_request, err: RequestValidationError):
        first = (err.errors() or [{}])[0]
        return error(400, f"invalid request: {first.get('msg', 'malformed')}")

    @app.exception_handler(HTTPException)
    async def http_error(_request, err: HTTPException):
        return error(err.status_code, err.detail if isinstance(err.detail, str) else "request refused")

    @app.exception_handler(nx.DriverError)
    async def neo4j_down(_request, err: Exception):
        return error(503, "Neo4j is not reachable: retry later (the server's log names the cause)",
                     **{"Retry-After": "5"})

    @app.exception_handler(nx.Neo4jError)
    async def neo4j_error(_request, err: nx.Neo4jError):
        if isinstance(err, nx.ServiceUnavailable | nx.SessionExpired | nx.TransientError):
            return error(503, "Neo4j is not reachable or busy: retry later", **{"Retry-After": "5"})
        log.error("Neo4j error: %s", err)
        return error(500, "internal error: Neo4j refused a query (see the server's log)")

    @app.exception_handler(Exception)
    async def bug(_request, err: Exception):
        log.exception("unexpected error")
        return error(500, f"internal error ({type(err).__name__}): see the server's log")


async def read_json(request: Request) -> Any:
    """The body as JSON, at most ``MAX_BODY_BYTES``; 400/413 in one line otherwise."""
    size = int(request.headers.get("content-length") or 0)
    if size > MAX_BODY_BYTES:
        raise HTTPException(413, f"the body has {size:,} bytes, more than the {MAX_BODY_BYTES:,} this server reads")
    chunks: list[bytes] = []
    total = 0
    async for chunk in request.stream():
        total += len(chunk)
        if total > MAX_BODY_BYTES:
            raise HTTPException(413, f"the body is longer than the {MAX_BODY_BYTES:,} bytes this server reads")
        chunks.append(chunk)
    try:
        return json.loads(b"".join(chunks), parse_constant=_no_constant)
    except (ValueError, RecursionError) as err:
        raise UserError(f"the body is not JSON ({str(err)[:80]}): send a JSON object of the tool's arguments") from None


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not JSON")


def check_token(request: Request, token: str | None) -> None:
    """Bearer ``token`` in constant time when the server has one (any non-loopback address)."""
    if token is None:
        return
    given = request.headers.get("authorization", "")
    scheme, _, value = given.partition(" ")
    if scheme.lower() != "bearer" or not hmac.compare_digest(value.strip().encode(), token.encode()):
        raise HTTPException(401, "missing or wrong token: send 'Authorization: Bearer <token>' "
                                 "(the server's --token / LEGALKG_API_TOKEN)")


def build_app(tools: Tools, *, gates: Gates | None = None, token: str | None = None,
              heavy: HeavyVerifier | None = None):
    """The FastAPI app over ``tools``: one route per tool of ``serve.args.TOOL_ARGS``; verify texts
    over ``HEAVY_CHARS`` go to ``heavy``'s worker process when given."""
    require_http()
    gates = gates or Gates()
    app = FastAPI(title="legalkg", description="German federal statutes: search, get_unit, verify, context, related")
    app.state.gates = gates
    install_errors(app)

    @app.get("/health")
    def health() -> dict[str, Any]:
        return {"ready": tools.ready, "problem": tools.problem, "tools": gates.snapshot()}

    @app.get("/tools")
    def list_tools(request: Request) -> dict[str, str]:
        check_token(request, token)
        return DESCRIPTIONS

    for name in TOOL_ARGS:
        app.add_api_route(f"/{name}", endpoint(tools, gates, name, token, heavy), methods=["POST"], name=name)
    if token is None:  # a browser sends no bearer token: the pages are served on loopback only
        mount_pages(app, tools)
    return app


def endpoint(tools: Tools, gates: Gates, name: str, token: str | None, heavy: HeavyVerifier | None):
    def work(args) -> bytes:
        if heavy is not None and name == "verify" and len(args.text) > HEAVY_CHARS:
            return heavy.verify_json(args.text, args.default_law)
        return encoded(tools.call(name, args))

    async def call(request: Request) -> Any:
        check_token(request, token)
        args = parse_args(name, await read_json(request))
        try:
            body = await gates.run(name, lambda: work(args), request.is_disconnected)
            return Response(body, media_type="application/json")
        except cancel.Cancelled:
            if gates.stopping:
                return error(503, "the server is stopping: retry on another one or later", **{"Retry-After": "5"})
            return error(499, "the request was cancelled")

    call.__name__ = name
    return call


class StoppingServer(uvicorn.Server if FastAPI is not None else object):
    """uvicorn's server that, on SIGTERM / Ctrl-C, sets every running call's cancel token at once:
    the requests in flight end at their next checkpoint (503, "the server is stopping") instead of
    running on through the graceful period."""

    def __init__(self, config, gates: Gates) -> None:
        super().__init__(config)
        self.gates = gates

    def handle_exit(self, sig, frame) -> None:
        self.gates.stopping = True
        self.gates.cancel_all()
        super().handle_exit(sig, frame)


def run_http(tools: Tools, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, *, token: str | None = None,
             heavy: HeavyVerifier | None = None) -> None:
    """Serve until SIGTERM / Ctrl-C; then the requests in flight get ``GRACEFUL_S`` seconds, the
    rest are cancelled, and a worker thread stuck past half a second more does not hold the process."""
    require_http()
    gates = Gates()
    app = build_app(tools, gates=gates, token=token, heavy=heavy)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=GRACEFUL_S,
                            timeout_keep_alive=5)
    server = StoppingServer(config, gates)
    # A CPU-bound call (a 1 MB verify) holds the GIL until the interpreter's switch interval forces
    # a hand-over; each of a search's many I/O returns waited up to that long. 1 ms instead of 5.
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    try:
        server.run()
    finally:
        gates.cancel_all()
        if heavy is not None:
            heavy.close()
        deadline = time.monotonic() + 0.5
        while gates.busy_threads() and time.monotonic() < deadline:
            time.sleep(0.05)
        if gates.busy_threads():
            os._exit(0)  # a call past its checkpoints (a driver wait): exit does not join its thread
