"""A real Neo4j Community server without Docker: jars from Maven Central, run by Neo4j's own launcher.

Why the launcher (``org.neo4j.server.startup.Neo4jCommand``) and not ``CommunityEntryPoint``: only the
launcher turns ``server.memory.heap.*`` into ``-Xmx``, daemonises with a PID file and stops cleanly.
Jars are resolved by Maven from ``neo4j/pom.xml`` into ``<cache>/neo4j-lib/<pom hash>/`` once; the
second start downloads nothing. Data and logs live in ``<home>`` (default ``<cache>/neo4j``) and
survive restarts.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel

from ..errors import UserError
from ..paths import REPO_ROOT, cache_dir
from . import jvm
from .jars import unsign_all

POM = REPO_ROOT / "neo4j" / "pom.xml"
LAUNCHER = "org.neo4j.server.startup.Neo4jCommand"
ADMIN = "org.neo4j.server.startup.Neo4jAdminCommand"
#: the admin tool itself, the JVM that ``ADMIN`` spawns
ADMIN_TOOL = "org.neo4j.cli.AdminTool"


class ServerSettings(BaseModel):
    home: Path
    bolt_port: int = 7687
    http_port: int = 7474
    auth: bool = True
    password: str | None = None
    heap: str = "1g"
    pagecache: str = "512m"
    #: further neo4j.conf lines (benchmarks and experiments); a None value drops a default line
    extra: dict[str, str | None] = {}
    #: start the JVM from a start-up cache recorded once per jar set and JVM (:func:`class_archive`)
    class_archive: bool = True

    @property
    def conf_dir(self) -> Path:
        return self.home / "conf"

    @property
    def logs_dir(self) -> Path:
        return self.home / "logs"

    @property
    def pid_file(self) -> Path:
        return self.home / "run" / "neo4j.pid"

    @property
    def bolt_uri(self) -> str:
        return f"bolt://127.0.0.1:{self.bolt_port}"

    @property
    def browser_url(self) -> str:
        return f"http://127.0.0.1:{self.http_port}/browser/"


def default_home() -> Path:
    env = os.environ.get("LEGALKG_NEO4J_HOME")
    return Path(env) if env else cache_dir() / "neo4j"


def _java() -> str:
    """The java binary Neo4j runs on (:func:`legalkg.graph.jvm.find`)."""
    return jvm.find().path


#: part of the jar folder's name: a folder filled before the jars lost their signatures is not reused
JARS_REVISION = b"unsigned-1"


def jar_dir(pom: Path = POM) -> Path:
    digest = hashlib.sha256(pom.read_bytes() + JARS_REVISION).hexdigest()[:12]
    return cache_dir() / "neo4j-lib" / digest


def ensure_jars(pom: Path = POM, quiet: bool = True) -> Path:
    """Resolve the server and Browser jars with Maven into the cache (atomically, once)."""
    lib = jar_dir(pom)
    if (lib / ".complete").exists():
        return lib
    mvn = shutil.which("mvn")
    if not mvn:
        raise UserError("Maven (mvn) is needed once to fetch the Neo4j jars: install it "
                        "(apt install maven) or use `docker compose up -d`")
    lib.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="lib-", dir=lib.parent))
    cmd = [mvn, "-B", "-f", str(pom), "dependency:copy-dependencies",
           f"-DoutputDirectory={tmp}", "-DincludeScope=runtime"]
    if quiet:
        cmd.insert(1, "-q")
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0 or not any(tmp.glob("neo4j-5*.jar")):
        shutil.rmtree(tmp, ignore_errors=True)
        tail = (proc.stdout + proc.stderr).strip().splitlines()[-3:]
        raise UserError("could not fetch the Neo4j jars from Maven Central "
                        f"({' / '.join(tail) or 'no jars'}): check the network or ~/.m2/settings.xml")
    unsign_all(tmp)  # cacheable classes, no signature check per JVM start (legalkg.graph.jars)
    (tmp / ".complete").touch()
    if lib.exists():
        shutil.rmtree(lib)
    tmp.rename(lib)
    return lib


def _jvm_options(s: ServerSettings, lib: Path) -> list[str]:
    """The server JVM's extra options: the chosen Java's own and its start-up cache when recorded."""
    java = jvm.find()
    archive = class_archive(lib)
    return [*java.flags, *(java.use_cache(archive) if s.class_archive and archive.exists() else [])]


def write_conf(s: ServerSettings, lib: Path) -> Path:
    for sub in ("conf", "data", "logs", "run", "plugins", "import"):
        (s.home / sub).mkdir(parents=True, exist_ok=True)
    conf = {
        "server.directories.data": s.home / "data",
        "server.directories.logs": s.logs_dir,
        "server.directories.run": s.home / "run",
        "server.directories.plugins": s.home / "plugins",
        "server.directories.import": s.home / "import",
        "server.directories.lib": lib,
        "dbms.security.auth_enabled": str(s.auth).lower(),
        "server.default_listen_address": "127.0.0.1",
        "server.bolt.listen_address": f"127.0.0.1:{s.bolt_port}",
        "server.bolt.advertised_address": f"127.0.0.1:{s.bolt_port}",
        "server.http.listen_address": f"127.0.0.1:{s.http_port}",
        "server.http.advertised_address": f"127.0.0.1:{s.http_port}",
        "server.https.enabled": "false",
        "server.memory.heap.initial_size": s.heap,
        "server.memory.heap.max_size": s.heap,
        "server.memory.pagecache.size": s.pagecache,
        "dbms.usage_report.enabled": "false",
        "db.tx_log.rotation.retention_policy": "2 files",
        # Build a vector index from one large buffer instead of many 1-MB flushes, and merge them:
        # one Lucene segment instead of eight for 40k vectors, kNN p50 1.7x lower
        # (docs/benchmarks/retrieval.md, "Index layout"). Internal settings of Neo4j 5.26.
        "internal.dbms.index.vector.population_ram_buffer_size": "256",
        "internal.dbms.index.vector.population_merge_factor": "2",
        # Netty waits a 5 s quiet period per event-loop group when Bolt shuts down: a stop took
        # 10.5 s, without it 0.6 s (benchmarks/bulk_parts.py, docs/benchmarks/ingest.md).
        # Connections are closed before it, so nothing is waited for. Internal setting of 5.26.
        "internal.dbms.bolt.netty_server_shutdown_quiet_period": "0",
        **({"server.jvm.additional": " ".join(jvm_options)} if (jvm_options := _jvm_options(s, lib)) else {}),
        **s.extra,
    }
    conf = {k: v for k, v in conf.items() if v is not None}
    path = s.conf_dir / "neo4j.conf"
    path.write_text("# written by `legalkg neo4j start`; edits are overwritten on the next start\n"
                    + "".join(f"{k}={v}\n" for k, v in conf.items()), "utf-8")
    return path


def _env(s: ServerSettings) -> dict[str, str]:
    env = dict(os.environ)
    env["NEO4J_HOME"] = str(s.home)
    env["NEO4J_CONF"] = str(s.conf_dir)
    return env


def _alive(pid: int) -> bool:
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
    return pid if _alive(pid) else None


def _port_open(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.5)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def log_tail(s: ServerSettings, lines: int = 15) -> str:
    for name in ("neo4j.log", "debug.log"):
        path = s.logs_dir / name
        if path.exists():
            return "\n".join(path.read_text("utf-8", errors="replace").splitlines()[-lines:])
    return "(no log yet)"


def _set_initial_password(s: ServerSettings, lib: Path) -> None:
    """Only effective before the first start; later password changes go through Cypher."""
    if not s.password or (s.home / "data" / "databases" / "system").exists():
        return
    if len(s.password) < 8:
        raise UserError("NEO4J_PASSWORD must have at least 8 characters (Neo4j's rule)")
    proc = subprocess.run([_java(), "-cp", f"{lib}/*", ADMIN, "dbms", "set-initial-password",
                           s.password], env=_env(s), capture_output=True, text=True)
    if proc.returncode != 0:
        raise UserError(f"could not set the initial Neo4j password: {proc.stderr.strip()[-200:]}")


def wait_for_bolt(s: ServerSettings, timeout: float = 120.0) -> None:
    """Poll until a Bolt query returns; on timeout raise with the log tail so the cause is visible."""
    from neo4j import GraphDatabase
    from neo4j import exceptions as nx

    deadline = time.monotonic() + timeout
    auth = ("neo4j", s.password) if (s.auth and s.password) else None
    last = ""
    while time.monotonic() < deadline:
        if read_pid(s) is None and s.pid_file.exists():
            break
        if _port_open(s.bolt_port):
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


def start(s: ServerSettings, timeout: float = 120.0) -> str:
    """Start in the background unless already running; returns a status line."""
    pid = read_pid(s)
    if pid:
        wait_for_bolt(s, timeout)
        return f"Neo4j already running (pid {pid})"
    for port in (s.bolt_port, s.http_port):
        if _port_open(port):
            raise UserError(f"port {port} on 127.0.0.1 is already in use by another program: stop it "
                            "or choose other ports with --bolt-port/--http-port")
    if s.auth and not s.password:
        raise UserError("auth is on but NEO4J_PASSWORD is not set: export NEO4J_PASSWORD "
                        "(8+ characters) or start with --no-auth for a local test server")
    _java()  # no Java: one line before Maven runs
    lib = ensure_jars()
    recorded = ""
    if s.class_archive and jvm.wants_recording(class_archive(lib)):
        recorded = (" (start-up cache recorded once: later starts are faster)"
                    if record_class_archive(lib, timeout) else "")
    write_conf(s, lib)
    if s.auth:
        _set_initial_password(s, lib)
    launch(s, lib, timeout)
    return f"Neo4j started (pid {read_pid(s)}){recorded}"


def class_archive(lib: Path) -> Path:
    """The start-up cache of the server JVM for this jar set and JVM: an AOT cache on JDK 25
    (classes loaded and linked, method profiles), else a class-data-sharing archive.

    Why: every start loads and verifies the classes of 214 jars anew and compiles the same hot
    methods; mapped from an archive recorded once, a start took 9.8 s instead of 14.9 s
    (benchmarks/bulk_parts.py; JDK 25's AOT cache: docs/benchmarks/ingest.md, "eighth session").
    It lives in the cache, beside the jars, never in a server home.
    """
    java = jvm.find()
    return cache_dir() / "neo4j-cds" / f"{lib.name}-{java.fingerprint}{java.suffix}"


def record_class_archive(lib: Path, timeout: float = 240.0, training: Sequence[str] | None = None,
                         target: Path | None = None, params: dict | None = None) -> bool:
    """Record :func:`class_archive` with a throwaway server (once per jar set and JVM).

    The training server answers a few queries that a load and a search use (schema, full-text,
    writes), is stopped, and the JVM writes the archive at exit. It is validated by a JVM start
    and then renamed into place: a truncated archive would crash every JVM that maps it.
    Returns False (and leaves nothing behind) when anything fails: the archive only saves time.
    ``training`` (with its query ``params``) and ``target`` replace :data:`_TRAINING` and
    :func:`class_archive`, for benchmarks/bulk_parts.py.
    """
    from neo4j import GraphDatabase

    target = class_archive(lib) if target is None else target
    training = _TRAINING if training is None else training
    try:  # a cache folder that cannot be written must not stop the start either
        target.parent.mkdir(parents=True, exist_ok=True)
        jvm.sweep_training(target.parent)
        work = Path(tempfile.mkdtemp(prefix="train-", dir=target.parent))
    except OSError:
        return False
    java = jvm.find()
    partial = work / f"classes{java.suffix}"
    train = ServerSettings(home=work / "home", bolt_port=free_port(), http_port=free_port(), auth=False,
                           heap="512m", pagecache="64m", class_archive=False,
                           extra={"server.jvm.additional": " ".join([*java.flags, *java.record_cache(partial)])})
    try:
        write_conf(train, lib)
        launch(train, lib, timeout)
        with GraphDatabase.driver(train.bolt_uri, auth=None) as drv:
            for stmt in training:
                drv.execute_query(stmt, params)
        stop(train, timeout=timeout)
        # the check fails unless the archive maps with the server's class path (conf/* holds no jars)
        return java.keep(partial, target, f"{train.conf_dir}/*:{lib}/*")
    except Exception:  # noqa: BLE001 - an optimisation must never stop a start
        if read_pid(train):
            stop(train, timeout=30)
        return False
    finally:
        shutil.rmtree(work, ignore_errors=True)


#: What the training server runs before it stops: the classes of a load, the schema step and a search.
#: (A training on 2 x 40,000 stored nodes and then their schema, closer to a bulk load, recorded a
#: cache under which the schema step of the 58 codes was 1.02x and 1.10x as fast in two runs: too
#: small and uneven for a longer training; docs/benchmarks/ingest.md, "tenth session".)
_TRAINING = [
    "CREATE CONSTRAINT t_id IF NOT EXISTS FOR (n:T) REQUIRE n.id IS UNIQUE",
    "CREATE FULLTEXT INDEX t_text IF NOT EXISTS FOR (n:T) ON EACH [n.text] "
    "OPTIONS {indexConfig: {`fulltext.analyzer`: 'german', `fulltext.eventually_consistent`: true}}",
    "UNWIND range(1, 200) AS i MERGE (n:T {id: 'T/' + i}) SET n.text = 'Der Käufer zahlt ' + i "
    "WITH n MATCH (r:T {id: 'T/1'}) MERGE (r)-[:CONTAINS_T]->(n)",
    "CALL db.awaitIndexes(60)",
    "CALL db.index.fulltext.awaitEventuallyConsistentIndexRefresh()",
    "CALL db.index.fulltext.queryNodes('t_text', 'Käufer') YIELD node, score RETURN node.id, score LIMIT 5",
    "MATCH (n:T)-[:CONTAINS_T]->(m) RETURN count(m)",
]


def free_port() -> int:
    """A free TCP port on 127.0.0.1 (training, test and benchmark servers)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


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
    return cmd if cmd and "org.neo4j.server.CommunityEntryPoint" in cmd else None


def relaunch(s: ServerSettings, cmd: list[str], timeout: float = 120.0) -> None:
    """Start the server JVM with the command line the launcher computed for it before.

    Why not the launcher again: it is a JVM of its own that runs before it spawns the server (with
    the archive a start took 9.8 s through it, 6.9 s without it; benchmarks/bulk_parts.py).
    Same daemon shape as the launcher's: own session, output appended to neo4j.log, PID file.
    """
    s.logs_dir.mkdir(parents=True, exist_ok=True)
    s.pid_file.parent.mkdir(parents=True, exist_ok=True)
    # sh starts the JVM in the background and exits: the JVM is nobody's child here (no zombie,
    # no "still running" warning) and keeps running when this process ends.
    script = 'log="$1"; shift; "$@" >>"$log" 2>&1 </dev/null & echo $!'
    proc = subprocess.run(["/bin/sh", "-c", script, "sh", str(s.logs_dir / "neo4j.log"), *cmd], env=_env(s),
                          cwd=s.home, capture_output=True, text=True, start_new_session=True)
    if proc.returncode != 0 or not proc.stdout.strip().isdigit():
        raise UserError(f"Neo4j failed to start: {proc.stderr.strip()[-300:]}; log tail:\n{log_tail(s)}")
    s.pid_file.write_text(proc.stdout.strip())
    wait_for_bolt(s, timeout)


def launch(s: ServerSettings, lib: Path, timeout: float = 120.0) -> None:
    """Run the launcher with the home's current neo4j.conf and wait for Bolt (``start`` writes the
    conf first; a bulk import restarts the server with the conf as it is)."""
    proc = subprocess.run([_java(), "-cp", f"{lib}/*", LAUNCHER, "start"], env=_env(s),
                          capture_output=True, text=True, cwd=s.home)
    if proc.returncode != 0:
        raise UserError(f"Neo4j failed to start: {(proc.stdout + proc.stderr).strip()[-300:]}; "
                        f"log tail:\n{log_tail(s)}")
    wait_for_bolt(s, timeout)


def stop(s: ServerSettings, timeout: float = 90.0) -> str:
    """SIGTERM and wait for the JVM to exit (a graceful stop takes 10-20 s); SIGKILL after timeout."""
    pid = read_pid(s)
    if not pid:
        return "Neo4j is not running"
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not _alive(pid):
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
    state = "answering" if _port_open(s.bolt_port) else "starting"
    return True, (f"Neo4j running (pid {pid}, {state}); Bolt {s.bolt_uri}, Browser {s.browser_url}, "
                  f"logs {s.logs_dir}")
