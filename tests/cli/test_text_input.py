"""TEXT or '-' for cite, search, context and verify (``legalkg.textin``): invalid UTF-8 on stdin
under a strict locale, NUL bytes and over-long input are one line each, never a traceback, and
stdin is not read beyond the limit (issue 36). The refusals come before any Neo4j connection."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from legalkg.textin import MAX_CHARS

CLI = [sys.executable, "-m", "legalkg.cli"]
COMMANDS = [["cite", "-"], ["search", "-", "--uri", "bolt://127.0.0.1:1"],
            ["context", "-", "--budget", "100", "--uri", "bolt://127.0.0.1:1"],
            ["verify", "-", "--uri", "bolt://127.0.0.1:1"]]


def run(args: list[str], data: bytes) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict", "LC_ALL": "C.UTF-8"}
    return subprocess.run([*CLI, *args], input=data, capture_output=True, env=env, timeout=120)


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: a[0])
@pytest.mark.parametrize(("data", "needle"), [
    (b"Kaution \xff\xfe zur\xc3", b"is not UTF-8 text"),
    (b"Kaution\x00zur\xc3\xbcck", b"NUL bytes"),
    (b"x" * (4 * MAX_CHARS + 10), b"split it into parts"),
], ids=["invalid-utf8", "nul", "too-long"])
def test_bad_stdin_is_one_line(args, data, needle):
    out = run(args, data)
    assert out.returncode in (1, 2), out.stderr[-500:]
    assert needle in out.stderr and b"Traceback" not in out.stderr
    assert out.stderr.strip().count(b"\n") == 0, out.stderr[-500:]
