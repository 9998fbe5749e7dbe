"""`legalkg ingest-cases`: court decisions (LER form or Open Legal Data case dumps) into the graph."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..graph.connection import session_driver
from ..graph.decisions import BATCH, CaseSettings, ingest_cases as load_cases
from .options import neo4j_options, workers_option


@click.command("ingest-cases")
@neo4j_options
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--with-text", is_flag=True, help="Store each decision's full text on its node (default: a "
                                                "short leading text only).")
@click.option("--batch", default=BATCH, show_default=True, type=click.IntRange(10, 100_000),
              help="Decisions per UNWIND write batch.")
@workers_option("Processes for reading the decisions' citations")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def ingest_cases(cfg, files, with_text, batch, workers, quiet) -> None:
    """Load court decisions as Decision nodes citing the deepest statute unit: idempotent (a second run
    changes nothing); a bad record is one line with its line number, counted, and skipped."""
    settings = CaseSettings(with_text=with_text, batch=batch, workers=workers, progress=not quiet,
                            on_bad=lambda line: click.echo(f"bad record: {line}", err=True))
    with session_driver(cfg) as driver:
        report = load_cases(driver, cfg.database, files, settings)
    for line in report.summary_lines():
        click.echo(line)
    if report.bad:
        click.echo(f"{report.bad:,} bad records skipped (each named above): fix them and run the command again",
                   err=True)
        sys.exit(1)
