"""The test run never sees the user's state: README's two commands pass in either order.

scripts/quickstart.sh records its server for port 7687 under ~/.cache/legalkg/servers and writes a
.env with its password into the checkout; a test that read either saw the user's server."""

from __future__ import annotations

import os
from pathlib import Path

from legalkg.graph.config import load_config
from legalkg.paths import cache_dir
from legalkg.server import homes
from tests.sandbox import MARKER, OWNER, SHARED_BUILD_CACHES, USER_VARIABLES


def test_home_cache_and_records_are_the_runs_own():
    root = Path(os.environ[MARKER])
    assert Path.home() == root / "home"
    assert cache_dir() == root / "cache"
    assert homes.records_dir().is_relative_to(root)
    assert homes.recorded_home(7687) is None  # whatever the quickstart recorded for the user


def test_no_connection_setting_of_the_calling_shell_reaches_a_test():
    assert not [k for k in USER_VARIABLES if k in os.environ]
    cfg = load_config()  # the checkout's .env (quickstart's password) is not read
    assert cfg.password is None and cfg.uri == "bolt://127.0.0.1:7687"


def test_only_content_addressed_build_caches_are_shared():
    shared = {p.name for p in cache_dir().iterdir() if p.is_symlink()}
    assert shared <= set(SHARED_BUILD_CACHES)


def test_an_xdist_worker_has_a_sandbox_of_its_own():
    """Under `pytest -n 2` each worker starts its own servers and records them in its own cache;
    the controller's sandbox, which the workers inherit through the environment, is not theirs."""
    assert os.environ[OWNER] == os.environ.get("PYTEST_XDIST_WORKER", "")
    assert Path(os.environ[MARKER]) == Path.home().parent
