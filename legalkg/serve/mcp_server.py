"""``legalkg serve --mcp``: the tools as an MCP server over stdio (the ``mcp`` SDK).

Why stdio: an agent host (Claude Desktop, an IDE, ``mcp.client.stdio``) starts the server as a
child process and talks JSON-RPC over its stdin/stdout; nothing listens on a port. Nothing else
may write to stdout then, so the server logs to stderr only.

The SDK renamed its server class (``FastMCP`` in 1.x, ``MCPServer`` in 2.x); both have the same
``tool`` decorator, so either is taken. Without the ``serve`` extra ``require_mcp`` says so in one line.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import UserError
from .tools import DESCRIPTIONS, LINK_LIMIT, Tools

try:
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
except ImportError:  # mcp 1.x, or no mcp at all
    try:
        from mcp.server.fastmcp import FastMCP as MCPServer
        from mcp.server.fastmcp.exceptions import ToolError
    except ImportError:
        MCPServer = ToolError = None

INSTALL_HINT = "install legalkg[serve] (pip install 'legalkg[serve]'): it brings mcp, fastapi and uvicorn"
INSTRUCTIONS = ("German federal statutes as a graph. Use `search` or `context` to find units, `get_unit` to read "
                "one with its neighbours, `related` for its neighbourhood with counts, and `verify` to check "
                "the statute citations of an answer before giving it.")


def require_mcp() -> None:
    if MCPServer is None:
        raise UserError(f"`legalkg serve --mcp` needs the mcp package: {INSTALL_HINT}")


def _answer(call: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """The tool's result; a ``UserError`` becomes a ``ToolError``, whose one line the SDK hands to
    the model as the result (any other exception it reports only as "Error executing tool")."""
    try:
        return call()
    except UserError as err:
        raise ToolError(str(err)) from None


def build_server(tools: Tools):
    """An MCP server whose five tools call ``tools``."""
    require_mcp()
    server = MCPServer("legalkg", instructions=INSTRUCTIONS)

    @server.tool(name="search", description=DESCRIPTIONS["search"])
    def search(query: str, level: str = "§", k: int = 5, mode: str = "learned", expand: str = "none",
               law: str | None = None, task: str | None = None) -> dict[str, Any]:
        return _answer(lambda: tools.search(query, level=level, k=k, mode=mode, expand=expand, law=law, task=task))

    @server.tool(name="get_unit", description=DESCRIPTIONS["get_unit"])
    def get_unit(citation: str | None = None, id: str | None = None) -> dict[str, Any]:  # noqa: A002
        return _answer(lambda: tools.get_unit(citation=citation, id=id))

    @server.tool(name="verify", description=DESCRIPTIONS["verify"])
    def verify(text: str, default_law: str | None = None) -> dict[str, Any]:
        return _answer(lambda: tools.verify(text, default_law))

    @server.tool(name="context", description=DESCRIPTIONS["context"])
    def context(query: str, budget: int = 1000, task: str | None = None, law: str | None = None) -> dict[str, Any]:
        return _answer(lambda: tools.context(query, budget=budget, task=task, law=law))

    @server.tool(name="related", description=DESCRIPTIONS["related"])
    def related(citation: str | None = None, id: str | None = None, limit: int = LINK_LIMIT) -> dict[str, Any]:  # noqa: A002
        return _answer(lambda: tools.related(citation=citation, id=id, limit=limit))

    return server


def run_stdio(tools: Tools) -> None:
    build_server(tools).run("stdio")
