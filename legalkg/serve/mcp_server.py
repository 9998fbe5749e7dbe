"""``legalkg serve --mcp``: the tools as an MCP server over stdio (the ``mcp`` SDK).

Why stdio: an agent host (Claude Desktop, an IDE, ``mcp.client.stdio``) starts the server as a
child process and talks JSON-RPC over its stdin/stdout; nothing listens on a port. Nothing else
may write to stdout then, so the server logs to stderr only.

The SDK renamed its server class (``FastMCP`` in 1.x, ``MCPServer`` in 2.x); both have the same
``tool`` decorator, so either is taken. Without the ``serve`` extra ``require_mcp`` says so in one line.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable
from io import TextIOWrapper
from typing import Any

from pydantic import BaseModel, ConfigDict

from ..errors import UserError
from .args import TOOL_ARGS, parse_args
from .jsonrpc_guard import MAX_LINE_CHARS, problem, too_long
from .tools import DESCRIPTIONS, Tools

try:
    import anyio
except ImportError:  # no serve extra: require_mcp says so
    anyio = None
try:
    from mcp_types import jsonrpc_message_adapter
except ImportError:  # mcp 1.x keeps its types in mcp.types
    try:
        from mcp.types import JSONRPCMessage
        from pydantic import TypeAdapter
        jsonrpc_message_adapter = TypeAdapter(JSONRPCMessage)
    except ImportError:
        jsonrpc_message_adapter = None
try:
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
except ImportError:  # mcp 1.x, or no mcp at all
    try:
        from mcp.server.fastmcp import FastMCP as MCPServer
        from mcp.server.fastmcp.exceptions import ToolError
    except ImportError:
        MCPServer = ToolError = None
try:
    from mcp.server.stdio import stdio_server
except ImportError:  # no serve extra: require_mcp says so
    stdio_server = None

INSTALL_HINT = "install legalkg[serve] (pip install 'legalkg[serve]'): it brings mcp, fastapi and uvicorn"
INSTRUCTIONS = ("German federal statutes as a graph. Use `search` or `context` to find units, `get_unit` to read "
                "one with its neighbours, `related` for its neighbourhood with counts, and `verify` to check "
                "the statute citations of an answer before giving it.")


def require_mcp() -> None:
    if MCPServer is None:
        raise UserError(f"`legalkg serve --mcp` needs the mcp package: {INSTALL_HINT}")


def _answer(call: Callable[[], str]) -> str:
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
    def run(arguments: dict[str, Any]) -> str:
        return _answer(lambda: tools.call_json(name, parse_args(name, arguments)).decode())

    # the answer once, as compact JSON text: as structured content the SDK sent it twice, the text
    # copy indented (a chain of bare numbers was 258x its input over MCP, 99x over HTTP)
    server.tool(name=name, description=DESCRIPTIONS[name], structured_output=False)(run)
    tool = server._tool_manager.get_tool(name)  # noqa: SLF001 - the SDK has no public hook for this
    tool.fn_metadata.arg_model = PassThrough
    tool.parameters = TOOL_ARGS[name].model_json_schema()


def run_stdio(tools: Tools) -> None:
    # the SDK logs every failed call at INFO to stderr, several lines each: the answer says it once
    logging.getLogger("mcp").setLevel(logging.WARNING)
    anyio.run(serve_guarded, build_server(tools))


def validate(line: str) -> object:
    return jsonrpc_message_adapter.validate_json(line, by_name=False)


class GuardedStdio:
    """The wire for the SDK's ``stdio_server``: lines of at most ``MAX_LINE_CHARS``, and every request
    the SDK would drop unanswered (``jsonrpc_guard.problem``) answered here with a JSON-RPC error.
    Both writers share one lock, so lines never interleave."""

    def __init__(self, wire_in, wire_out) -> None:
        self.wire_in = TextIOWrapper(wire_in, encoding="utf-8", errors="replace")
        self.wire_out = TextIOWrapper(wire_out, encoding="utf-8")
        self.lock = anyio.Lock()

    async def write(self, text: str) -> None:
        async with self.lock:
            await anyio.to_thread.run_sync(self.wire_out.write, text)

    async def flush(self) -> None:
        await anyio.to_thread.run_sync(self.wire_out.flush)

    def __aiter__(self):
        return self.lines()

    async def lines(self):
        while line := await anyio.to_thread.run_sync(self.wire_in.readline, MAX_LINE_CHARS):
            answer = None
            if not line.endswith("\n") and len(line) >= MAX_LINE_CHARS:
                while (rest := await anyio.to_thread.run_sync(self.wire_in.readline, MAX_LINE_CHARS)) \
                        and not rest.endswith("\n"):
                    pass  # the rest of an over-long line, dropped
                answer = too_long(line[:4096])
            else:
                answer = problem(line, validate)
            if answer is None:
                yield line
            else:
                await self.write(answer + "\n")
                await self.flush()


async def serve_guarded(server) -> None:
    """``server.run("stdio")`` with the wire guarded (``GuardedStdio``). As the SDK does, fd 0 and 1
    point at the null device and stderr while serving, so stray output never reaches the wire."""
    wire_in, wire_out = os.fdopen(os.dup(0), "rb"), os.fdopen(os.dup(1), "wb")
    sys.stdout.flush()
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(2, 1)
    os.close(null)
    wire = GuardedStdio(wire_in, wire_out)
    low = getattr(server, "_lowlevel_server", None) or server._mcp_server  # noqa: SLF001 - 2.x / 1.x
    async with stdio_server(wire, wire) as (read_stream, write_stream):
        await low.run(read_stream, write_stream, low.create_initialization_options())
