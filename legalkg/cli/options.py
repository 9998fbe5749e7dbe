"""Options shared by several commands: the Neo4j connection, the embedding model, the worker processes."""

from __future__ import annotations

import functools
from collections.abc import Callable

import click

from ..embed import CHOICES, DEFAULT_MODEL, MODEL_ENV
from ..graph.config import Neo4jConfig, load_config
from ..machine import MAX_AUTO_WORKERS, default_workers


def neo4j_options(func: Callable) -> Callable:
    """Add --uri/--user/--password/--database and pass ``cfg: Neo4jConfig`` to the command."""

    @click.option("--database", envvar=None, default=None, help="Database name [env NEO4J_DATABASE, default neo4j].")
    @click.option("--password", default=None, help="Password [env NEO4J_PASSWORD or .env].")
    @click.option("--user", default=None, help="User [env NEO4J_USER, default neo4j].")
    @click.option("--uri", default=None, help="Bolt URI [env NEO4J_URI, default bolt://127.0.0.1:7687].")
    @functools.wraps(func)
    def wrapper(*args, uri=None, user=None, password=None, database=None, **kwargs):
        cfg: Neo4jConfig = load_config(uri, user, password, database)
        return func(*args, cfg=cfg, **kwargs)

    return wrapper


def workers_option(what: str) -> Callable:
    """``--workers N``; left out, every usable CPU (at most 8), because parsing and the citation
    scan are CPU-bound pure Python that a single process runs serially (docs/benchmarks/ingest.md)."""
    return click.option(
        "--workers", default=default_workers, show_default=f"usable CPUs, at most {MAX_AUTO_WORKERS}",
        type=click.IntRange(1, 64), help=f"{what} (1: all in this process).")


def model_option(func: Callable) -> Callable:
    """``--model NAME`` (None when absent: the run then takes $LEGALKG_MODEL, else the model the
    graph's vectors were made with, else the default), so every command names models the same way."""
    return click.option(
        "--model",
        "model",
        default=None,
        metavar="NAME",
        help=f"Embedding model: {CHOICES} (default: ${MODEL_ENV}, else the model the graph's vectors were "
             f"made with, else {DEFAULT_MODEL}).",
    )(func)
