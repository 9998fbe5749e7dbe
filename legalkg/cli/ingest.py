"""`legalkg ingest`: parse the chosen codes, load them into Neo4j with the shipped predictors' ``CO_CITED``
edges, then embed every level (`legalkg embed`)."""

from __future__ import annotations

import sys

import click

from .. import codes as codes_mod
from ..embed import EmbedSettings
from ..graph.ingest import METHODS, ingest as ingest_into
from ..graph.load import LoadSettings
from ..graph.vectors import embed_graph
from ..parse import iter_laws
from ..predict.cocite import shipped_rows
from .embed import embed_options
from .options import neo4j_options, workers_option


@click.command("ingest")
@neo4j_options
@click.option("--codes", "codes_spec", default="default", show_default=True,
              help="'default' (58 codes), 'all' (every federal law) or a list like 'BGB,ZPO'.")
@click.option("--source", default=None,
              help="Folder of gii XML, one file, a .tar.xz archive or 'download' (gesetze-im-internet.de). "
                   "Default: the shared gii folder (the all-laws archive for --codes all).")
@embed_options(switch=True)
@click.option("--batch", default=5000, show_default=True, type=click.IntRange(100, 100_000),
              help="Rows per UNWIND batch.")
@workers_option("Processes for parsing (beside the loader), citation extraction and embedding")
@click.option("--method", type=click.Choice(METHODS), default="auto", show_default=True,
              help="'import': neo4j-admin bulk import into the empty database of the `legalkg neo4j` "
                   "server (stops and restarts it); 'cypher': transactional batches (any server, updates "
                   "in place); 'auto': import when that is possible, else cypher.")
@click.option("--quiet", is_flag=True, help="No progress bars.")
def ingest(cfg, codes_spec, source, embedding: EmbedSettings | None, batch, workers, method, quiet) -> None:
    """Load statutes into Neo4j: idempotent (a second run changes nothing) and resumable."""
    slugs = codes_mod.resolve_codes(codes_spec)
    notice = None if quiet else (lambda line: click.echo(line, err=True))
    settings = LoadSettings(batch=batch, workers=workers, progress=not quiet, notice=notice)
    with ingest_into(cfg, iter_laws(source, slugs, workers=workers), method=method,
                     total=len(slugs) if slugs else None, settings=settings,
                     cocited=shipped_rows) as (driver, report):
        for line in report.summary_lines():
            click.echo(line)
        if embedding is not None:
            # the same step as `legalkg embed` over the whole graph's pending units
            emb = embed_graph(driver, cfg.database, embedding, progress=not quiet, workers=workers)
            click.echo(emb.summary())
    for line in report.failure_lines():
        click.echo(line, err=True)
    if report.failures:
        sys.exit(1)
