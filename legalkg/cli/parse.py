"""`legalkg parse`: parse gii XML and print node statistics (no Neo4j needed)."""

from __future__ import annotations

import json
import sys

import click

from .. import codes as codes_mod
from ..parse import ParseError, corpus_stats, iter_law_stats
from ..plural import counted
from .options import workers_option


@click.command("parse")
@click.option("--codes", "codes_spec", default="default", show_default=True,
              help="'default' (58 codes), 'all' (every law of the source) or a list like 'BGB,ZPO'.")
@click.option("--source", default=None,
              help="Folder of gii XML, one XML file, a .tar.xz archive, or 'download'. "
                   "Default: the shared gii folder (the all-laws archive for --codes all).")
@click.option("--stats", "show_stats", is_flag=True, help="Print node counts per level and per law.")
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
@workers_option("Parallel parser processes")
def parse(codes_spec: str, source: str | None, show_stats: bool, as_json: bool, workers: int) -> None:
    """Parse statutes into the unit tree; report failures one line per file."""
    slugs = codes_mod.resolve_codes(codes_spec)
    failures: list[str] = []
    laws = []

    def good():
        for slug, result in iter_law_stats(source, slugs, workers=workers):
            if isinstance(result, ParseError):
                failures.append(slug)
                click.echo(f"error: {result}", err=True)
                continue
            laws.append((result.key, result.units))
            yield result

    stats = corpus_stats(good())
    if as_json:
        click.echo(json.dumps(stats.model_dump(), ensure_ascii=False, indent=1))
    elif show_stats:
        click.echo(stats.per_level_frame().to_string())
        click.echo()
        with_units = stats.per_law_frame()
        click.echo(with_units.to_string())
    units = sum(n for _, n in laws)
    click.echo(f"parsed {counted(len(laws), 'law')}, {counted(units, 'unit')}, {len(failures)} failed", err=True)
    if failures:
        sys.exit(1)
