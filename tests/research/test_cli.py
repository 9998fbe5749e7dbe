"""``python -m research.chunking`` on bad input: one line, exit 1, before any server is reached (no server)."""

from __future__ import annotations

import os
import subprocess
import sys

from legalkg.paths import REPO_ROOT as REPO


def study_cli(*args: str) -> subprocess.CompletedProcess:
    """``python -m research.chunking ARGS`` from the checkout, as docs/chunking-study.md runs it."""
    return subprocess.run([sys.executable, "-m", "research.chunking", *args], capture_output=True, text=True,
                          cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=120)


def test_cli_bad_inputs(tmp_path):
    res = study_cli("--questions", str(tmp_path / "nope.jsonl"), "--out", str(tmp_path / "o"))
    assert res.returncode == 1 and "questions file not found" in res.stderr
    q = tmp_path / "q.jsonl"
    q.write_text('{"id": "a", "question": "x", "gold": ["BGB § 1"]}\n', "utf-8")
    res = study_cli("--questions", str(q), "--out", str(tmp_path / "o"), "--strategies", "bogus")
    assert res.returncode == 1 and "unknown strategy 'bogus'" in res.stderr
    assert "Traceback" not in res.stderr and len(res.stderr.strip().splitlines()) == 1
