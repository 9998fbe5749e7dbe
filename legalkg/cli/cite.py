"""`legalkg cite TEXT`: print every statute citation found in TEXT as JSON lines."""

from __future__ import annotations

import json
from pathlib import Path

import click

from .. import codes, parse
from ..cite import MAX_CHARS, LawRegistry, cases, check_length, extract, resolve
from ..cite.chainlines import compact_chains
from ..errors import UserError
from ..textin import check_argument, read_stdin

#: A member's fields besides its offsets, in output order, each with the value a first member omits.
MEMBER_FIELDS = dict.fromkeys(["unit_span", "law_cited", "law", "unit", "number", "absatz", "satz", "nummer",
                               "buchstabe", "halbsatz", "alternative", "version", "id", "reason", "law_ended",
                               "successor", "resolved_id"])


@click.command("cite")
@click.argument("text")
@click.option("--default-law", default=None, help="Law key for citations without a law ('§ 5').")
@click.option("--laws/--no-laws", "law_mentions", default=False,
              help="Also report bare law names ('der Zivilprozessordnung').")
@click.option("--check-source", "check_source", type=click.Path(path_type=Path), default=None,
              help="gii XML folder: parse the cited laws and report the most specific existing node.")
@click.option("--cases/--no-cases", "case_citations", default=False,
              help="Also report case-law citations ('BGHZ 123, 45') as rows with kind case_citation.")
@click.option("--max-chars", type=click.IntRange(min=1), default=MAX_CHARS, show_default=True,
              help="Refuse a longer text (one line) instead of scanning it.")
def cite(text: str, default_law: str | None, law_mentions: bool, check_source: Path | None,
         case_citations: bool, max_chars: int) -> None:
    """Find statute citations in TEXT ('-' reads stdin); one JSON object per citation chain.

    A chain ("§§ 3, 5 UWG") is written once ("span", "chain_start", "chain_end") with its cited
    units as "members": each its offsets and the fields that differ from the member before it
    (docs/citations.md), so "§§ 1, 1, 1, …" stays linear in its input.
    """
    text = read_stdin(max_chars) if text == "-" else check_argument(text)
    if not text.strip():
        raise UserError("no text given: pass the text as an argument or '-' to read stdin")
    check_length(text, max_chars)
    registry = LawRegistry.default()
    matches = extract(text, default_law=default_law, registry=registry, law_mentions=law_mentions,
                      max_chars=max_chars)
    known = _known_ids(check_source, {m.law_key for m in matches if m.law_key}) if check_source else None
    rows = []
    last = None
    for m in matches:
        first = (m.chain_start, m.chain_end) != last  # the chain's text once: a copy per member is quadratic
        last = (m.chain_start, m.chain_end)
        row = {
            "chain_start": m.chain_start, "chain_end": m.chain_end,
            "span": text[m.chain_start:m.chain_end] if first else None,
            "unit_span": m.text, "start": m.start, "end": m.end,
            "law_cited": m.law_cited, "law": m.law_key, "unit": m.unit,
            "number": m.para[1:] if m.para and m.unit == "§" else (m.para[3:] if m.para else None),
            "absatz": m.absatz, "satz": m.satz, "nummer": m.nummer, "buchstabe": m.buchstabe,
            "halbsatz": m.halbsatz, "alternative": m.alternative, "version": m.version,
            "id": m.node_id, "reason": m.reason, "law_ended": m.law_ended,
            "successor": m.successor if m.law_ended is not None else None,
        }
        if known is not None:
            row["resolved_id"] = resolve(m, known) if m.law_key else None
        rows.append(row)
    for line in compact_chains(rows, MEMBER_FIELDS, cut="unit_span"):
        click.echo(json.dumps(line, ensure_ascii=False, separators=(",", ":")))
    if case_citations:
        for c in cases(text):
            click.echo(json.dumps({"kind": c.kind, "span": c.text, "start": c.start, "end": c.end},
                                  ensure_ascii=False))


def _known_ids(source: Path, law_keys: set[str]) -> set[str]:
    """Node ids of the cited laws, parsed from ``source`` (only the default codes are looked up)."""
    if not source.is_dir():
        raise UserError(f"--check-source {source} is not a folder: pass the gii XML folder")
    known: set[str] = set()
    for key in sorted(law_keys):
        info = codes.find_code(key)
        if info is None:
            continue
        path = source / f"{info.slug}.xml"
        if path.exists():
            known.update(u.id for u in parse.parse_file(path).units)
    return known
