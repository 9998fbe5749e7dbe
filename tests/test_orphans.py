"""The run's orphan check (tests/orphans.py) as a real pytest run of its own: a test that leaves a
process behind fails the run and the process is killed; a clean test passes."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

from tests.processes import alive

ROOT = Path(__file__).resolve().parents[1]


def run_inner(tmp_path: Path, body: str) -> subprocess.CompletedProcess:
    test = tmp_path / "test_inner.py"
    test.write_text(textwrap.dedent(body))
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "tests.orphans", "-p", "no:cacheprovider",
                           "--rootdir", str(tmp_path), str(test)], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "LEGALKG_TEST_ORPHAN_GRACE_S": "1"})


def test_a_test_that_leaves_an_orphan_fails_the_run(tmp_path):
    out = run_inner(tmp_path, """
        import subprocess, sys
        def test_leaves_one():  # the child starts a sleeper and exits: the sleeper is an orphan
            subprocess.run([sys.executable, "-c",
                            "import subprocess; subprocess.Popen(['sleep', '300'])"], check=True)
    """)
    assert out.returncode == 1, out.stdout
    found = re.search(r"(\d+): sleep 300", out.stdout)
    assert "1 process(es) outlived the test run" in out.stdout and found, out.stdout
    assert not alive(int(found.group(1)))


def test_a_clean_run_passes(tmp_path):
    out = run_inner(tmp_path, """
        import subprocess
        def test_waits_for_its_child():
            subprocess.run(["sleep", "0.1"], check=True)
    """)
    assert out.returncode == 0 and "outlived" not in out.stdout, out.stdout
