"""`legalkg references --broken`: statute citations that point to a missing or repealed unit."""

from __future__ import annotations

import csv
import json
import sys
from collections import Counter

import click

from .. import codes as codes_mod
from ..cite.broken import COLUMNS, broken_references
from ..errors import UserError
from ..parse import ParseError, iter_laws
from ..plural import counted
from .options import workers_option


@click.command("references")
@click.option("--broken", is_flag=True, help="List the citations whose target is a missing § or a repealed unit.")
@click.option("--codes", "codes_spec", default="default", show_default=True,
              help="'default' (58 codes), 'all' or a list like 'BGB,ZPO': the laws read and cited.")
@click.option("--source", default=None, help="Folder of gii XML, one XML file or a .tar.xz archive (as for parse).")
@click.option("--format", "fmt", type=click.Choice(["csv", "json"]), default="csv", show_default=True,
              help="CSV with a header row, or one JSON object per line.")
@workers_option("Parallel parser processes")
def references(broken: bool, codes_spec: str, source: str | None, fmt: str, workers: int) -> None:
    """List the statute citations that point to a missing or repealed unit (--broken), as CSV or JSON; no
    Neo4j needed."""
    if not broken:
        raise UserError("say which references to list: legalkg references --broken")
    laws, failed = [], 0
    for _slug, law in iter_laws(source, codes_mod.resolve_codes(codes_spec), workers=workers):
        if isinstance(law, ParseError):
            click.echo(f"error: {law}", err=True)
            failed += 1
        else:
            laws.append(law)
    if failed:
        raise UserError(f"{failed} of the laws could not be read: fix --codes or --source (nothing listed)")
    gaps: Counter = Counter()
    rows = broken_references(laws, gaps=gaps)
    if fmt == "json":
        n = 0
        for row in rows:
            click.echo(json.dumps(row.model_dump(), ensure_ascii=False))
            n += 1
    else:
        w = csv.writer(sys.stdout, lineterminator="\n")
        w.writerow(COLUMNS)
        n = 0
        for row in rows:
            w.writerow([getattr(row, c) for c in COLUMNS])
            n += 1
    left = ", ".join(f"{k} {v}" for k, v in sorted(gaps.items())) or "none"
    click.echo(f"{counted(n, 'broken reference')} in {counted(len(laws), 'law')}; "
               f"left out as likely parser gaps: {left}", err=True)
