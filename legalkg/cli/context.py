"""`legalkg context`: the statute units for an LLM prompt within a word budget, as Markdown or JSON."""

from __future__ import annotations

import json

import click

from ..context import build_pack, check_budget, render_markdown
from ..graph.connection import session_driver
from ..retrieve import Retriever, clean_query
from ..textin import text_argument
from .options import neo4j_options


@click.command("context")
@neo4j_options
@click.argument("query")
@click.option("--budget", required=True, metavar="WORDS",
              help="Most words the units may have together (1-100,000; words as the graph counts them).")
@click.option("--law", default=None, help="Only units of this law (its id, e.g. BGB or 'SGB V').")
@click.option("--task", default=None, type=click.Choice(["lay", "case"]),
              help="lay (a question in everyday words) or case (decision text): the predictor. "
                   "Default: case for text of 480 words or more, lay otherwise.")
@click.option("--why", "show_why", is_flag=True, help="Markdown: give each unit's reason under its heading.")
@click.option("--json", "as_json", is_flag=True,
              help='JSON: {"query", "budget", "units": [{"id", "citation", "text", "words", "why", "reason", '
                   '"rank", "cited_by"}]}.')
def context(cfg, query, budget, law, task, show_why, as_json) -> None:
    """Pick the units to put into a prompt for QUERY ('-' reads it from stdin), led by the §§ the
    engine ranks first, never a unit or a text twice, never over --budget (docs/context.md)."""
    query = text_argument(query)
    budget = check_budget(budget)
    query = clean_query(query)
    with session_driver(cfg) as driver:
        pack = build_pack(Retriever(driver, cfg.database), query, budget, task=task, law=law)
    if as_json:
        click.echo(json.dumps(pack.model_dump(), ensure_ascii=False, indent=1))
    else:
        click.echo(render_markdown(pack, why=show_why))
