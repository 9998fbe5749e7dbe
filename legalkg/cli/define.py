"""`legalkg define TERM`: the legal definitions of a term, with their scope (read from the graph)."""

from __future__ import annotations

import json
import sys

import click

from ..facts.define import define as define_term, law_key_of
from ..graph.connection import session_driver
from .options import neo4j_options


@click.command("define")
@click.argument("term")
@click.option("--law", default=None, help="Only the definitions of this law (BGB, SGB V, BKatV, ...).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per definition.")
@neo4j_options
def define(cfg, term: str, law: str | None, as_json: bool) -> None:
    """Print the legal definitions of TERM with their scope; exit 1 when the graph has none."""
    key = law_key_of(law)
    with session_driver(cfg) as driver:
        hits = define_term(driver, cfg.database, term, key)
    for h in hits:
        if as_json:
            click.echo(json.dumps(h.model_dump(), ensure_ascii=False))
        else:
            click.echo(f"{h.term} — {h.citation or h.unit} (scope: {h.scope_line()}; {h.pattern})")
            click.echo(f"  {h.text}")
    if not hits:
        click.echo(f"no definition of '{term}'" + (f" in {key}" if key else "") + " in the graph", err=True)
        sys.exit(1)
