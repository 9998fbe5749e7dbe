"""Connection options shared by every command that talks to Neo4j."""

from __future__ import annotations

import functools
from typing import Callable

import click

from ..graph.config import Neo4jConfig, load_config


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
