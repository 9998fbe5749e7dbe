"""``legalkg neo4j reset-password``: give a local server home the password of NEO4J_PASSWORD.

Why: Neo4j keeps only a salted hash of the password, in the home's system database, and takes an
initial password only before the first start. A home outlives the checkout whose ``.env`` set it up
(a new clone, a second checkout, CI on a used machine), and a fresh ``.env`` holds a fresh password
that the server refuses. Neo4j's own recovery ("Recover admin user and password" in its Operations
Manual) starts the server once with auth off, sets the password in the system database and starts it
again with auth on. This does that, with the window kept small: Bolt on loopback on a free port, the
HTTP connector off, and the home's own neo4j.conf written back whatever happens.
"""

from __future__ import annotations

from pathlib import Path

from neo4j import GraphDatabase, exceptions as nx

from ..errors import UserError
from ..server import process
from ..server.conf import ServerSettings, configured_lib, settings_of, write_conf
from ..server.homes import record_home
from .cypher import query

#: Neo4j's refusal to set a password to the one the user has (Neo.ClientError.General.InvalidArguments)
SAME_PASSWORD = "Old password and new password cannot be the same"


def has_store(home: Path) -> bool:
    """Whether the home's server has run once (its system database holds the users)."""
    return (home / "data" / "databases" / "system").exists()


def _checked_password(password: str | None) -> str:
    if not password:
        raise UserError("NEO4J_PASSWORD is not set: put the password the home should get in the environment "
                        "or in .env (8+ characters), then run `legalkg neo4j reset-password` again")
    if len(password) < 8:
        raise UserError("NEO4J_PASSWORD must have at least 8 characters (Neo4j's rule)")
    return password


def _home_settings(home: Path) -> ServerSettings:
    try:
        return settings_of(home)
    except (OSError, KeyError, ValueError, IndexError):
        raise UserError(f"{home} has a database but no readable conf/neo4j.conf: start it once with "
                        f"`legalkg neo4j start --home {home}`, or pass the right --home") from None


def _set_with_auth_off(s: ServerSettings, lib: Path, user: str, password: str, timeout: float) -> bool:
    """Run the home once with auth off, on loopback and a free Bolt port, and set the password;
    False when the user had it already (Neo4j refuses to set a password to itself)."""
    window = s.model_copy(update={"auth": False, "bolt_port": process.free_port(),
                                  "http_port": process.free_port(), "extra": {"server.http.enabled": "false"}})
    write_conf(window, lib)
    process.launch(window, lib, timeout)
    try:
        with GraphDatabase.driver(window.bolt_uri, auth=None, connection_timeout=5) as drv:
            drv.execute_query(query("server/set_password"), user=user, password=password, database_="system")
        return True
    except nx.ClientError as err:
        if SAME_PASSWORD in (err.message or ""):
            return False
        raise UserError(f"Neo4j could not set the password of user '{user}' in {s.home}: {err.message}") from None
    finally:
        process.stop(window)


def reset_password(home: Path, password: str | None, user: str = "neo4j", timeout: float = 180.0) -> str:
    """Set ``user``'s password in ``home`` to ``password``; a server that ran is running again after.

    A home without a database yet needs nothing: its first ``legalkg neo4j start`` sets the password."""
    password = _checked_password(password)
    if not has_store(home):
        return (f"nothing to reset: {home} has no database yet, and `legalkg neo4j start` sets "
                "NEO4J_PASSWORD on its first start")
    s = _home_settings(home)
    was_running = process.read_pid(s) is not None
    if was_running:
        process.stop(s)
    lib = configured_lib(home)
    back = s.model_copy(update={"auth": True, "password": password})
    try:
        changed = _set_with_auth_off(s, lib, user, password, timeout)
    finally:
        write_conf(back, lib)
        if was_running:
            process.launch(back, lib, timeout)
            record_home(back.bolt_port, home)
    done = "now takes" if changed else "already took"
    again = ", and its server runs again" if was_running else " (not started)"
    return f"the Neo4j home {home} {done} NEO4J_PASSWORD for user '{user}'{again}"
