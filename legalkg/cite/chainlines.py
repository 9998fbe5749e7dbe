"""Chain lines: citations written one JSON object per chain, its members as a list (pure).

Why: "§§ 1, 1, 1, … BGB" is one chain of a cited unit every three characters; a row per unit that
repeats 20-odd fields was 113x its input (``verify --json``) and 158x (``cite``). A chain line
writes the chain once (``span``, ``chain_start``, ``chain_end``) and for each member its offsets
and only the fields that differ from the member before it. ``legalkg cite`` and ``legalkg verify
--json`` (``verify.compact``, which adds a budget for units' texts) write these lines; the HTTP
and MCP ``verify`` tool answers hold them as ``chains``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

#: The version of the line format, written as ``"v"`` in every chain line.
SCHEMA = 2


def compact_chains(rows: list[dict[str, Any]], defaults: dict[str, Any], *, cut: str = "written",
                   budget: int | None = None) -> Iterator[dict[str, Any]]:
    """One line per chain of ``rows`` (dicts with ``chain_start``, ``chain_end``, ``span``, ``start``,
    ``end`` and the fields of ``defaults``, in text order; ``span`` on a chain's first row at
    least): the chain once, each member its offsets and the fields that differ from the member
    before it. ``cut`` names the field that is the chain's span cut at the member's offsets
    (written only where it is not); ``budget``: characters of ``text`` fields written in all (the
    rest ``text_cut``; ``defaults`` then holds ``text`` and ``text_cut``). ``legalkg verify --json``
    (``chain_lines``) and ``legalkg cite`` write these."""
    line: dict[str, Any] | None = None
    previous: dict[str, Any] = {}
    for row in rows:
        if line is None or (row["chain_start"], row["chain_end"]) != (line["chain_start"], line["chain_end"]):
            if line is not None:
                yield line
            line = {"v": SCHEMA, "chain_start": row["chain_start"], "chain_end": row["chain_end"],
                    "span": row["span"], "members": []}
            previous = dict(defaults)
        values = {f: row.get(f, d) for f, d in defaults.items()}  # each field once: 333,000 rows a MB
        if budget is not None:
            budget = _spend(values, row["text"], budget)
        written = _written(line, row, cut)
        if cut in values:
            values[cut] = written
        member = {"start": row["start"], "end": row["end"]}
        for f, v in values.items():
            if v != previous[f]:
                member[f] = v
        line["members"].append(member)
        previous = values
    if line is not None:
        yield line


def _spend(values: dict[str, Any], text: str | None, budget: int) -> int:
    """Write ``text`` into ``values`` if the budget holds it (else ``text_cut``); the budget left."""
    values["text_cut"] = False
    if text is not None:
        if len(text) > budget:
            values["text"], values["text_cut"] = None, True
        else:
            budget -= len(text)
    return budget


def _written(line: dict[str, Any], row: dict[str, Any], cut: str = "written") -> str | None:
    """None when ``row[cut]`` is the chain's span cut at the row's offsets (the usual case)."""
    span = line["span"] or ""
    piece = span[row["start"] - line["chain_start"]:row["end"] - line["chain_start"]]
    return None if piece == row[cut] else row[cut]
