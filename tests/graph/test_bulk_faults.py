"""Faults during a bulk import, and two source files of one law (issue 26.2 and 26.12).

A live server of its own (a home like `legalkg neo4j start`'s) takes each fault; after each one
the next `legalkg ingest` (a bulk import again, the marker says so) must converge to the graph of
an undisturbed load (the same ``graph_checksum``, cypher/checksum_*.cypher). The faults: two files
of one law key (refused before anything is touched, on the Cypher and the import path), SIGINT
while the CSV files are written and, as its rerun, a full disk under them (a 32 KB tmpfs mounted on
the CSV folder; without the right to mount, a file-size limit on the ingest, RLIMIT_FSIZE), SIGKILL
of the importer's JVM, and SIGKILL of the server while it restarts after the import.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from legalkg import paths
from legalkg.graph.admin import wipe
from legalkg.graph.connection import open_driver
from legalkg.graph.inspect import graph_checksum
from legalkg.server.offline_import import ADMIN_TOOL, import_pending
from legalkg.server.process import read_pid

from ..conftest import started_server
from ..processes import children, orphans_after

#: a server of its own and a fault per import cycle: minutes (docs/benchmarks/tests.md)
pytestmark = pytest.mark.slow

LAWS = "BUrlG,KSchG"
INGEST = [sys.executable, "-m", "legalkg.cli", "ingest", "--no-embed", "--quiet"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from started_server(tmp_path_factory.mktemp("faults-home"))


@pytest.fixture(scope="module")
def env(server) -> dict[str, str]:
    settings, cfg = server
    return {**os.environ, "LEGALKG_NEO4J_HOME": str(settings.home), "NEO4J_URI": cfg.uri,
            "NEO4J_USER": cfg.user, "NEO4J_PASSWORD": cfg.password}


def checksum(cfg) -> str:
    drv = open_driver(cfg)
    try:
        return graph_checksum(drv, cfg.database)
    finally:
        drv.close()


def node_count(cfg) -> int:
    drv = open_driver(cfg)
    try:
        return drv.execute_query("MATCH (n) RETURN count(n) AS n", database_=cfg.database).records[0]["n"]
    finally:
        drv.close()


def empty(cfg) -> None:
    drv = open_driver(cfg)
    try:
        wipe(drv, cfg.database)
    finally:
        drv.close()


def ingest(env, *args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([*INGEST, "--codes", LAWS, *args], env=env, capture_output=True, text=True,
                          timeout=300, **kwargs)


def one_error_line(res: subprocess.CompletedProcess) -> str:
    assert res.returncode != 0, res.stdout + res.stderr
    assert "Traceback" not in res.stderr, res.stderr
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, res.stderr
    return lines[0]


@pytest.fixture(scope="module")
def reference(server, env) -> str:
    """The checksum of LAWS loaded undisturbed. By Cypher, which takes seconds where an import cycle
    (stop, import, restart) takes half a minute here: the two loaders write the same graph
    (tests/graph/test_bulk.py), and every rerun below is a bulk import, so it checks that too."""
    _, cfg = server
    empty(cfg)
    res = ingest(env, "--method", "cypher")
    assert res.returncode == 0, res.stdout + res.stderr
    return checksum(cfg)


def converges(server, env, reference: str) -> None:
    settings, cfg = server
    assert import_pending(settings.home), "the fault left no marker: the rerun would not import again"
    rerun = ingest(env)
    assert rerun.returncode == 0, rerun.stdout + rerun.stderr
    assert not import_pending(settings.home) and read_pid(settings) is not None
    assert checksum(cfg) == reference


@pytest.fixture
def two_files_one_law(tmp_path) -> Path:
    data = (paths.gii_dir() / "burlg.xml").read_bytes()
    (tmp_path / "burlg.xml").write_bytes(data)
    (tmp_path / "burlg-kopie.xml").write_bytes(data)
    return tmp_path


def test_two_files_of_one_law_leave_server_and_database_as_they_were(server, env, reference, two_files_one_law):
    """Both paths: the bulk import (empty database; it stopped the server and left it empty) and the
    Cypher load (a graph in place; it wrote half and ended in a ConstraintError traceback)."""
    settings, cfg = server
    source = ["--codes", "all", "--source", str(two_files_one_law)]
    assert checksum(cfg) == reference  # the reference import is in place: the Cypher path first
    for method in ("cypher", "import"):
        if method == "import":
            empty(cfg)
        before, pid = checksum(cfg), read_pid(settings)
        res = subprocess.run([*INGEST, *source, "--method", method], env=env, capture_output=True,
                             text=True, timeout=300)
        line = one_error_line(res)
        assert "burlg-kopie.xml and burlg.xml" in line and "'BUrlG'" in line
        assert read_pid(settings) == pid, "the server was stopped or restarted"
        assert not import_pending(settings.home)
        assert checksum(cfg) == before
    assert node_count(cfg) == 0


def _wait_for(predicate, proc: subprocess.Popen, what: str, seconds: float = 180) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and proc.poll() is None:
        if predicate():
            return
        time.sleep(0.02)
    raise AssertionError(f"the ingest ended (rc {proc.poll()}) before {what}")


def _start_import(env) -> subprocess.Popen:
    return subprocess.Popen([*INGEST, "--codes", LAWS, "--workers", "2"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _mount_tmpfs(where: Path, size: str) -> bool:
    where.mkdir(parents=True, exist_ok=True)
    return subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                          capture_output=True).returncode == 0


def test_faults_while_the_csv_is_written(server, env, reference):
    """SIGINT while the CSV files are written, then, as its rerun, a full disk under them; then the
    next rerun converges. Both faults come before the importer (the server is stopped meanwhile)."""
    settings, cfg = server
    empty(cfg)
    proc = _start_import(env)
    csv = settings.home / "import"
    _wait_for(lambda: any(csv.glob("legalkg-import-*/*")), proc, "the CSV files were written")
    spawned = children(proc.pid)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode != 0 and "Traceback" not in err, err
    assert orphans_after(spawned) == []
    assert not list(csv.glob("legalkg-import-*")), "CSV folder left behind"
    assert import_pending(settings.home)

    mounted = _mount_tmpfs(csv, "32k")
    try:
        if mounted:
            res = ingest(env)
        else:  # no right to mount: a file-size limit on the ingest and its children
            limit = 32 * 1024
            res = ingest(env, preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit)))
    finally:
        if mounted:
            subprocess.run(["umount", str(csv)], check=True)
    line = one_error_line(res)
    assert "No space left on device" in line or "File too large" in line, line
    assert "rerun `legalkg ingest`" in line
    converges(server, env, reference)


def test_sigkill_of_the_importer(server, env, reference):
    settings, cfg = server
    empty(cfg)
    proc = _start_import(env)
    importer: list[int] = []

    def importer_runs() -> bool:
        for pid in children(proc.pid):
            try:
                if ADMIN_TOOL in Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace"):
                    importer.append(pid)
                    return True
            except OSError:
                continue
        return False

    _wait_for(importer_runs, proc, "the importer started")
    os.kill(importer[0], signal.SIGKILL)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode != 0 and "Traceback" not in err, err
    assert "neo4j-admin import failed" in err and "--verbose" not in err, err
    assert read_pid(settings) is None  # the server stays down until the rerun imports
    converges(server, env, reference)


def test_sigkill_of_the_server_while_it_restarts(server, env, reference):
    settings, cfg = server
    empty(cfg)
    first = read_pid(settings)
    proc = _start_import(env)
    restarted: list[int] = []

    def new_server() -> bool:
        pid = read_pid(settings)
        if pid is not None and pid != first and import_pending(settings.home):
            restarted.append(pid)
            return True
        return False

    _wait_for(new_server, proc, "the server restarted")
    os.kill(restarted[0], signal.SIGKILL)
    _, err = proc.communicate(timeout=300)
    assert proc.returncode != 0 and "Traceback" not in err, err
    converges(server, env, reference)
