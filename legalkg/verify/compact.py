"""The lines of ``legalkg verify --json``: one JSON object per citation chain (schema ``v`` 2), pure.

Why per chain and not per record: "§§ 1, 1, 1, … BGB" is one chain of a record every three
characters, and a record of 20-odd fields repeated each time was 113x the input. A chain line
writes the chain once and its members as a list; each member writes its offsets and only the
fields that differ from the member before it in the chain (the first: those that are not
null / empty). A member's ``written`` is the chain's ``span`` cut at its offsets. Units' texts
share a budget (``TEXT_CHARS_PER_CHAR`` characters per input character, at least
``MIN_TEXT_CHARS``): beyond it a member carries ``"text_cut": true`` instead of the text (read it
with ``get_unit``). ``expand`` turns a line back into the records of ``VerifyReport.rows``.

The same lines are the ``chains`` of the ``verify`` tool (HTTP ``POST /verify`` and MCP:
``tool_answer``), so every transport is bounded alike; ``with_records`` gives a reader of the tool's
answer (the /check page) the flat records back.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..cite.chainlines import SCHEMA, compact_chains

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
    yield from compact_chains(rows, MEMBER_DEFAULTS, budget=max(MIN_TEXT_CHARS, TEXT_CHARS_PER_CHAR * input_chars))


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


def tool_answer(report: Any, input_chars: int) -> dict[str, Any]:
    """The ``verify`` tool's answer for a ``VerifyReport`` of a text of ``input_chars`` characters:
    the verdict, the counts and the chain lines (a record every 3 characters of "§§ 1, 1, 1, …" was
    99x its input over HTTP and 258x over MCP when each record was written out in full)."""
    return {"v": SCHEMA, "ok": report.ok, "counts": report.counts(), "threshold": report.threshold,
            "chains": list(chain_lines(report.rows(), input_chars)),
            "quotes": [q.model_dump(mode="json") for q in report.quotes]}


def with_records(answer: dict[str, Any]) -> dict[str, Any]:
    """A ``tool_answer`` with its chains expanded into ``records`` (every field, text order)."""
    return {**answer, "records": [r for line in answer["chains"] for r in expand(line)]}
