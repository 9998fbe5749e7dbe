"""`legalkg doctor`: is the server there, what does the graph hold, which model fills each index."""

from __future__ import annotations

import json

import click

from ..graph.config import masked_uri
from ..graph.connection import session_driver
from ..graph.inspect import report
from .options import neo4j_options


@click.command("doctor")
@neo4j_options
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def doctor(cfg, as_json: bool) -> None:
    """Server version and edition, indexes, constraints, counts and embedding models."""
    with session_driver(cfg) as driver:
        rep = report(driver, cfg.database)
    if as_json:
        click.echo(json.dumps(rep.model_dump(), indent=2, default=str))
        return
    s = rep.server
    click.echo(f"server      {masked_uri(cfg.uri)}  reachable  {s['name']} {s['version']} {s['edition']}  "
               f"(python driver {s['driver']}, database {cfg.database})")
    click.echo(f"constraints {len(rep.constraints)}")
    for c in rep.constraints:
        click.echo(f"  {c['name']}: {c['type']} {c['labelsOrTypes']} {c['properties']}")
    click.echo(f"indexes     {len(rep.indexes)}")
    for i in rep.indexes:
        click.echo(f"  {i['name']}: {i['type']} {i['state']} {i['labelsOrTypes']} {i['properties']}")
    click.echo("nodes       " + (", ".join(f"{k} {v:,}" for k, v in rep.labels.items()) or "none"))
    click.echo("relations   " + (", ".join(f"{k} {v:,}" for k, v in rep.relationships.items()) or "none"))
    if rep.embedding_models:
        click.echo("embeddings")
        for m in rep.embedding_models:
            click.echo(f"  {m['index']}: {m['name']} {m['version']} dim {m['dim']}")
    else:
        click.echo("embeddings  none recorded (run `legalkg ingest` with embedding on)")
