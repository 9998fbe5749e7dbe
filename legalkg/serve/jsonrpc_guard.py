"""The JSON-RPC lines that the MCP SDK would drop without an answer, answered in one line (pure).

Why: the SDK's stdio reader validates each line and, when that fails, drops it: a ``tools/call``
whose ``params`` is ``"x"`` or nested 50,000 deep was never answered and the client waited for
ever. ``problem`` checks a line the way the SDK will (its own message model), and for a request
that fails it gives the error to send instead: its id (found even in a line too deep to parse),
``INVALID_PARAMS`` when the fault is in ``params``, else ``INVALID_REQUEST``. Lines over
``MAX_LINE_CHARS`` are cut by the reader and answered the same way, so one line never holds more
than that in memory.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

#: JSON-RPC 2.0 error codes.
PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS = -32700, -32600, -32602
#: The longest line read (the HTTP API reads bodies of at most 8,000,000 bytes; texts are <= 1,000,000 characters).
MAX_LINE_CHARS = 8_000_000
#: Nesting deeper than this is refused before any parser sees it (a tool's arguments need 3 levels).
MAX_DEPTH = 64

_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]]')
_ID_VALUE = re.compile(r'\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*"|null)')


def scan(line: str) -> tuple[int, Any]:
    """(deepest nesting of ``line``, its top-level ``"id"`` or None), without parsing it: brackets and
    strings only, so a line nested 50,000 deep costs one pass and no recursion."""
    depth = deepest = 0
    found: Any = None
    for m in _TOKEN.finditer(line):
        token = m.group()
        if token in "{[":
            depth += 1
            deepest = max(deepest, depth)
        elif token in "}]":
            depth -= 1
        elif depth == 1 and token == '"id"' and found is None:
            value = _ID_VALUE.match(line, m.end())
            if value:
                found = json.loads(value.group(1))
    return deepest, found


def error_line(rid: Any, code: int, message: str) -> str:
    """One JSON-RPC error response line (without the newline)."""
    return json.dumps({"jsonrpc": "2.0", "id": rid, "error": {"code": code, "message": message}},
                      ensure_ascii=False, separators=(",", ":"))


def too_long(head: str) -> str:
    """The answer to a line over ``MAX_LINE_CHARS`` (``head``: its first characters)."""
    _, rid = scan(head)
    return error_line(rid, INVALID_REQUEST, f"invalid request: a message line over {MAX_LINE_CHARS:,} characters; "
                                            "send shorter arguments (texts up to 1,000,000 characters)")


def problem(line: str, validate: Callable[[str], object]) -> str | None:
    """The error line to answer ``line`` with, or None to hand it to the SDK: a request (it has an
    id) that the SDK's ``validate`` refuses, or that is nested deeper than ``MAX_DEPTH``. Lines
    without an id (notifications, blank lines, garbage) go to the SDK as before."""
    if not line.strip():
        return None
    deepest, rid = scan(line)
    if rid is None:
        return None
    if deepest > MAX_DEPTH:
        return error_line(rid, INVALID_PARAMS, f"invalid params: nested {deepest:,} levels deep, more than the "
                                               f"{MAX_DEPTH} allowed")
    try:
        validate(line)
    except ValueError as err:
        reason = _reason(err)
    else:
        return None
    message = _parsed(line)
    if not isinstance(message, dict) or ("method" not in message and ({"result", "error"} & message.keys())):
        return None  # a client's (malformed) response to the server: nobody waits for an answer
    params = message.get("params")
    if params is not None and not isinstance(params, dict):
        return error_line(rid, INVALID_PARAMS, f"invalid params: params must be a JSON object, not "
                                               f"{_kind(params)}")
    return error_line(rid, INVALID_REQUEST, f"invalid request: {reason}; a JSON-RPC 2.0 request is "
                                            '{"jsonrpc": "2.0", "id": ..., "method": "...", "params": {...}}')


def _reason(err: ValueError) -> str:
    """The first thing the SDK's model refused, in one short line ("method: Input should be a valid
    string", "Invalid JSON: lone leading surrogate ...")."""
    errors = err.errors() if callable(getattr(err, "errors", None)) else []
    if not errors:
        return " ".join(str(err).split())[:200]
    first = errors[0]
    where = ".".join(str(part) for part in first.get("loc", ())[1:])
    return " ".join(f"{where + ': ' if where else ''}{first.get('msg', '')}".split())[:200]


def _parsed(line: str) -> Any:
    try:
        return json.loads(line)
    except ValueError:
        return None


def _kind(value: Any) -> str:
    names = {str: "a string", list: "an array", bool: "a boolean", int: "a number", float: "a number"}
    return names.get(type(value), type(value).__name__)
