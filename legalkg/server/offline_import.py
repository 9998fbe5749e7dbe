"""The server-side steps of an offline import (``neo4j-admin database import full``) into a local home.

Why these steps exist: the importer writes store files directly, so the database must be offline
and its files at hand. That holds only for the server ``legalkg neo4j start`` runs (its home is
known, :func:`managed_home`). The steps, in the order ``legalkg.graph.bulk`` runs them: write the
marker, stop the server, run the importer, start the server again, remove the marker.

Resumability: the marker file in the server's ``run/`` folder is written before the server stops
and removed only after the restarted server has its schema. A run killed in between leaves it; the
next ingest sees it and imports again (``--overwrite-destination``), so the graph converges. The
marker also keeps the server's JVM command line, so a server left down is restarted as it ran.

The importer's child process gets SIGKILL when the importing process dies (``procs.die_with_parent``):
no orphan keeps writing into a store that the rerun rewrites.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlparse

from ..errors import UserError
from ..procs import die_with_parent
from . import caches, jvm, process
from .conf import configured_lib, default_home, environment, read_conf, settings_of
from .homes import recorded_home

MARKER = "legalkg-import.json"
#: the admin tool itself, the JVM that Neo4j's admin launcher spawns
ADMIN_TOOL = "org.neo4j.cli.AdminTool"


def managed_home(uri: str, home: Path | None = None) -> Path | None:
    """The home of the ``legalkg neo4j`` server that listens at ``uri``, or None (Docker, remote):
    ``home`` (default ``LEGALKG_NEO4J_HOME`` or the cache's), else the home that ``legalkg neo4j
    start`` recorded for the port (``homes``); either only when its conf names that port."""
    parsed = urlparse(uri)
    if parsed.scheme not in ("bolt", "neo4j") or parsed.hostname not in ("127.0.0.1", "localhost"):
        return None
    port = str(parsed.port or 7687)
    for candidate in (home or default_home(), recorded_home(int(port))):
        if candidate is None:
            continue
        try:
            listen = read_conf(candidate).get("server.bolt.listen_address")
        except OSError:
            continue
        if listen is not None and listen.rsplit(":", 1)[-1] == port:
            return candidate
    return None


def is_running(home: Path) -> bool:
    """True when the server of ``home`` runs (its PID file names a live process)."""
    return process.read_pid(settings_of(home)) is not None


def marker_path(home: Path) -> Path:
    return home / "run" / MARKER


def import_pending(home: Path | None) -> bool:
    """True when a bulk import into ``home`` was started and not finished (rerun it)."""
    return home is not None and marker_path(home).exists()


def _marker_command(marker: Path) -> list[str] | None:
    try:
        command = json.loads(marker.read_text("utf-8")).get("command")
    except (OSError, ValueError, AttributeError):
        return None
    return command if isinstance(command, list) and all(isinstance(a, str) for a in command) else None


def begin(home: Path, laws: int) -> list[str] | None:
    """Write the marker (atomically) before anything is touched; returns the server JVM's command
    line for the restart: the running server's, or, when an interrupted import left the server
    down, the one the marker kept."""
    marker = marker_path(home)
    command = process.running_command(settings_of(home))
    if command is None:
        command = _marker_command(marker)
    marker.parent.mkdir(parents=True, exist_ok=True)
    partial = marker.with_suffix(".tmp")
    partial.write_text(json.dumps({"laws": laws, "pid": os.getpid(), "started": time.time(),
                                   "command": command}), "utf-8")
    partial.replace(marker)
    return command


def finish(home: Path) -> None:
    """The import is complete (the restarted server has its schema): remove the marker."""
    marker_path(home).unlink(missing_ok=True)


def import_dir(home: Path) -> Path:
    """The home's import folder, where the CSV files of an import are written."""
    path = home / "import"
    path.mkdir(parents=True, exist_ok=True)
    return path


def forget_previous(home: Path) -> None:
    """CSV folders of earlier interrupted imports are rewritten from the parse, never reused."""
    for old in import_dir(home).glob("legalkg-import-*"):
        shutil.rmtree(old, ignore_errors=True)


def stop_server(home: Path) -> None:
    process.stop(settings_of(home))


def jvm_size(value: str | None) -> str | None:
    """A neo4j.conf memory size ("1g", "512m", "2GiB") as a JVM size ("1g"), or None."""
    m = re.fullmatch(r"\s*(\d+)\s*([kmgt])?(?:i?b)?\s*", (value or "").lower())
    return f"{m.group(1)}{m.group(2) or ''}" if m else None


def import_command(home: Path, files: Sequence[str], database: str = "neo4j", record: Path | None = None,
                   jit: tuple[str, ...] = ()) -> list[str]:
    """The ``neo4j-admin database import full`` command over the import options ``files``
    (``legalkg.graph.import_files.CsvFolder.import_args``).

    The admin tool's own JVM runs directly, with the command line Neo4j's admin launcher builds
    for it (class path with conf/, file encoding, the server's heap): the launcher would be a JVM
    of its own before it. On a JDK with an AOT cache the JVM maps
    :func:`legalkg.server.caches.admin_archive`, or records it into ``record`` when given. ``jit``
    adds JIT options, for the comparison in benchmarks/bulk_parts.py (the defaults stay).
    """
    args = ["database", "import", "full", database, "--overwrite-destination=true", *files]
    conf = read_conf(home)
    lib = conf["server.directories.lib"]
    java = jvm.find()
    heap = jvm_size(conf.get("server.memory.heap.max_size"))
    archive = caches.admin_archive(Path(lib))
    cache = (java.record_cache(record) if record is not None
             else java.use_cache(archive) if java.aot and archive.exists() else [])
    return [java.path, *java.flags, *jit, *cache, "-cp", f"{home / 'conf'}/*:{lib}/*", "-Dfile.encoding=UTF-8",
            *([f"-Xmx{heap}"] if heap else []), ADMIN_TOOL, *args]


def admin_recording(lib: Path) -> Path | None:
    """A fresh file to record the admin cache into, or None (cache there, no AOT, a recording that
    failed before, unwritable cache)."""
    archive = caches.admin_archive(lib)
    if not jvm.find().aot or not jvm.wants_recording(archive):
        return None
    try:
        archive.parent.mkdir(parents=True, exist_ok=True)
        jvm.sweep_training(archive.parent)
        return Path(tempfile.mkdtemp(prefix="train-admin-", dir=archive.parent)) / f"admin{archive.suffix}"
    except OSError:
        return None


def keep_admin_recording(home: Path, lib: Path, recorded: Path) -> None:
    """Move a recorded admin cache into place once a JVM has started on it, and clean up."""
    try:
        jvm.find().keep(recorded, caches.admin_archive(lib), f"{home / 'conf'}/*:{lib}/*")
    except OSError:
        pass
    finally:
        shutil.rmtree(recorded.parent, ignore_errors=True)


def run_import(home: Path, files: Sequence[str], database: str = "neo4j") -> None:
    """``neo4j-admin database import full`` over the (stopped) database; the first run on a JDK
    with an AOT cache records the admin tool's cache."""
    s = settings_of(home)
    lib = configured_lib(home)
    record = admin_recording(lib)
    cmd = import_command(home, files, database, record=record)
    proc = subprocess.run(cmd, env=environment(s), capture_output=True, text=True, cwd=home,
                          preexec_fn=die_with_parent)  # a killed run leaves no import writing on
    if record is not None:
        if proc.returncode == 0:
            keep_admin_recording(home, lib, record)
        else:
            shutil.rmtree(record.parent, ignore_errors=True)
    if proc.returncode != 0:
        lines = [ln for ln in (proc.stdout + proc.stderr).strip().splitlines() if ln.strip()]
        cause = next((ln for ln in lines if "Exception:" in ln), lines[-1] if lines else "no output")
        raise UserError(f"neo4j-admin import failed ({cause.strip()[:300]}); the server is stopped and "
                        f"the database incomplete: fix the cause and rerun `legalkg ingest` (it imports again)")


def start_server(home: Path, command: list[str] | None = None, timeout: float = 180.0) -> None:
    """Start the server with its existing neo4j.conf (``startup.start`` would rewrite it): with the
    JVM command line it ran with before the import when known, else through the launcher."""
    s = settings_of(home)
    if process.read_pid(s) is not None:
        process.wait_for_bolt(s, timeout)
    elif command and Path(command[0]).exists():
        process.relaunch(s, command, timeout)
    else:
        process.launch(s, configured_lib(home), timeout)
