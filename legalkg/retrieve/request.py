"""``SearchRequest``: one search, validated and normalised once, where it enters.

Why a model of its own: the CLI, the Python API and the benchmarks all start searches. Cleaning
the query text, resolving aliases (``§``, ``naive``, ``Fusion``), the ``-k`` range, the CLI's
``--mode auto``, ``--law auto`` (the law router's), the learned mode's task and the rule that chunks
are never expanded are decided here, so
``Retriever.search`` works on values that are already right, and every bad input becomes the same
one-line ``UserError`` naming the fix.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from ..errors import UserError, short
from ..vocab import (
    AUTO_MODE,
    DEFAULT_EXPANSION,
    DEFAULT_K,
    DEFAULT_LEVEL,
    DEFAULT_MODE,
    LEARNED_LEVELS,
    Expansion,
    Mode,
    RetrievalLevel,
    Task,
    check_k,
    parse_expansion,
    parse_level,
    parse_mode,
    parse_task,
)
from .laws import AUTO_LAW

MAX_QUERY_CHARS = 20_000


def clean_query(text: str | None) -> str:
    """Drop control characters, collapse whitespace, refuse empty, cap very long input."""
    if text is None:
        raise UserError("the query is empty: give a question or some statute text")
    if not isinstance(text, str):
        raise UserError(f"the query must be text, not {type(text).__name__}")
    cleaned = " ".join(text.split())
    if not cleaned.isprintable():
        # isprintable() is False for every category-C character (and for whitespace other than
        # " ", which split() already removed): only then walk the characters. A per-character
        # walk of every query cost about as much as the vector search itself (ad-hoc profile).
        cleaned = "".join(ch if unicodedata.category(ch)[0] != "C" else " " for ch in text)
        cleaned = " ".join(cleaned.split())
    if not cleaned:
        raise UserError("the query is empty: give a question or some statute text")
    return cleaned[:MAX_QUERY_CHARS]


def auto_mode(level: RetrievalLevel, law: str | None = None) -> Mode:
    """``--mode auto``: the learned mode at the levels the statute predictor covers (§ ... Nummer,
    any law: where the predictor has no labels, its other runs still answer), vector search below
    and for chunks."""
    return Mode.LEARNED if level in LEARNED_LEVELS else Mode.VECTOR


def _as_int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise UserError(f"-k must be a whole number, not {short(value)}")
    try:
        return int(value)
    except ValueError:
        raise UserError(f"-k must be a whole number, not {short(value)}") from None


class SearchRequest(BaseModel):
    """What to search for and how. Build it with keywords; strings are accepted for the enums
    (any case, level aliases, ``mode="auto"``). Invalid input raises a one-line ``UserError``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    query: str
    level: RetrievalLevel = DEFAULT_LEVEL
    k: int = DEFAULT_K
    mode: Mode = DEFAULT_MODE
    expand: Expansion = DEFAULT_EXPANSION
    #: A law id, ``auto`` (the law router chooses, ``legalkg.retrieve.laws``) or None (every law).
    law: str | None = None
    model: str | None = None
    #: The learned mode's predictor: ``lay``, ``case`` or None (by length, ``learned.choose_task``).
    task: Task | None = None
    #: Give ranked hits the learned ranker's feature contributions (``Hit.ranker``); off by default
    #: since they cost about as much as the ranking itself (``learned.explaining``).
    explain: bool = False

    def __init__(self, **data: Any) -> None:
        try:
            super().__init__(**data)
        except ValidationError as err:
            first = err.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "search request"
            raise UserError(f"invalid {where}: {first['msg']}") from None

    @model_validator(mode="before")
    @classmethod
    def _normalise(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        out = dict(data)
        out["query"] = clean_query(out.get("query"))
        level = parse_level(out.get("level", DEFAULT_LEVEL))
        out["level"] = level
        out["k"] = check_k(_as_int(out.get("k", DEFAULT_K)))
        mode = out.get("mode", DEFAULT_MODE)
        if isinstance(mode, str) and mode.strip().lower() == AUTO_MODE:
            out["mode"] = auto_mode(level, out.get("law"))
        else:
            out["mode"] = parse_mode(mode)
        if isinstance(out.get("law"), str) and out["law"].strip().lower() == AUTO_LAW:
            out["law"] = AUTO_LAW
        out["task"] = parse_task(out.get("task"))
        expand = parse_expansion(out.get("expand", DEFAULT_EXPANSION))
        # a chunk is no tree node: its citations are the units it covers, it has nothing to expand
        out["expand"] = expand if level.expandable else Expansion.NONE
        return out
