"""`legalkg serve --mcp | --http`: the search, get_unit, verify, context and related tools for LLM agents;
--http also serves the web pages for people (legalkg.serve.web)."""

from __future__ import annotations

import click

from ..errors import UserError
from ..graph.connection import session_driver
from ..serve import DEFAULT_HOST, DEFAULT_PORT, Tools, require_mcp, run_http, run_stdio
from ..serve.heavy import HeavyVerifier
from ..serve.http import LOOPBACK, require_http
from ..serve.tools import WARM_TEXT
from .options import neo4j_options

#: Seconds the server's driver retries a failed transaction: a request answers 503 soon after
#: Neo4j goes away instead of after the CLI's retry time.
SERVE_RETRY_S = 3.0
#: Shortest token accepted for a non-loopback address.
MIN_TOKEN_CHARS = 16


@click.command("serve")
@neo4j_options
@click.option("--mcp", "transport", flag_value="mcp", help="MCP server over stdio (for agent hosts).")
@click.option("--http", "transport", flag_value="http", help="JSON API and web pages over HTTP (FastAPI).")
@click.option("--host", default=DEFAULT_HOST, show_default=True, help="--http: the address to bind.")
@click.option("--port", default=DEFAULT_PORT, show_default=True, type=click.IntRange(1, 65535),
              help="--http: the port.")
@click.option("--token", envvar="LEGALKG_API_TOKEN", default=None,
              help="--http: the bearer token every request must send (env LEGALKG_API_TOKEN); required for "
                   "any --host other than loopback.")
@click.option("--no-vectors", is_flag=True, help="verify's support score from the lexical part only.")
def serve(cfg, transport, host, port, token, no_vectors) -> None:
    """Serve the tools search, get_unit, verify, context and related over MCP (stdio) or HTTP.

    --http also serves web pages at / (ask, a unit with its backlinks, check a text, context
    pack; docs/serve.md). Neo4j is read in READ transactions only. Needs the serve extra:
    pip install 'legalkg[serve]'.
    """
    if transport is None:
        raise UserError("choose a transport: --mcp (stdio, for agent hosts) or --http (JSON API)")
    (require_mcp if transport == "mcp" else require_http)()
    if transport == "http":
        token = check_exposure(host, token)
    with session_driver(cfg, retry_time=SERVE_RETRY_S) as driver:
        tools = Tools(driver, cfg.database, vectors=not no_vectors)
        if transport == "mcp":  # one client, one call at a time, and a host that waits for initialize:
            run_stdio(tools)    # models load on first use (under their lock)
        else:
            tools.warm()
            if not tools.ready:
                click.echo(f"warning: not ready: {tools.problem}", err=True)
            run_http(tools, host, port, token=token, heavy=heavy_worker(cfg, not no_vectors))


def heavy_worker(cfg, vectors: bool) -> HeavyVerifier | None:
    """The worker process for long verify texts, warmed; None (verify in the server) when it fails."""
    heavy = HeavyVerifier(cfg, cfg.database, vectors=vectors, retry_time=SERVE_RETRY_S)
    try:
        heavy.warm(WARM_TEXT)
    except Exception as err:  # noqa: BLE001 - whatever the worker raised, the server still serves
        heavy.close()
        click.echo(f"warning: no worker process for long verify texts ({type(err).__name__}: {err}); "
                   "they run in the server", err=True)
        return None
    return heavy


def check_exposure(host: str, token: str | None) -> str | None:
    """The token to require; a loud warning for an address other than loopback, which needs one."""
    token = token or None
    if host in LOOPBACK:
        return token
    if token is None:
        raise UserError(f"--host {host} serves the tools to other machines: give a token with --token or "
                        "LEGALKG_API_TOKEN (clients send 'Authorization: Bearer <token>'), or keep --host 127.0.0.1")
    if len(token) < MIN_TOKEN_CHARS:
        raise UserError(f"the token has {len(token)} characters: use at least {MIN_TOKEN_CHARS} "
                        "(e.g. python -c 'import secrets; print(secrets.token_urlsafe(24))')")
    click.echo(f"WARNING: listening on {host}, reachable from other machines; every request needs the token, "
               "and the web pages are off (a browser sends no token). "
               "Traffic is plain HTTP: put a TLS proxy in front of it.", err=True)
    return token
