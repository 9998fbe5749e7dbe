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


@pytest.mark.parametrize("command", [["cite"], ["search", "--uri", "bolt://127.0.0.1:1"],
                                     ["context", "--budget", "100", "--uri", "bolt://127.0.0.1:1"],
                                     ["verify", "--uri", "bolt://127.0.0.1:1"]], ids=lambda c: c[0])
def test_invalid_utf8_on_the_command_line_is_one_line(command):
    """"Nach § 433 BGB" in Latin-1: the § (0xA7) used to vanish silently and cite / verify exit 0."""
    out = subprocess.run([*CLI, command[0], b"Nach \xa7 433 BGB", *command[1:]], capture_output=True,
                         env={**os.environ, "LC_ALL": "C.UTF-8"}, timeout=120)
    assert out.returncode in (1, 2), out
    assert b"not UTF-8 (byte 0xa7" in out.stderr and out.stderr.strip().count(b"\n") == 0, out.stderr[-500:]


@pytest.mark.parametrize(("arg", "needle"), [
    ("no_such_brief.txt", "there is no file 'no_such_brief.txt'"),
    ("briefs/today", "there is no file 'briefs/today'"),
    ("FOLDER", "is a folder"),
    ("/dev/zero", "split it into parts"),
], ids=["missing-txt", "missing-slash", "folder", "dev-zero"])
def test_verify_names_a_path_that_is_no_text_file(arg, needle, tmp_path):
    """A typo in a file name was verified as the text itself: "0 citations", exit 0 (issue 44)."""
    arg = str(tmp_path) if arg == "FOLDER" else arg
    out = subprocess.run([*CLI, "verify", arg, "--uri", "bolt://127.0.0.1:1"], capture_output=True, text=True,
                         cwd=tmp_path, timeout=120)
    assert out.returncode == 2 and needle in out.stderr, out.stderr[-500:]
    assert out.stderr.strip().count("\n") == 0 and "Traceback" not in out.stderr


def test_verify_reads_a_pipe_and_a_one_word_text_is_still_text(tmp_path):
    """``verify <(cmd)`` names a pipe: read it (up to the limit). "z.B." has no blank yet is text."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", f"printf 'Nach \\302\\247 433 BGB' > {fifo}"])
    try:
        out = subprocess.run([*CLI, "verify", str(fifo), "--uri", "bolt://127.0.0.1:1"], capture_output=True,
                             text=True, timeout=120)
    finally:
        writer.wait(timeout=30)
    assert out.returncode == 2 and "cannot reach Neo4j" in out.stderr, out.stderr[-500:]
    out = subprocess.run([*CLI, "verify", "z.B.", "--uri", "bolt://127.0.0.1:1"], capture_output=True, text=True,
                         cwd=tmp_path, timeout=120)
    assert out.returncode == 2 and "cannot reach Neo4j" in out.stderr, out.stderr[-500:]
