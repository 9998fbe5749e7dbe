"""`legalkg serve --mcp | --http`: the search, get_unit, verify, context and related tools for LLM agents;
--http also serves the web pages for people (legalkg.serve.web)."""

from __future__ import annotations

import click

from ..errors import UserError
from ..graph.connection import session_driver
from ..serve import DEFAULT_HOST, DEFAULT_PORT, Tools, require_mcp, run_http, run_stdio
from ..serve.http import require_http
from .options import neo4j_options


@click.command("serve")
@neo4j_options
@click.option("--mcp", "transport", flag_value="mcp", help="MCP server over stdio (for agent hosts).")
@click.option("--http", "transport", flag_value="http", help="JSON API and web pages over HTTP (FastAPI).")
@click.option("--host", default=DEFAULT_HOST, show_default=True, help="--http: the address to bind.")
@click.option("--port", default=DEFAULT_PORT, show_default=True, type=click.IntRange(1, 65535),
              help="--http: the port.")
@click.option("--no-vectors", is_flag=True, help="verify's support score from the lexical part only.")
def serve(cfg, transport, host, port, no_vectors) -> None:
    """Serve the tools search, get_unit, verify, context and related over MCP (stdio) or HTTP.

    --http also serves web pages at / (ask, a unit with its backlinks, check a text, context
    pack; docs/serve.md). Neo4j is read in READ transactions only. Needs the serve extra:
    pip install 'legalkg[serve]'.
    """
    if transport is None:
        raise UserError("choose a transport: --mcp (stdio, for agent hosts) or --http (JSON API)")
    (require_mcp if transport == "mcp" else require_http)()
    with session_driver(cfg) as driver:
        tools = Tools(driver, cfg.database, vectors=not no_vectors)
        if transport == "mcp":
            run_stdio(tools)
        else:
            run_http(tools, host, port)
