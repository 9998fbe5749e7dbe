"""`legalkg neo4j start|status|stop` and the server process (legalkg.server) on throwaway servers with auth off."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from neo4j import GraphDatabase

from legalkg.server import caches, jars, jvm, process, startup
from legalkg.server.conf import ServerSettings, write_conf
from legalkg.server.process import free_port
from legalkg.server.startup import start
from legalkg.server.training import record_class_archive

CLI = [sys.executable, "-m", "legalkg.cli"]


def _run(*args: str, env=None, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=400)


def _java_pids_for(home: Path) -> list[int]:
    out = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmd = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            env = (proc / "environ").read_bytes().decode(errors="replace")
        except OSError:
            continue
        if "java" in cmd and str(home) in cmd + env:
            out.append(int(proc.name))
    return [p for p in out if process.alive(p)]


def test_start_status_stop_without_auth(tmp_path):
    home = tmp_path / "n4j"
    bolt, http = free_port(), free_port()
    ports = ["--bolt-port", str(bolt), "--http-port", str(http)]
    env = {k: v for k, v in os.environ.items() if k != "NEO4J_PASSWORD"}
    started = _run("neo4j", "start", "--no-auth", "--home", str(home), *ports, "--heap", "512m",
                   "--pagecache", "128m", env=env)
    try:
        assert started.returncode == 0, started.stdout + started.stderr
        assert f"bolt://127.0.0.1:{bolt}" in started.stdout
        assert f"http://127.0.0.1:{http}/browser/" in started.stdout
        assert f"Java:    {jvm.find().path} (Java {jvm.find().major}," in started.stdout
        with GraphDatabase.driver(f"bolt://127.0.0.1:{bolt}", auth=None) as drv:
            assert drv.execute_query("RETURN 7 AS x").records[0]["x"] == 7
        with urllib.request.urlopen(f"http://127.0.0.1:{http}/browser/", timeout=10) as resp:
            assert resp.status == 200
        status = _run("neo4j", "status", "--home", str(home), *ports, env=env)
        assert status.returncode == 0 and "running" in status.stdout
        assert "start-up cache of the server: recorded" in status.stdout
        assert (home / "conf" / "neo4j.conf").read_text().count("127.0.0.1") >= 2
        assert (home / "logs" / "neo4j.log").exists()
        # nothing of the home is readable by other users: the home 0700, the files the JVM wrote 0600
        assert stat.S_IMODE(home.stat().st_mode) == 0o700
        assert not stat.S_IMODE((home / "logs" / "neo4j.log").stat().st_mode) & 0o077
        again = _run("neo4j", "start", "--no-auth", "--home", str(home), *ports, env=env)
        assert again.returncode == 0 and "already running" in again.stdout
        assert "does not apply" not in again.stdout
        # other ports: at once, naming the running ports and the stop command (waited 180 s for "()")
        other = ["--bolt-port", str(free_port()), "--http-port", str(free_port())]
        clock = time.monotonic()
        moved = _run("neo4j", "start", "--no-auth", "--home", str(home), *other, "--timeout", "60", env=env)
        assert moved.returncode == 1 and time.monotonic() - clock < 30
        assert f"Bolt port {bolt} and HTTP port {http}" in moved.stderr
        assert f"legalkg neo4j stop --home {home}" in moved.stderr and moved.stderr.count("\n") == 1
        # another auth setting: said, not ignored
        with_auth = _run("neo4j", "start", "--home", str(home), *ports, env={**env, "NEO4J_PASSWORD": "pw-12345678"})
        assert with_auth.returncode == 0, with_auth.stderr
        assert "it runs with auth off, so --auth does not apply" in with_auth.stdout
    finally:
        stopped = _run("neo4j", "stop", "--home", str(home), env=env)
    assert stopped.returncode == 0 and "stopped" in stopped.stdout
    assert _java_pids_for(home) == []
    status = _run("neo4j", "status", "--home", str(home), *ports, env=env)
    assert status.returncode == 3 and "not running" in status.stdout
    assert (home / "data" / "databases").is_dir()  # data folder survives the stop


def test_auth_without_password_is_refused(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "NEO4J_PASSWORD"}
    # from a folder without a .env: the checkout's (quickstart writes one) would supply a password
    result = _run("neo4j", "start", "--home", str(tmp_path / "home"), "--bolt-port", str(free_port()),
                  "--http-port", str(free_port()), env=env, cwd=tmp_path)
    assert result.returncode == 1
    assert "NEO4J_PASSWORD" in result.stderr and "Traceback" not in result.stderr


def test_restart_with_the_recorded_command_line(tmp_path):
    """A bulk import restarts the server with the JVM command the launcher built (no launcher JVM):
    same command, answering, stoppable by `legalkg neo4j stop`, nothing left running."""
    s = ServerSettings(home=tmp_path / "n4j", bolt_port=free_port(), http_port=free_port(),
                       auth=False, heap="512m", pagecache="64m")
    start(s, timeout=240, record=False)
    try:
        command = process.running_command(s)
        assert command is not None and "org.neo4j.server.CommunityEntryPoint" in command
        assert f"--home-dir={s.home}" in command
        first = process.read_pid(s)
        process.stop(s)
        assert process.read_pid(s) is None
        process.relaunch(s, command, timeout=240)
        assert process.read_pid(s) not in (None, first)
        assert process.running_command(s) == command
        with GraphDatabase.driver(s.bolt_uri, auth=None) as drv:
            assert drv.execute_query("RETURN 6 * 7 AS x").records[0]["x"] == 42
        log = (s.home / "logs" / "neo4j.log").read_text("utf-8")
        assert log.count("Started.") == 2  # the relaunched JVM writes to the same log
    finally:
        stopped = _run("neo4j", "stop", "--home", str(s.home))
    assert "stopped" in stopped.stdout
    assert _java_pids_for(s.home) == []


def test_the_server_maps_the_recorded_class_archive(tmp_path):
    """`legalkg neo4j start` records a start-up cache once (per jar set and JVM: an AOT cache on
    JDK 25, a class-data archive before) and every later start maps it; the cache is complete (a
    JVM told to require it refuses to start otherwise)."""
    lib = jars.ensure_jars()
    assert [jar.name for jar in lib.glob("*.jar") if jars.is_signed(jar)] == []  # all classes cacheable
    java = jvm.find()
    archive = caches.class_archive(lib)
    assert archive.suffix == (".aot" if java.aot else ".jsa")
    if not archive.exists():  # CI's `legalkg neo4j start` recorded it already; locally maybe not
        assert record_class_archive(lib)
    check = subprocess.run([java.path, *java.flags, *java.require_cache(archive),
                            "-cp", f"{tmp_path}/*:{lib}/*", "-version"], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    s = ServerSettings(home=tmp_path / "n4j", bolt_port=free_port(), http_port=free_port(),
                       auth=False, heap="512m", pagecache="64m")
    start(s, timeout=240, record=False)
    try:
        command = process.running_command(s)
        assert Path(command[0]).resolve() == Path(java.path).resolve()
        assert all(option in command for option in [*java.flags, *java.use_cache(archive)])
        log = (s.home / "logs" / "neo4j.log").read_text("utf-8").lower()
        assert "shared archive" not in log and "aot cache" not in log and "unsafe" not in log
    finally:
        process.stop(s)
    off = s.model_copy(update={"class_archive": False})
    write_conf(off, lib)
    conf = (s.conf_dir / "neo4j.conf").read_text("utf-8")
    assert "SharedArchiveFile" not in conf and "AOTCache" not in conf


def test_a_failed_recording_leaves_no_archive(tmp_path, monkeypatch):
    """Recording is an optimisation: a training server that cannot start (here: no jars) makes it
    return False and leaves neither an archive nor its work folder behind."""
    monkeypatch.setenv("LEGALKG_CACHE", str(tmp_path / "cache"))
    empty_lib = tmp_path / "lib"
    empty_lib.mkdir()
    assert record_class_archive(empty_lib, timeout=30) is False
    folder = tmp_path / "cache" / "neo4j-cds"
    assert not caches.class_archive(empty_lib).exists()
    assert list(folder.iterdir()) == []


def test_a_cache_that_cannot_be_written_only_skips_the_recording(tmp_path, monkeypatch):
    """A file where the archive folder belongs: no archive, no exception (the start goes on)."""
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "neo4j-cds").write_text("a file where the archive folder should be")
    monkeypatch.setenv("LEGALKG_CACHE", str(cache))
    assert record_class_archive(tmp_path / "lib", timeout=30) is False
    assert (cache / "neo4j-cds").is_file()


def test_the_initial_password_never_goes_on_a_command_line(tmp_path, monkeypatch):
    """The admin tool gets the password in a 0600 argument file, removed after; quotes, blanks, `#`
    and backslashes survive the file (the login works)."""
    password = "p w\"x\\y#z'1-é"
    seen: list[tuple[list[str], int | None]] = []
    real_run = startup.subprocess.run

    def recording_run(cmd, *args, **kwargs):
        files = [Path(a[1:]) for a in cmd if str(a).startswith("@")]
        seen.append(([str(a) for a in cmd], files[0].stat().st_mode & 0o777 if files else None))
        return real_run(cmd, *args, **kwargs)

    monkeypatch.setattr(startup.subprocess, "run", recording_run)
    s = ServerSettings(home=tmp_path / "n4j", bolt_port=free_port(), http_port=free_port(), auth=True,
                       password=password, heap="512m", pagecache="64m")
    start(s, timeout=240, record=False)
    try:
        admin = [(cmd, mode) for cmd, mode in seen if "set-initial-password" in cmd]
        assert len(admin) == 1
        cmd, mode = admin[0]
        assert not any(password in arg or "p w" in arg for arg in cmd)
        assert mode == 0o600
        assert not list(s.home.glob(".initial-password-*"))
        running = (Path("/proc") / str(process.read_pid(s)) / "cmdline").read_bytes().decode()
        assert password not in running
        with GraphDatabase.driver(s.bolt_uri, auth=("neo4j", password)) as drv:
            assert drv.execute_query("RETURN 1 AS x").records[0]["x"] == 1
    finally:
        process.stop(s)
