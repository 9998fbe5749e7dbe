"""A bad option or argument is one line naming the command's help, exit 2 (click wrote three:
Usage / Try / Error; issue 44). The CLI runs as a process, as a user runs it."""

from __future__ import annotations

import subprocess
import sys

import pytest

CLI = [sys.executable, "-m", "legalkg.cli"]


@pytest.mark.parametrize(("args", "needle", "command"), [
    (["search", "-k", "abc", "x"], "'abc' is not a valid integer", "legalkg search"),
    (["cite", "--max-chars", "0", "x"], "0 is not in the range", "legalkg cite"),
    (["context", "x"], "Missing option '--budget'", "legalkg context"),
    (["serve", "--port", "0"], "0 is not in the range", "legalkg serve"),
    (["parse", "--workers", "0"], "0 is not in the range", "legalkg parse"),
    (["nosuch"], "No such command 'nosuch'", "legalkg"),
], ids=["search-k", "cite-max-chars", "context-budget", "serve-port", "parse-workers", "unknown-command"])
def test_a_usage_error_is_one_line(args, needle, command):
    out = subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=120)
    assert out.returncode == 2, out.stderr
    assert out.stderr.count("\n") == 1 and out.stderr.startswith("error: "), out.stderr
    sub = command.removeprefix("legalkg").strip()  # the program is "python -m legalkg.cli" here
    assert needle in out.stderr and out.stderr.rstrip().endswith(f"{sub} --help'".lstrip()), out.stderr


def test_help_without_arguments_is_still_help():
    out = subprocess.run([*CLI, "neo4j"], capture_output=True, text=True, timeout=120)
    assert "Usage:" in out.stdout + out.stderr and "error:" not in out.stderr
