"""A pytest plugin: no process that the test run started outlives it.

Why a subreaper: a process whose parent ends is re-parented to init, so after the run nothing would
link it to the tests; with PR_SET_CHILD_SUBREAPER the pytest process adopts every such orphan of
its own descendants instead, and at the session's end (after every fixture stopped its servers) any
process still below pytest is one that a test, a server or a worker left behind. They are listed,
killed and fail the run. Linux only; elsewhere a no-op.
"""

from __future__ import annotations

import ctypes
import os
import signal

from tests.processes import descendants, orphans_after

_PR_SET_CHILD_SUBREAPER = 36
#: Seconds a process below pytest may take to end after the session's last teardown (the env
#: variable shortens it for the plugin's own test).
GRACE_S = float(os.environ.get("LEGALKG_TEST_ORPHAN_GRACE_S", "15"))


def _become_subreaper() -> bool:
    try:
        return ctypes.CDLL("libc.so.6", use_errno=True).prctl(_PR_SET_CHILD_SUBREAPER, 1) == 0
    except (OSError, AttributeError):
        return False


def _command(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return fh.read().replace(b"\0", b" ").decode(errors="replace").strip()[:160]
    except OSError:
        return "?"


def _own_helpers() -> set[int]:
    """pytest's own multiprocessing resource tracker (a test used multiprocessing in-process): it
    ends when pytest does, by design."""
    from multiprocessing import resource_tracker

    pid = getattr(resource_tracker._resource_tracker, "_pid", None)  # noqa: SLF001 - no public accessor
    return {pid} if pid else set()


def distributing(config) -> bool:
    """This pytest is the controller of a pytest-xdist run: its tests run in the workers, each of which
    checks its own descendants; the workers themselves are still alive here, stopped only after this
    hook (xdist's own, tried last), so they are no orphans."""
    return config.pluginmanager.has_plugin("dsession")


def pytest_configure(config) -> None:
    config.stash_reaper = _become_subreaper()


def pytest_sessionfinish(session, exitstatus) -> None:
    if not getattr(session.config, "stash_reaper", False) or distributing(session.config):
        return
    left = orphans_after([p for p in descendants(os.getpid()) if p not in _own_helpers()], GRACE_S)
    if not left:
        return
    lines = [f"  {pid}: {_command(pid)}" for pid in left]
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    message = f"\n{len(left)} process(es) outlived the test run (killed now):\n" + "\n".join(lines)
    if reporter is not None:
        reporter.write_line(message, red=True)
    session.exitstatus = 1
