"""``legalkg serve --http``: the same tools as a small JSON API (FastAPI), on 127.0.0.1 by default.

Why POST with a JSON body for every tool: the arguments are the MCP tools' arguments, so one
client can switch transports; ``GET /tools`` lists them. A bad argument is HTTP 400 with
``{"error": "<one line>"}``, never a traceback.
"""

from __future__ import annotations

from typing import Any

from ..errors import UserError
from .mcp_server import INSTALL_HINT
from .tools import DESCRIPTIONS, Tools

try:
    import uvicorn
    from fastapi import Body, FastAPI
    from fastapi.responses import JSONResponse

    from .web import mount as mount_pages
except ImportError:
    FastAPI = None

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765


def require_http() -> None:
    if FastAPI is None:
        raise UserError(f"`legalkg serve --http` needs fastapi and uvicorn: {INSTALL_HINT}")


def build_app(tools: Tools):
    require_http()
    app = FastAPI(title="legalkg", description="German federal statutes: search, get_unit, verify, context, related")

    @app.exception_handler(UserError)
    async def user_error(_request, err: UserError):
        return JSONResponse(status_code=400, content={"error": str(err)})

    @app.get("/tools")
    def list_tools() -> dict[str, str]:
        return DESCRIPTIONS

    @app.post("/search")
    def search(body: dict[str, Any] = Body(...)) -> dict[str, Any]:  # noqa: B008 - FastAPI's idiom
        return tools.search(**_args(body, ("query", "level", "k", "mode", "expand", "law", "task")))

    @app.post("/get_unit")
    def get_unit(body: dict[str, Any] = Body(...)) -> dict[str, Any]:  # noqa: B008
        return tools.get_unit(**_args(body, ("citation", "id")))

    @app.post("/verify")
    def verify(body: dict[str, Any] = Body(...)) -> dict[str, Any]:  # noqa: B008
        return tools.verify(**_args(body, ("text", "default_law")))

    @app.post("/context")
    def context(body: dict[str, Any] = Body(...)) -> dict[str, Any]:  # noqa: B008
        return tools.context(**_args(body, ("query", "budget", "task", "law")))

    @app.post("/related")
    def related(body: dict[str, Any] = Body(...)) -> dict[str, Any]:  # noqa: B008
        return tools.related(**_args(body, ("citation", "id", "limit")))

    mount_pages(app, tools)
    return app


def _args(body: dict[str, Any], allowed: tuple[str, ...]) -> dict[str, Any]:
    unknown = sorted(set(body) - set(allowed))
    if unknown:
        raise UserError(f"unknown argument(s) {', '.join(unknown)}: this tool takes {', '.join(allowed)}")
    if allowed[0] not in body:
        if allowed[0] == "citation" and "id" in body:
            return body
        raise UserError(f"missing argument {allowed[0]!r}")
    return body


def run_http(tools: Tools, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT) -> None:
    require_http()
    uvicorn.run(build_app(tools), host=host, port=port, log_level="warning")
