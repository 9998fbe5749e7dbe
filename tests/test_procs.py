"""Pool workers end with the process that started them (real processes, no server)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from .processes import alive, orphans_after

CHILD = """
import sys, time
from legalkg.procs import process_pool

pool = process_pool(2)
pool.submit(time.sleep, 0).result()  # on Linux (fork) both workers start at the first submit
print(" ".join(map(str, sorted(pool._processes))), flush=True)
pool.submit(time.sleep, 120)
time.sleep(120)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_workers_die_when_their_parent_is_killed():
    proc = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": os.getcwd()})
    try:
        workers = [int(x) for x in proc.stdout.readline().split()]
        assert len(workers) == 2 and all(alive(p) for p in workers)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert orphans_after(workers) == [], "orphaned pool workers outlived the killed parent"
    finally:
        proc.kill()


def test_a_worker_whose_parent_is_already_gone_exits():
    """The race between fork and prctl: a child told another parent pid than its own ends at once."""
    code = "from legalkg.procs import die_with_parent; die_with_parent(parent=1); print('lived')"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.returncode == 1 and "lived" not in run.stdout
