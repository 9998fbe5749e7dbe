"""How fast this machine is right now, for benchmark reports: CPU steal and a calibration loop.

Why: on these shared 2-core VMs the same code measured twice as slow some hours apart
(docs/benchmarks/retrieval.md). The load average shows only this guest's jobs. The steal
share of /proc/stat shows time the hypervisor gave to other guests; a host core slowed by its
neighbours (shared caches, clock) shows in neither, so a fixed pure-Python loop is timed as well:
two reports compare when their calibration times are close.
"""

from __future__ import annotations

import os
import resource
import time
from pathlib import Path

#: the most worker processes ``--workers`` picks by itself: more parse and extraction processes
#: than this gain little on the 58 codes and each holds its own copy of the parsed laws' pages
MAX_AUTO_WORKERS = 8


def usable_cpus() -> int:
    """CPUs this process may run on (its affinity mask, which a container's cpuset narrows), not
    the host's count that ``os.cpu_count()`` gives."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def default_workers() -> int:
    """Worker processes when ``--workers`` is not given: every usable CPU, at most 8. Parsing and
    citation extraction are pure Python, so one process per core is what makes them scale."""
    return min(usable_cpus(), MAX_AUTO_WORKERS)


def cpu_model(cpuinfo: Path = Path("/proc/cpuinfo")) -> str:
    """The CPU's model name and the usable CPUs ("AMD EPYC, 2 CPUs"), so benchmark rows from
    different hosts of the same size are told apart; "unknown CPU" where cpuinfo has no name."""
    name = "unknown CPU"
    try:
        for line in cpuinfo.read_text("utf-8", errors="replace").splitlines():
            key, sep, value = line.partition(":")
            if sep and key.strip() == "model name" and value.strip():
                name = " ".join(value.split())
                break
    except OSError:
        pass
    return f"{name}, {usable_cpus()} CPUs"


def children_cpu() -> float:
    """CPU seconds of every finished child process (worker processes, the importer's JVMs): less
    shaken by a VM whose speed changes than wall time."""
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def cpu_times() -> tuple[int, int] | None:
    """(steal, total) jiffies of all CPUs so far, or None where /proc/stat is missing."""
    try:
        with open("/proc/stat", encoding="ascii") as fh:
            fields = fh.readline().split()
    except OSError:
        return None
    if not fields or fields[0] != "cpu":
        return None
    values = [int(x) for x in fields[1:9]]  # user nice system idle iowait irq softirq steal
    return values[7], sum(values)


def steal_share(before: tuple[int, int] | None, after: tuple[int, int] | None) -> float | None:
    """Share of CPU time stolen between two ``cpu_times()`` readings (0..1), None if unknown."""
    if before is None or after is None or after[1] <= before[1]:
        return None
    return (after[0] - before[0]) / (after[1] - before[1])


def steal_text(before: tuple[int, int] | None) -> str:
    share = steal_share(before, cpu_times())
    return "unknown" if share is None else f"{100 * share:.1f}%"


def calibration_ms(repeat: int = 5) -> float:
    """Best of ``repeat`` timings of a fixed pure-Python loop: the same code, so two reports whose
    figures are close ran on a core of about the same speed (values in docs/benchmarks/)."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        total = 0
        for i in range(1_000_000):
            total += i * i
        best = min(best, time.perf_counter() - started)
    return best * 1000
