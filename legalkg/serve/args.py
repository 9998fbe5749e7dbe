"""The tools' arguments: one pydantic model per tool, the one check that HTTP and MCP share.

Why strict models at the boundary: before, each transport passed what it got on, and a value of
the wrong JSON type reached code that called ``.strip()`` on it (HTTP 500 for ``level: 5``), while
MCP accepted an unknown argument that HTTP refused. Now both call ``parse_args``: unknown
arguments, missing ones and wrong JSON types are one ``UserError`` line naming the argument, the
type it must have and the type it got, never the value itself (a 1 MB id is not echoed). What the
values mean (a known level, k in range, a budget) the library checks after, as for the CLI.
"""

from __future__ import annotations

import types
from typing import Any, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..errors import UserError, short
from ..textin import MAX_CHARS
from ..vocab import (
    AUTO_MODE,
    DEFAULT_EXPANSION,
    DEFAULT_K,
    DEFAULT_LEVEL,
    DEFAULT_MODE,
    Expansion,
    Mode,
    RetrievalLevel,
)

#: Most rows of ``cites`` and ``cited_by`` that ``get_unit`` returns, and ``related``'s default and cap.
LINK_LIMIT = 100

#: Longest name-like argument (a level, a mode, a law id, a task) and longest id or citation.
NAME_CHARS = 200
ID_CHARS = 2_000


class ToolArgs(BaseModel):
    """No extra arguments, no coercion: a number is no string and a string no number."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class SearchArgs(ToolArgs):
    query: str = Field(description="a question or statute text", max_length=MAX_CHARS)
    level: str = Field(str(DEFAULT_LEVEL), max_length=NAME_CHARS,
                       description=f"{', '.join(RetrievalLevel)} (or an alias)")
    k: int = Field(DEFAULT_K, description="how many seed units (1-1000)")
    mode: str = Field(str(DEFAULT_MODE), max_length=NAME_CHARS, description=", ".join([*Mode, AUTO_MODE]))
    expand: str = Field(str(DEFAULT_EXPANSION), max_length=NAME_CHARS, description=", ".join(Expansion))
    law: str | None = Field(None, max_length=NAME_CHARS,
                            description="a law id such as BGB, 'auto', or null for every law")
    task: str | None = Field(None, max_length=NAME_CHARS, description="lay or case (null: by the query's length)")


class GetUnitArgs(ToolArgs):
    citation: str | None = Field(None, max_length=ID_CHARS, description="a citation such as '§ 433 Abs. 1 BGB'")
    id: str | None = Field(None, max_length=ID_CHARS, description="a unit id such as 'BGB/§433/Abs1'")


class VerifyArgs(ToolArgs):
    text: str = Field(description="the text whose statute citations to check", max_length=MAX_CHARS)
    default_law: str | None = Field(None, max_length=NAME_CHARS,
                                    description="the law of a citation that names none ('§ 5')")
    definitions: bool = Field(False, description="also the legal definition that applies to each defined term "
                                                 "a citing sentence uses (as `legalkg verify --definitions`)")


class ContextArgs(ToolArgs):
    query: str = Field(description="the question the prompt answers", max_length=MAX_CHARS)
    budget: int = Field(1000, description="words of statute text the prompt can spend")
    task: str | None = Field(None, max_length=NAME_CHARS, description="lay or case")
    law: str | None = Field(None, max_length=NAME_CHARS, description="a law id, 'auto', or null")


class RelatedArgs(ToolArgs):
    citation: str | None = Field(None, max_length=ID_CHARS, description="a citation such as '§ 433 BGB'")
    id: str | None = Field(None, max_length=ID_CHARS, description="a unit id such as 'BGB/§433'")
    limit: int = Field(LINK_LIMIT, description=f"rows per list (1-{LINK_LIMIT})")


#: tool name -> its arguments
TOOL_ARGS: dict[str, type[ToolArgs]] = {"search": SearchArgs, "get_unit": GetUnitArgs, "verify": VerifyArgs,
                                        "context": ContextArgs, "related": RelatedArgs}


def json_type(value: object) -> str:
    """The JSON name of a parsed JSON value's type."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    return {str: "a string", list: "a list", dict: "an object"}.get(type(value), type(value).__name__)


def wanted(annotation: Any) -> str:
    """What an argument must be, in JSON words."""
    if get_origin(annotation) in (Union, types.UnionType):
        names = [wanted(a) for a in get_args(annotation)]
        return " or ".join(names)
    return {str: "a string", int: "a whole number", bool: "a boolean", type(None): "null"}.get(annotation,
                                                                                             str(annotation))


def parse_args(tool: str, body: object) -> ToolArgs:
    """``body`` (parsed JSON) as the arguments of ``tool``; a one-line ``UserError`` otherwise."""
    model = TOOL_ARGS[tool]
    fields = ", ".join(model.model_fields)
    if not isinstance(body, dict):
        raise UserError(f"{tool} takes a JSON object of arguments ({fields}), not {json_type(body)}")
    unknown = sorted(str(k) for k in body if k not in model.model_fields)
    if unknown:
        names = ", ".join(short(k, 40) for k in unknown[:5]) + (", ..." if len(unknown) > 5 else "")
        raise UserError(f"unknown argument(s) {names}: {tool} takes {fields}")
    try:
        return model.model_validate(body)
    except ValidationError as err:
        first = err.errors(include_url=False)[0]
        name = str(first["loc"][0]) if first["loc"] else tool
        if first["type"] == "missing":
            raise UserError(f"missing argument {name!r}: {tool} takes {fields}") from None
        if first["type"] == "string_too_long":
            limit = first.get("ctx", {}).get("max_length", 0)
            raise UserError(f"argument {name!r} of {tool} is longer than {limit:,} characters: shorten it") from None
        if first["type"] == "string_unicode":  # a lone surrogate (JSON "\ud800") is no text
            raise UserError(f"argument {name!r} of {tool} holds a lone UTF-16 surrogate (such as \\ud800), which "
                            "is not text: send valid UTF-8") from None
        field = model.model_fields.get(name)
        want = wanted(field.annotation) if field else "valid"
        raise UserError(f"argument {name!r} of {tool} must be {want}, not {json_type(first.get('input'))}") from None
