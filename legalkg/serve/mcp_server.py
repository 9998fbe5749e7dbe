"""``legalkg serve --mcp``: the tools as an MCP server over stdio (the ``mcp`` SDK).

Why stdio: an agent host (Claude Desktop, an IDE, ``mcp.client.stdio``) starts the server as a
child process and talks JSON-RPC over its stdin/stdout; nothing listens on a port. Nothing else
may write to stdout then, so the server logs to stderr only.

The SDK renamed its server class (``FastMCP`` in 1.x, ``MCPServer`` in 2.x); both have the same
``tool`` decorator, so either is taken. Without the ``serve`` extra ``require_mcp`` says so in one line.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ConfigDict

from ..errors import UserError
from .args import TOOL_ARGS, parse_args
from .tools import DESCRIPTIONS, Tools

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
        raise ToolError(" ".join(str(err).split())[:400]) from None


class PassThrough(BaseModel):
    """The SDK's argument model for every tool, replaced: it hands the arguments over untouched, so
    that ``serve.args`` checks them as for HTTP (the SDK's own model ignored unknown arguments and
    answered a wrong type in four lines with a URL)."""

    model_config = ConfigDict(extra="allow")

    def model_dump_one_level(self) -> dict[str, Any]:
        return {"arguments": dict(self.model_extra or {})}


def build_server(tools: Tools):
    """An MCP server whose tools call ``tools``, each with the JSON schema of its ``serve.args`` model."""
    require_mcp()
    server = MCPServer("legalkg", instructions=INSTRUCTIONS)
    for name in TOOL_ARGS:
        register(server, tools, name)
    return server


def register(server, tools: Tools, name: str) -> None:
    def run(arguments: dict[str, Any]) -> dict[str, Any]:
        return _answer(lambda: tools.call(name, parse_args(name, arguments)))

    server.tool(name=name, description=DESCRIPTIONS[name])(run)
    tool = server._tool_manager.get_tool(name)  # noqa: SLF001 - the SDK has no public hook for this
    tool.fn_metadata.arg_model = PassThrough
    tool.parameters = TOOL_ARGS[name].model_json_schema()


def run_stdio(tools: Tools) -> None:
    # the SDK logs every failed call at INFO to stderr, several lines each: the answer says it once
    logging.getLogger("mcp").setLevel(logging.WARNING)
    build_server(tools).run("stdio")
