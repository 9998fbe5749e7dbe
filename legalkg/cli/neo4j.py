"""`legalkg neo4j start|stop|reset-password|status`: a local Neo4j Community server for machines without Docker."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

import click
from click.core import ParameterSource

from ..errors import UserError
from ..graph.config import load_config
from ..graph.password import reset_password
from ..server import caches, homes, jvm, process, startup
from ..server.conf import ServerSettings, configured_lib, default_home, settings_of
from ..server.offline_import import import_pending

_home = click.option("--home", type=click.Path(path_type=Path), default=None,
                     help="Server folder (conf, data, logs) [env LEGALKG_NEO4J_HOME, default ~/.cache/legalkg/neo4j].")
_bolt = click.option("--bolt-port", type=int, default=7687, show_default=True, envvar="LEGALKG_BOLT_PORT")
_http = click.option("--http-port", type=int, default=7474, show_default=True, envvar="LEGALKG_HTTP_PORT")


def server_settings(home, bolt_port, http_port, auth=True, heap="1g", pagecache="512m") -> ServerSettings:
    """The local server's settings; its password comes from NEO4J_PASSWORD in the environment or in
    ``.env``, the same rule every client command follows (``load_config``)."""
    return ServerSettings(home=home or default_home(), bolt_port=bolt_port, http_port=http_port, auth=auth,
                          password=load_config().password, heap=heap, pagecache=pagecache)


def _caches(home: Path) -> list[str]:
    """The start-up caches of the home's jar set and JVM (none before the first start: the jar
    folder is named in the home's neo4j.conf, and status never fetches jars)."""
    try:
        lib = configured_lib(home)
        java = jvm.find()
        lines = [f"Java:    {java.describe()}",
                 f"start-up cache of the server: {jvm.cache_state(caches.class_archive(lib))}"]
        if java.aot:
            state = jvm.cache_state(caches.admin_archive(lib))
            lines.append(f"start-up cache of the admin tool (bulk import): {state}")
    except (OSError, KeyError, UserError):  # an unreadable conf or cache folder: status still answers
        return []
    return lines


def _warn_pending(home: Path) -> None:
    if import_pending(home):
        click.echo("warning: a bulk import into this server was interrupted and its database is "
                   "incomplete: run `legalkg ingest` again (it imports again)", err=True)


@click.group("neo4j")
def neo4j_group() -> None:
    """Run a real Neo4j 5.26 Community server from Maven Central jars (no Docker needed)."""


@neo4j_group.command("start")
@_home
@_bolt
@_http
@click.option("--auth/--no-auth", default=True, show_default=True,
              help="Require the password from NEO4J_PASSWORD (environment or .env); --no-auth for throwaway "
                   "test servers.")
@click.option("--heap", default="1g", show_default=True, help="JVM heap (server.memory.heap.max_size).")
@click.option("--pagecache", default="512m", show_default=True, help="Page cache size.")
@click.option("--timeout", default=180.0, show_default=True, help="Seconds to wait for Bolt.")
def start_cmd(home, bolt_port, http_port, auth, heap, pagecache, timeout) -> None:
    """Fetch the jars once (cached), write neo4j.conf, start in the background, wait for Bolt."""
    s = server_settings(home, bolt_port, http_port, auth, heap, pagecache)
    click.echo(startup.start(s, timeout=timeout))
    _warn_pending(s.home)
    click.echo(f"Bolt:    {s.bolt_uri}")
    click.echo(f"Browser: {s.browser_url}")
    click.echo(f"Logs:    {s.logs_dir}")
    click.echo(f"Java:    {jvm.find().describe()}")


@neo4j_group.command("stop")
@_home
def stop_cmd(home) -> None:
    """Stop the server and wait until its JVM has exited."""
    settings = server_settings(home, 7687, 7474)
    click.echo(process.stop(settings))
    homes.forget_home(settings.home)


@neo4j_group.command("reset-password")
@_home
@click.option("--timeout", default=180.0, show_default=True, help="Seconds to wait for Bolt at each start.")
def reset_password_cmd(home, timeout) -> None:
    """Give the home NEO4J_PASSWORD (environment or .env), whatever password it was set up with."""
    cfg = load_config()
    click.echo(reset_password(home or default_home(), cfg.password, user=cfg.user, timeout=timeout))


@neo4j_group.command("status")
@_home
@_bolt
@_http
def status_cmd(home, bolt_port, http_port) -> None:
    """Print whether the local server runs; exit 3 when it does not."""
    s = server_settings(home, bolt_port, http_port)
    ctx = click.get_current_context()
    if all(ctx.get_parameter_source(p) is ParameterSource.DEFAULT for p in ("bolt_port", "http_port")):
        # the ports the home's server was started with, not 7687/7474 (another server may answer there)
        with contextlib.suppress(OSError, KeyError, ValueError, IndexError):
            s = settings_of(s.home)
    running, line = process.status(s)
    click.echo(line)
    for cache_line in _caches(s.home):
        click.echo(cache_line)
    _warn_pending(s.home)
    if not running:
        sys.exit(3)
