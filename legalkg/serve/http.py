"""``legalkg serve --http``: the same tools as a small JSON API (FastAPI), on 127.0.0.1 by default.

Why POST with a JSON body for every tool: the arguments are the MCP tools' arguments, so one
client can switch transports; ``GET /tools`` lists them, ``GET /health`` says whether the server
can answer now (200, or 503 with the problem: ``serve.health`` asks Neo4j each time). Every
error has one shape, ``{"error": "<one line>"}``: 400 for a bad argument (the shared
``serve.args`` models), 401 without the token, 404/405 for a wrong path or method (a
browser asking for HTML gets the pages' 404 page), 408 for a body slower than ``BODY_TIMEOUT_S``,
413 for a body over ``MAX_BODY_BYTES``, 415 for a body not sent as JSON, 421 for a Host that is
not this machine (loopback, ``origin.LocalOnly``), 503 with
``Retry-After`` when a tool is full, Neo4j is not reachable or the graph is not ready (no finished
law, the unit's law half loaded), 500 only for a bug (logged with its traceback, never sent).
"""

from __future__ import annotations

import asyncio
import errno
import hmac
import json
import logging
import os
import signal
import socket
import sys
import time
from typing import Any

from neo4j import exceptions as nx

from .. import cancel
from ..errors import NotReady, UserError
from .args import TOOL_ARGS, parse_args
from .gates import RETRY_AFTER_S, Busy, Gates
from .health import Health
from .mcp_server import INSTALL_HINT
from .origin import LocalOnly
from .tools import DESCRIPTIONS, Tools
from .warmup import warm_app

try:
    import uvicorn
    from fastapi import FastAPI, Request
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import JSONResponse, Response
    from starlette.exceptions import HTTPException
    from starlette.requests import ClientDisconnect

    from .deadline import HeaderDeadline
    from .web import mount as mount_pages
except ImportError:
    FastAPI = None

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
#: Largest request body: verify's 1,000,000 characters, JSON-escaped (UTF-8 up to 4 bytes each).
MAX_BODY_BYTES = 8_000_000
#: Seconds a request body may take to arrive (a client sending 10 bytes a second held a thread's
#: worth of the server for good): 408 after that.
BODY_TIMEOUT_S = 30
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
    async def http_error(request, err: HTTPException):
        return await http_answer(request, err)

    app.add_exception_handler(cancel.Cancelled, cancelled)
    app.add_exception_handler(ClientDisconnect, hung_up)

    @app.exception_handler(nx.DriverError)
    async def neo4j_down(request, err: Exception):
        return await unavailable(request, "Neo4j is not reachable: retry later (the server's log names the cause)")

    @app.exception_handler(nx.Neo4jError)
    async def neo4j_error(request, err: nx.Neo4jError):
        if isinstance(err, nx.ServiceUnavailable | nx.SessionExpired | nx.TransientError):
            return await unavailable(request, "Neo4j is not reachable or busy: retry later")
        log.error("Neo4j error: %s", err)
        return error(500, "internal error: Neo4j refused a query (see the server's log)")

    @app.exception_handler(Exception)
    async def bug(_request, err: Exception):
        log.exception("unexpected error")
        return error(500, f"internal error ({type(err).__name__}): see the server's log")


async def http_answer(request: Request, err: HTTPException) -> Response:
    """The error line; a browser (asking for HTML) on a server with the pages gets their 404 page."""
    page = getattr(request.app.state, "html_not_found", None)
    if err.status_code == 404 and page is not None and "text/html" in request.headers.get("accept", ""):
        return await asyncio.to_thread(page, request)
    return error(err.status_code, err.detail if isinstance(err.detail, str) else "request refused")


async def unavailable(request: Request, message: str) -> Response:
    """503 with ``Retry-After`` while Neo4j is away; a browser on a page (not a tool's route) gets the
    page with the line, not the JSON API's ``{"error": ...}`` as bare text."""
    page = getattr(request.app.state, "html_error", None)
    if (page is not None and "text/html" in request.headers.get("accept", "")
            and request.url.path.strip("/") not in TOOL_ARGS):
        response = await asyncio.to_thread(page, request, 503, message)
        response.headers["Retry-After"] = "5"
        return response
    return error(503, message, **{"Retry-After": "5"})


async def cancelled(request: Request, _err: cancel.Cancelled) -> JSONResponse:
    """A page's call that was cancelled (the tools' routes answer their own): no traceback in the log."""
    if request.app.state.gates.stopping:
        return error(503, "the server is stopping: retry on another one or later", **{"Retry-After": "5"})
    return error(499, "the request was cancelled")


async def hung_up(_request: Request, _err: Exception) -> Response:
    """The client went away mid-body: nobody reads an answer, and a traceback per hang-up (two,
    7 KB) let 200 aborted requests write 1.5 MB of log."""
    return Response(status_code=499)


async def read_json(request: Request) -> Any:
    """The body as JSON, at most ``MAX_BODY_BYTES``; 400/413 in one line otherwise."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json" and not kind.endswith("+json"):
        # a browser sends text/plain or a form to any site without asking it first: no tool call
        raise HTTPException(415, f"the body must be sent as Content-Type: application/json, not {kind[:40]!r}")
    size = int(request.headers.get("content-length") or 0)
    if size > MAX_BODY_BYTES:
        raise HTTPException(413, f"the body has {size:,} bytes, more than the {MAX_BODY_BYTES:,} this server reads")
    chunks: list[bytes] = []
    total = 0
    try:
        async with asyncio.timeout(BODY_TIMEOUT_S):
            async for chunk in request.stream():
                total += len(chunk)
                if total > MAX_BODY_BYTES:
                    raise HTTPException(413, f"the body is longer than the {MAX_BODY_BYTES:,} bytes this server reads")
                chunks.append(chunk)
    except TimeoutError:
        raise HTTPException(408, f"the body did not arrive within {BODY_TIMEOUT_S} s: send it at once") from None
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


def build_app(tools: Tools, *, gates: Gates | None = None, token: str | None = None):
    """The FastAPI app over ``tools``: one route per tool of ``serve.args.TOOL_ARGS`` (the server's
    ``workers.ServedTools`` hand the CPU-bound calls to worker processes)."""
    require_http()
    gates = gates or Gates()
    # With a token, every route needs it: /health too, and FastAPI's /docs, /redoc and /openapi.json
    # (which answered anyone) are off.
    open_docs = {} if token is None else {"docs_url": None, "redoc_url": None, "openapi_url": None}
    app = FastAPI(title="legalkg", description="German federal statutes: search, get_unit, verify, context, related",
                  **open_docs)
    app.state.gates = gates
    install_errors(app)

    health = Health(tools)

    @app.get("/health")
    def health_route(request: Request) -> Response:
        """200 when Neo4j answers and the graph holds a finished law, else 503 with the problem in one
        line; asked of Neo4j each time, answered within ``health.HEALTH_S`` (``serve.health``)."""
        check_token(request, token)
        problem = health.problem()
        body = {"ready": problem is None, "problem": problem and one_line(problem), "tools": gates.snapshot()}
        if problem is None:
            return JSONResponse(body)
        return JSONResponse(body, status_code=503, headers={"Retry-After": "5"})

    @app.get("/tools")
    def list_tools(request: Request) -> dict[str, str]:
        check_token(request, token)
        return DESCRIPTIONS

    for name in TOOL_ARGS:
        app.add_api_route(f"/{name}", endpoint(tools, gates, name, token), methods=["POST"], name=name)
    if token is None:  # a browser sends no bearer token: the pages are served on loopback only
        mount_pages(app, tools)
    return app


def endpoint(tools: Tools, gates: Gates, name: str, token: str | None):
    async def call(request: Request) -> Any:
        check_token(request, token)
        args = parse_args(name, await read_json(request))
        try:
            body = await gates.run(name, lambda: tools.call_json(name, args), request.is_disconnected)
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


def bind(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT) -> socket.socket:
    """The server's socket, bound but not yet listening: ``serve`` takes the port before it loads
    its models (a taken port is one line at once, not after the warm-up), and clients are refused
    until the server listens, ready."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as err:
        sock.close()
        if err.errno == errno.EADDRINUSE:
            raise UserError(f"port {port} on {host} is taken by another process: stop it or choose "
                            "another --port") from None
        raise UserError(f"cannot listen on {host}:{port} ({err.strerror}): check --host and --port") from None
    return sock


def listen(sock: socket.socket, host: str, port: int) -> None:
    """Open the bound port; one line when a server that started beside this one listens there first
    (with SO_REUSEADDR both could bind, only one can listen)."""
    try:
        sock.listen(2048)
    except OSError:
        sock.close()
        raise UserError(f"port {port} on {host} is taken by another process: stop it or choose "
                        "another --port") from None


class Terminated(BaseException):
    """SIGTERM reached the process: raised by ``run_http``'s handler so its cleanup runs."""


def _terminated(_sig, _frame) -> None:
    raise Terminated


def http_config(app, host: str, port: int) -> uvicorn.Config:
    """How uvicorn serves ``app``: h11 with a deadline for each request's headers
    (``deadline.HeaderDeadline``), idle keep-alive connections closed after 5 s, and
    ``GRACEFUL_S`` for the calls in flight at SIGTERM."""
    return uvicorn.Config(app, host=host, port=port, log_level="warning", http=HeaderDeadline,
                          timeout_graceful_shutdown=GRACEFUL_S, timeout_keep_alive=5)


def run_http(tools: Tools, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, *, token: str | None = None,
             sock: socket.socket | None = None) -> None:
    """Serve until SIGTERM / Ctrl-C; then the requests in flight get ``GRACEFUL_S`` seconds, the
    rest are cancelled, and a worker thread stuck past half a second more does not hold the process.
    Before the port opens, every page and tool route is asked once (``warmup.warm_app``), so the
    first requests find the models, templates and query plans in.

    Why the SIGTERM handler: uvicorn re-raises the signal it caught once it has stopped; with the
    default action that killed the process on the spot, and the worker processes of ``tools`` lived on
    as orphans. Raised as ``Terminated``, the cleanup below runs first, then the process ends by
    SIGTERM as before (exit status -15 for its parent)."""
    require_http()
    gates = Gates()
    app = build_app(tools, gates=gates, token=token)
    # the Host check guards a loopback server (without a token) from pages of other sites
    server = StoppingServer(http_config(LocalOnly(app, check_host=token is None), host, port), gates)
    # A CPU-bound call (a 1 MB verify) holds the GIL until the interpreter's switch interval forces
    # a hand-over; each of a search's many I/O returns waited up to that long. 1 ms instead of 5.
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    previous = signal.signal(signal.SIGTERM, _terminated)
    terminated = False
    try:
        warm_app(app, token)
        if sock is not None:
            listen(sock, host, port)
        server.run(sockets=[sock] if sock is not None else None)
    except Terminated:
        terminated = True
    finally:
        signal.signal(signal.SIGTERM, previous)
        stuck = stop(gates, tools)
        if terminated:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            signal.raise_signal(signal.SIGTERM)
        if stuck:
            os._exit(0)  # interpreter exit would join the stuck thread


def stop(gates: Gates, tools: Tools) -> bool:
    """Cancel the calls still running and kill the worker processes; True when a tool thread is still
    stuck half a second later, past its checkpoints (a driver wait)."""
    gates.cancel_all()
    tools.close()
    deadline = time.monotonic() + 0.5
    while gates.busy_threads() and time.monotonic() < deadline:
        time.sleep(0.05)
    return gates.busy_threads() > 0
