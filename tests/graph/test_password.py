"""`legalkg neo4j reset-password` and the start-up check of NEO4J_PASSWORD: a home set up by another
checkout's `.env` (a new clone, CI on a used machine) gets this one's password, on a live server."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

from legalkg.errors import UserError
from legalkg.graph.password import has_store, reset_password
from legalkg.server import process
from legalkg.server.conf import ServerSettings, read_conf
from legalkg.server.startup import start

CLI = [sys.executable, "-m", "legalkg.cli"]


def test_a_password_is_needed(tmp_path):
    with pytest.raises(UserError, match="NEO4J_PASSWORD is not set"):
        reset_password(tmp_path, None)
    with pytest.raises(UserError, match="at least 8 characters"):
        reset_password(tmp_path, "short")


def test_a_home_without_a_database_needs_nothing(tmp_path):
    assert not has_store(tmp_path)
    line = reset_password(tmp_path, "long-enough-1")
    assert line.startswith("nothing to reset") and "first start" in line
    assert list(tmp_path.iterdir()) == []  # nothing written


def _cli(home: Path, password: str, *args: str, uri: str = "") -> subprocess.CompletedProcess:
    env = {**os.environ, "NEO4J_PASSWORD": password, "LEGALKG_ENV_FILE": "/dev/null",
           **({"NEO4J_URI": uri} if uri else {})}
    return subprocess.run([*CLI, *args], capture_output=True, text=True, env=env, timeout=400)


@pytest.mark.slow  # four JVM starts (docs/benchmarks/tests.md)
def test_another_checkouts_home_gets_this_password(tmp_path):
    home = tmp_path / "neo4j"
    old, new = "old-" + secrets.token_hex(6), "new-" + secrets.token_hex(6)
    s = ServerSettings(home=home, bolt_port=process.free_port(), http_port=process.free_port(), password=old)
    start(s, timeout=240, record=False)
    try:
        refused = _cli(home, new, "neo4j", "start", "--home", str(home), "--bolt-port", str(s.bolt_port),
                       "--http-port", str(s.http_port))
        lines = refused.stderr.strip().splitlines()
        assert refused.returncode != 0 and len(lines) == 1, refused.stderr
        assert "refuses NEO4J_PASSWORD" in lines[0] and f"reset-password --home {home}" in lines[0]

        reset = _cli(home, new, "neo4j", "reset-password", "--home", str(home))
        assert reset.returncode == 0, reset.stderr
        assert "now takes NEO4J_PASSWORD" in reset.stdout and "runs again" in reset.stdout
        assert process.read_pid(s) is not None  # it ran before, so it runs after
        assert read_conf(home)["dbms.security.auth_enabled"] == "true"
        assert read_conf(home)["server.bolt.listen_address"] == f"127.0.0.1:{s.bolt_port}"

        uri = s.bolt_uri
        assert _cli(home, new, "doctor", uri=uri).returncode == 0
        assert _cli(home, old, "doctor", uri=uri).returncode == 2  # the old password is gone
        again = _cli(home, new, "neo4j", "reset-password", "--home", str(home))
        assert again.returncode == 0 and "already took" in again.stdout, again.stderr
    finally:
        process.stop(s)
