"""The lines of ``legalkg verify --json``: one JSON object per citation chain (schema ``v`` 2), pure.

Why per chain and not per record: "§§ 1, 1, 1, … BGB" is one chain of a record every three
characters, and a record of 20-odd fields repeated each time was 113x the input. A chain line
writes the chain once and its members as a list; each member writes its offsets and only the
fields that differ from the member before it in the chain (the first: those that are not
null / empty). A member's ``written`` is the chain's ``span`` cut at its offsets. Units' texts
share a budget (``TEXT_CHARS_PER_CHAR`` characters per input character, at least
``MIN_TEXT_CHARS``): beyond it a member carries ``"text_cut": true`` instead of the text (read it
with ``get_unit``). ``expand`` turns a line back into the records of ``VerifyReport.rows``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

#: The version of the line format, written as ``"v"`` in every chain line.
SCHEMA = 2
#: Fields of a member besides its offsets, in output order, with the value a first member omits.
MEMBER_DEFAULTS: dict[str, Any] = {
    "written": None, "cited": None, "law": None, "status": None, "id": None, "citation": None, "text": None,
    "text_cut": False, "nearest": None, "readings": [], "support": None, "lexical": None, "vector": None,
    "supported": None, "sentence_start": None, "sentence_end": None, "version": None, "ff": None,
}
#: Characters of units' texts written per character of input (a brief of 2,000 characters citing
#: five §§ of 1,500 each is far below it; a list of 5,000 distinct §§ is not).
TEXT_CHARS_PER_CHAR = 10
MIN_TEXT_CHARS = 20_000


def chain_lines(rows: list[dict[str, Any]], input_chars: int) -> Iterator[dict[str, Any]]:
    """The chain lines of ``rows`` (``VerifyReport.rows()``, in text order)."""
    budget = max(MIN_TEXT_CHARS, TEXT_CHARS_PER_CHAR * input_chars)
    line: dict[str, Any] | None = None
    previous: dict[str, Any] = {}
    for row in rows:
        if line is None or (row["chain_start"], row["chain_end"]) != (line["chain_start"], line["chain_end"]):
            if line is not None:
                yield line
            line = {"v": SCHEMA, "chain_start": row["chain_start"], "chain_end": row["chain_end"],
                    "span": row["span"], "members": []}
            previous = dict(MEMBER_DEFAULTS)
        values = {**row, "text_cut": False}
        if values["text"] is not None:
            if len(values["text"]) > budget:
                values["text"], values["text_cut"] = None, True
            else:
                budget -= len(values["text"])
        values["written"] = _written(line, row)
        member = {"start": row["start"], "end": row["end"]}
        member.update((f, values[f]) for f in MEMBER_DEFAULTS if values[f] != previous[f])
        line["members"].append(member)
        previous = values
    if line is not None:
        yield line


def _written(line: dict[str, Any], row: dict[str, Any]) -> str | None:
    """None when ``written`` is the chain's span cut at the row's offsets (the usual case)."""
    span = line["span"] or ""
    cut = span[row["start"] - line["chain_start"]:row["end"] - line["chain_start"]]
    return None if cut == row["written"] else row["written"]


def expand(line: dict[str, Any]) -> list[dict[str, Any]]:
    """The records of one chain line, with every field (as ``VerifyReport.rows``, plus ``text_cut``)."""
    if line.get("v") != SCHEMA:
        raise ValueError(f"not a verify chain line of schema {SCHEMA}: {str(line)[:60]}")
    span = line["span"] or ""
    out: list[dict[str, Any]] = []
    values = dict(MEMBER_DEFAULTS)
    for i, member in enumerate(line["members"]):
        values = {**values, "written": None, **member}
        record = {"span": line["span"] if i == 0 else None, "chain_start": line["chain_start"],
                  "chain_end": line["chain_end"], **values}
        if record["written"] is None:
            record["written"] = span[member["start"] - line["chain_start"]:member["end"] - line["chain_start"]]
        out.append(record)
    return out
