"""Process helpers for tests that kill an ingest: its children must not outlive it (Linux /proc)."""

from __future__ import annotations

import os
import time


def _state_and_parent(pid: int | str) -> tuple[str, int] | None:
    """(state letter, parent pid) from /proc/<pid>/stat, None once the process is gone. The fields
    after the command name, which is in brackets and may hold blanks or brackets itself."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
            fields = fh.read().rsplit(")", 1)[-1].split()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return fields[0], int(fields[1])


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie has ended)."""
    stat = _state_and_parent(pid)
    return stat is not None and stat[0] != "Z"


def children(pid: int) -> list[int]:
    """The live processes whose parent is ``pid``."""
    found = []
    for entry in os.listdir("/proc"):
        stat = _state_and_parent(entry) if entry.isdigit() else None
        if stat is not None and stat[1] == pid and stat[0] != "Z":
            found.append(int(entry))
    return found


def orphans_after(pids: list[int], seconds: float = 10.0) -> list[int]:
    """Those of ``pids`` still running after up to ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(alive(p) for p in pids):
        time.sleep(0.05)
    return [p for p in pids if alive(p)]


def descendants(pid: int) -> list[int]:
    """The live processes below ``pid``: its children, theirs, and so on."""
    found, todo = [], [pid]
    while todo:
        kids = children(todo.pop())
        found += kids
        todo += kids
    return found
