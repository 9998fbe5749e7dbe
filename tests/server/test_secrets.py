"""Secrets stay with their user (issue 36): server homes are 0700 and checked at each start, the
JVM writes with umask 077, and a password inside NEO4J_URI is never printed back. No server:
these parts run before any JVM starts, or against a port where nothing listens."""

from __future__ import annotations

import stat
import subprocess

from click.testing import CliRunner

from legalkg.cli import main
from legalkg.graph.config import masked_uri
from legalkg.server.process import free_port, private_files
from legalkg.server.startup import private_home


def mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_home_is_0700_and_an_open_one_is_tightened_with_a_note(tmp_path):
    home = tmp_path / "a" / "home"
    assert private_home(home) == "" and mode(home) == 0o700
    opened = tmp_path / "open"
    opened.mkdir(mode=0o755)
    opened.chmod(0o755)
    note = private_home(opened)
    assert mode(opened) == 0o700 and "was readable by other users (mode 755)" in note


def test_children_write_files_for_their_user_only(tmp_path):
    with private_files():
        subprocess.run(["sh", "-c", f"echo secret > {tmp_path}/auth.ini"], check=True)
    assert mode(tmp_path / "auth.ini") == 0o600


def test_a_password_in_the_uri_is_masked():
    assert masked_uri("bolt://neo4j:s3cret-pw@db.example:7687") == "bolt://***@db.example:7687"
    assert masked_uri("neo4j+s://host:7687/x@y") == "neo4j+s://host:7687/x@y"  # an @ after the host is no user
    uri = f"bolt://neo4j:s3cret-pw@127.0.0.1:{free_port()}"
    for args in (["verify", "--uri", uri, "§ 1 BGB"], ["doctor", "--uri", uri], ["stats", "--uri", uri]):
        out = CliRunner().invoke(main, args)
        assert out.exit_code == 2 and "s3cret-pw" not in out.output, out.output
        assert "***@127.0.0.1" in out.output or "cannot reach" in out.output
