"""Worker processes that end with the process that started them.

Why: a forked worker inherits its parent's open sockets, the Neo4j driver's among them. When an
ingest is killed (SIGKILL, an OOM kill), its pool workers used to live on as orphans and keep the
killed run's Bolt connection open, so the server kept that run's transaction and its locks, and the
next ``legalkg ingest`` waited on them for good. Linux's PR_SET_PDEATHSIG has the kernel kill a
worker when its parent goes; other platforms keep the old behaviour.
"""

from __future__ import annotations

import ctypes
import os
import signal
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int | None = None) -> None:
    """In a child: receive SIGKILL when the parent dies. ``parent`` is the pid the child expects
    as its parent: if that one died before this call, the child ends now (the kernel would not
    signal it any more). A no-op where prctl is missing.

    The signal follows the parent *thread* that forked the child, so pools that use this must be
    created (their workers started) in a thread that outlives them, as the main thread does.
    """
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        return
    if parent is not None and os.getppid() != parent:
        os._exit(1)


def _init(parent: int, initializer: Callable | None, initargs: tuple) -> None:
    die_with_parent(parent)
    if initializer is not None:
        initializer(*initargs)


def process_pool(workers: int, initializer: Callable | None = None, initargs: tuple = (),
                 mp_context=None) -> ProcessPoolExecutor:
    """A ``ProcessPoolExecutor`` whose workers end with this process (see the module's why)."""
    return ProcessPoolExecutor(max_workers=workers, mp_context=mp_context, initializer=_init,
                               initargs=(os.getpid(), initializer, initargs))
