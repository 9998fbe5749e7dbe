"""``legalkg neo4j status --home H`` reports the ports H's server was started with (its neo4j.conf),
not the default 7687 / 7474, where another server may answer (issue 44). The "server" is this
test's own process, named in the home's PID file: status only reads the PID and probes the port."""

from __future__ import annotations

import os
import subprocess
import sys

from legalkg.server.process import free_port


def home_with_ports(tmp_path, bolt: int, http: int):
    (tmp_path / "conf").mkdir()
    (tmp_path / "run").mkdir()
    (tmp_path / "conf" / "neo4j.conf").write_text(
        f"server.bolt.listen_address=127.0.0.1:{bolt}\nserver.http.listen_address=127.0.0.1:{http}\n", "utf-8")
    (tmp_path / "run" / "neo4j.pid").write_text(str(os.getpid()))
    return tmp_path


def status(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "legalkg.cli", "neo4j", "status", *args], capture_output=True,
                          text=True, timeout=120, env={k: v for k, v in os.environ.items()
                                                       if k not in ("LEGALKG_BOLT_PORT", "LEGALKG_HTTP_PORT")})


def test_status_reads_the_homes_ports(tmp_path):
    bolt, http = free_port(), free_port()
    home = home_with_ports(tmp_path, bolt, http)
    out = status("--home", str(home))
    assert out.returncode == 0, out.stderr
    assert f"Bolt bolt://127.0.0.1:{bolt}," in out.stdout and f"127.0.0.1:{http}/browser/" in out.stdout
    assert "starting" in out.stdout  # nothing listens on the free port
    given = status("--home", str(home), "--bolt-port", "7687")
    assert "Bolt bolt://127.0.0.1:7687," in given.stdout  # a port given explicitly is taken as given
