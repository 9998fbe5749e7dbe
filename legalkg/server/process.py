"""The server's JVM as a process: launch, relaunch, wait for Bolt, stop, status.

Why Neo4j's own launcher (``org.neo4j.server.startup.Neo4jCommand``) and not ``CommunityEntryPoint``:
only the launcher turns ``server.memory.heap.*`` into ``-Xmx``, daemonises with a PID file and stops
cleanly. A restart may skip it (:func:`relaunch`) because the command it computed is known then.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from neo4j import GraphDatabase, exceptions as nx

from ..errors import UserError
from . import jvm
from .conf import ServerSettings, environment

LAUNCHER = "org.neo4j.server.startup.Neo4jCommand"
#: the server JVM's main class, in the command line the launcher computes
ENTRY_POINT = "org.neo4j.server.CommunityEntryPoint"


def alive(pid: int) -> bool:
    """True while the process exists and is not a zombie (PID 1 in containers may never reap it)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state not in ("Z", "X")


def read_pid(s: ServerSettings) -> int | None:
    try:
        pid = int(s.pid_file.read_text().strip())
    except (OSError, ValueError):
        return None
    return pid if alive(pid) else None


def port_open(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.5)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def free_port() -> int:
    """A free TCP port on 127.0.0.1 (training, test and benchmark servers)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def log_tail(s: ServerSettings, lines: int = 15) -> str:
    for name in ("neo4j.log", "debug.log"):
        path = s.logs_dir / name
        if path.exists():
            return "\n".join(path.read_text("utf-8", errors="replace").splitlines()[-lines:])
    return "(no log yet)"


def wait_for_bolt(s: ServerSettings, timeout: float = 120.0) -> None:
    """Poll until a Bolt query returns; on timeout raise with the log tail so the cause is visible."""
    deadline = time.monotonic() + timeout
    auth = ("neo4j", s.password) if (s.auth and s.password) else None
    last = ""
    while time.monotonic() < deadline:
        if read_pid(s) is None and s.pid_file.exists():
            break
        if port_open(s.bolt_port):
            try:
                with GraphDatabase.driver(s.bolt_uri, auth=auth, connection_timeout=2) as drv:
                    drv.execute_query("RETURN 1")
                return
            except nx.AuthError:
                return  # the server answers; credentials are the caller's business
            except Exception as err:  # still starting
                last = str(err)[:200]
        time.sleep(0.5)
    raise UserError(f"Neo4j did not answer on {s.bolt_uri} within {timeout:.0f} s ({last}); "
                    f"log tail from {s.logs_dir}:\n{log_tail(s)}")


def credentials_accepted(s: ServerSettings, user: str = "neo4j") -> bool:
    """Whether the running server takes ``s.password`` for ``user`` (True when auth is off).

    Why at start: a home outlives the checkout whose ``.env`` set its password up; a server that
    refuses this one is said at once, with the fix, not by the first command that connects."""
    if not (s.auth and s.password):
        return True
    try:
        with GraphDatabase.driver(s.bolt_uri, auth=(user, s.password), connection_timeout=5) as drv:
            return drv.verify_authentication()
    except nx.AuthError:
        return False


@contextmanager
def private_files() -> Iterator[None]:
    """Start children with umask 077: the JVM writes auth.ini, the store and the logs readable by
    its user only (the home is 0700 as well, ``startup.private_home``)."""
    old = os.umask(0o077)
    try:
        yield
    finally:
        os.umask(old)


def launch(s: ServerSettings, lib: Path, timeout: float = 120.0) -> None:
    """Run the launcher with the home's current neo4j.conf and wait for Bolt (``startup.start``
    writes the conf first; a bulk import restarts the server with the conf as it is)."""
    with private_files():
        proc = subprocess.run([jvm.find().path, "-cp", f"{lib}/*", LAUNCHER, "start"], env=environment(s),
                              capture_output=True, text=True, cwd=s.home)
    if proc.returncode != 0:
        raise UserError(f"Neo4j failed to start: {(proc.stdout + proc.stderr).strip()[-300:]}; "
                        f"log tail:\n{log_tail(s)}")
    wait_for_bolt(s, timeout)


def running_command(s: ServerSettings) -> list[str] | None:
    """The command line of the running server JVM (what the launcher computed), or None."""
    pid = read_pid(s)
    if pid is None:
        return None
    try:
        args = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return None
    cmd = [a.decode() for a in args]
    while cmd and not cmd[-1]:
        cmd.pop()
    return cmd if cmd and ENTRY_POINT in cmd else None


def relaunch(s: ServerSettings, cmd: list[str], timeout: float = 120.0) -> None:
    """Start the server JVM with the command line the launcher computed for it before.

    Why not the launcher again: it is a JVM of its own that runs before it spawns the server, and
    on a restart its work is already known (docs/benchmarks/ingest.md). Same daemon shape as the
    launcher's: own session, output appended to neo4j.log, PID file.
    """
    s.logs_dir.mkdir(parents=True, exist_ok=True)
    s.pid_file.parent.mkdir(parents=True, exist_ok=True)
    # sh starts the JVM in the background and exits: the JVM is nobody's child here (no zombie,
    # no "still running" warning) and keeps running when this process ends.
    script = 'log="$1"; shift; "$@" >>"$log" 2>&1 </dev/null & echo $!'
    with private_files():
        proc = subprocess.run(["/bin/sh", "-c", script, "sh", str(s.logs_dir / "neo4j.log"), *cmd],
                              env=environment(s), cwd=s.home, capture_output=True, text=True,
                              start_new_session=True)
    if proc.returncode != 0 or not proc.stdout.strip().isdigit():
        raise UserError(f"Neo4j failed to start: {proc.stderr.strip()[-300:]}; log tail:\n{log_tail(s)}")
    s.pid_file.write_text(proc.stdout.strip())
    wait_for_bolt(s, timeout)


def stop(s: ServerSettings, timeout: float = 90.0) -> str:
    """SIGTERM and wait for the JVM to exit (a graceful stop takes 10-20 s); SIGKILL after timeout."""
    pid = read_pid(s)
    if not pid:
        return "Neo4j is not running"
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not alive(pid):
            break
        time.sleep(0.3)
    else:
        os.kill(pid, signal.SIGKILL)
        time.sleep(0.5)
    s.pid_file.unlink(missing_ok=True)
    return f"Neo4j stopped (pid {pid})"


def status(s: ServerSettings) -> tuple[bool, str]:
    pid = read_pid(s)
    if not pid:
        return False, f"Neo4j is not running (home {s.home})"
    state = "answering" if port_open(s.bolt_port) else "starting"
    return True, (f"Neo4j running (pid {pid}, {state}); Bolt {s.bolt_uri}, Browser {s.browser_url}, "
                  f"logs {s.logs_dir}")
