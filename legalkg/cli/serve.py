"""`legalkg serve --mcp | --http`: the search, get_unit, verify, context and related tools for LLM agents;
--http also serves the web pages for people (legalkg.serve.web)."""

from __future__ import annotations

import click

from ..errors import UserError
from ..graph.connection import session_driver
from ..serve import DEFAULT_HOST, DEFAULT_PORT, Tools, require_mcp, run_http, run_stdio
from ..serve.http import LOOPBACK, bind, require_http
from ..serve.workers import ServedTools, launch_workers, wait_workers
from .options import neo4j_options

#: Seconds the server's driver retries a failed transaction: a request answers 503 soon after
#: Neo4j goes away instead of after the CLI's retry time.
SERVE_RETRY_S = 3.0
#: Shortest token accepted for a non-loopback address.
MIN_TOKEN_CHARS = 16


@click.command("serve")
@neo4j_options
@click.option("--mcp", "mcp", is_flag=True, help="MCP server over stdio (for agent hosts).")
@click.option("--http", "http", is_flag=True, help="JSON API and web pages over HTTP (FastAPI).")
@click.option("--host", default=DEFAULT_HOST, show_default=True, help="--http: the address to bind.")
@click.option("--port", default=DEFAULT_PORT, show_default=True, type=click.IntRange(1, 65535),
              help="--http: the port.")
@click.option("--token", envvar="LEGALKG_API_TOKEN", default=None,
              help="--http: the bearer token every request must send (env LEGALKG_API_TOKEN); required for "
                   "any --host other than loopback.")
@click.option("--no-vectors", is_flag=True, help="verify's support score from the lexical part only.")
def serve(cfg, mcp, http, host, port, token, no_vectors) -> None:
    """Serve the tools search, get_unit, verify, context and related over MCP (stdio) or HTTP.

    --http also serves web pages at / (ask, a unit with its backlinks, check a text, context
    pack; docs/serve.md). Neo4j is read in READ transactions only. Needs the serve extra:
    pip install 'legalkg[serve]'.
    """
    if mcp == http:  # neither, or both (the last flag used to win)
        raise UserError("choose one transport: --mcp (stdio, for agent hosts) or --http (JSON API)")
    transport = "mcp" if mcp else "http"
    (require_mcp if transport == "mcp" else require_http)()
    if transport == "http":
        token = check_exposure(host, token)
        sock = bind(host, port)  # a taken port is one line now, not after the models load
    with session_driver(cfg, retry_time=SERVE_RETRY_S) as driver:
        if transport == "mcp":  # one client, one call at a time, and a host that waits for initialize:
            run_stdio(Tools(driver, cfg.database, vectors=not no_vectors))  # models load on first use
            return
        # context packs and long verify texts in worker processes of their own (serve.workers),
        # which load their models while this process loads its own
        launched = launch_workers(cfg, cfg.database, vectors=not no_vectors, retry_time=SERVE_RETRY_S)
        tools = ServedTools(driver, cfg.database, vectors=not no_vectors, offload=launched)
        try:
            tools.warm()
            tools.offload = wait_workers(launched, warn=lambda line: click.echo(line, err=True))
            if not tools.ready:
                click.echo(f"warning: not ready: {tools.problem}", err=True)
            run_http(tools, host, port, token=token, sock=sock)
        finally:
            for workers in launched.values():
                workers.close()


def check_exposure(host: str, token: str | None) -> str | None:
    """The token to require; a loud warning for an address other than loopback, which needs one."""
    token = token or None
    if host in LOOPBACK:
        return token
    if token is None:
        raise UserError(f"--host {host} serves the tools to other machines: give a token with --token or "
                        "LEGALKG_API_TOKEN (clients send 'Authorization: Bearer <token>'), or keep --host 127.0.0.1")
    if len(token) < MIN_TOKEN_CHARS or any(c.isspace() for c in token):  # 20 blanks are no secret
        raise UserError(f"the token has {len(''.join(token.split()))} characters besides blanks: use at least "
                        f"{MIN_TOKEN_CHARS} and no blanks "
                        "(e.g. python -c 'import secrets; print(secrets.token_urlsafe(24))')")
    click.echo(f"WARNING: listening on {host}, reachable from other machines; every request needs the token, "
               "and the web pages are off (a browser sends no token). "
               "Traffic is plain HTTP: put a TLS proxy in front of it.", err=True)
    return token
