"""``legalkg neo4j start``: everything a first or a later start of a local server needs, in order.

Java is checked before Maven runs (one line instead of a download), the jars are fetched once,
the start-up cache is recorded once per jar set and JVM, the conf is rewritten on every start (so
a changed setting always applies), and the initial password is set before the first start only.
"""

from __future__ import annotations

import os
import stat
import subprocess
import tempfile
from pathlib import Path

from ..errors import UserError
from . import jvm, process
from .caches import class_archive
from .conf import ServerSettings, default_home, environment, settings_of, write_conf
from .homes import record_home
from .jars import ensure_jars
from .training import record_class_archive

ADMIN = "org.neo4j.server.startup.Neo4jAdminCommand"


def argument_file_line(value: str) -> str:
    """``value`` as one quoted argument of a picocli argument file (``@file``): backslashes and
    quotes escaped, so spaces, ``#`` and quotes in a password stay part of it."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"\n'


def _set_initial_password(s: ServerSettings, lib: Path) -> None:
    """Only effective before the first start; later password changes go through Cypher.

    The admin tool takes the password only as an argument. Passed as such it was readable by every
    user in ``ps`` and /proc while the JVM ran, so it goes into an argument file of mode 0600 in the
    home (the tool's picocli reads ``@file`` arguments), removed right after."""
    if not s.password or (s.home / "data" / "databases" / "system").exists():
        return
    if len(s.password) < 8:
        raise UserError("NEO4J_PASSWORD must have at least 8 characters (Neo4j's rule)")
    s.home.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=".initial-password-", dir=s.home)  # mode 0600
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(argument_file_line(s.password))
        proc = subprocess.run([jvm.find().path, "-cp", f"{lib}/*", ADMIN, "dbms", "set-initial-password",
                               f"@{name}"], env=environment(s), capture_output=True, text=True)
    finally:
        Path(name).unlink(missing_ok=True)
    if proc.returncode != 0:
        raise UserError(f"could not set the initial Neo4j password: {proc.stderr.strip()[-200:]}")


def _running_as_asked(s: ServerSettings, pid: int) -> str:
    """Compare what was asked with what the running server of the home was started with (its
    neo4j.conf). Other ports: waiting for Bolt on the asked one could only time out, so refuse at
    once naming the running ports. Another auth setting: the server is usable, but the flag is not
    applied; the returned note says so ("" when nothing differs)."""
    try:
        running = settings_of(s.home)
    except (OSError, KeyError, ValueError, IndexError):
        return ""  # no readable conf: nothing to compare, wait for Bolt as before
    if (running.bolt_port, running.http_port) != (s.bolt_port, s.http_port):
        raise UserError(f"Neo4j already runs from {s.home} (pid {pid}) on Bolt port {running.bolt_port} and HTTP "
                        f"port {running.http_port}, not {s.bolt_port} and {s.http_port}: use --bolt-port "
                        f"{running.bolt_port} --http-port {running.http_port}, or stop it first with "
                        f"`legalkg neo4j stop --home {s.home}`")
    if running.auth != s.auth:
        state, flag = ("on", "--no-auth") if running.auth else ("off", "--auth")
        return (f"; it runs with auth {state}, so {flag} does not apply until it restarts "
                f"(`legalkg neo4j stop --home {s.home}`, then start again)")
    return ""


def private_home(home: Path) -> str:
    """Create ``home`` with mode 0700, or tighten an existing one to it; a note when it was open.

    Why: the home holds the password's salted hash (``data/dbms/auth.ini``), the store and the
    logs, all written 0644 by the JVM; a 0700 home keeps every other user out of all of them."""
    home.mkdir(mode=0o700, parents=True, exist_ok=True)
    mode = stat.S_IMODE(home.stat().st_mode)
    if not mode & 0o077:
        return ""
    home.chmod(0o700)
    return f"; its home {home} was readable by other users (mode {mode:o}): now 0700"


def refused_password(s: ServerSettings, pid: int | None) -> UserError:
    """The one line for a home whose server refuses NEO4J_PASSWORD, with both fixes."""
    home = "" if s.home == default_home() else f" --home {s.home}"
    return UserError(f"Neo4j runs from {s.home} (pid {pid}, still running) but refuses NEO4J_PASSWORD: the home was "
                     "set up with another password (another checkout's .env?): set NEO4J_PASSWORD to that one, or "
                     f"run `legalkg neo4j reset-password{home}` to give the home this one")


def _checked(s: ServerSettings, line: str) -> str:
    if not process.credentials_accepted(s):
        raise refused_password(s, process.read_pid(s))
    return line


def start(s: ServerSettings, timeout: float = 120.0, record: bool = True) -> str:
    """Start in the background unless already running; returns a status line. ``record``: note the
    home for its Bolt port (``homes``), so that ``legalkg ingest --uri`` finds it for the bulk import."""
    pid = process.read_pid(s)
    if pid:
        note = _running_as_asked(s, pid) + private_home(s.home)
        process.wait_for_bolt(s, timeout)
        if record:
            record_home(s.bolt_port, s.home)
        return _checked(s, f"Neo4j already running (pid {pid}){note}")
    for port in (s.bolt_port, s.http_port):
        if process.port_open(port):
            raise UserError(f"port {port} on 127.0.0.1 is already in use by another program: stop it "
                            "or choose other ports with --bolt-port/--http-port")
    if s.auth and not s.password:
        raise UserError("auth is on but NEO4J_PASSWORD is not set: export NEO4J_PASSWORD "
                        "(8+ characters) or start with --no-auth for a local test server")
    jvm.find()  # no Java: one line before Maven runs
    opened = private_home(s.home)
    lib = ensure_jars()
    recorded = ""
    if s.class_archive and jvm.wants_recording(class_archive(lib)):
        recorded = (" (start-up cache recorded once: later starts are faster)"
                    if record_class_archive(lib, timeout) else "")
    write_conf(s, lib)
    if s.auth:
        _set_initial_password(s, lib)
    process.launch(s, lib, timeout)
    if record:
        record_home(s.bolt_port, s.home)
    return _checked(s, f"Neo4j started (pid {process.read_pid(s)}){recorded}{opened}")
