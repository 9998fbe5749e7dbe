"""How fast this machine is right now, for benchmark reports: CPU steal and a calibration loop.

Why: on shared VMs the same code can measure twice as slow some hours apart. The load average shows
only this guest's jobs. The steal share of /proc/stat shows time the hypervisor gave to other guests;
a host core slowed by its neighbours (shared caches, clock) shows in neither, so a fixed pure-Python
loop is timed as well: two reports compare when their calibration times are close.
"""

from __future__ import annotations

import resource
import time
from pathlib import Path

from legalkg.machine import default_workers, usable_cpus

__all__ = ["calibration_ms", "children_cpu", "cpu_model", "cpu_times", "default_workers", "steal_share",
           "steal_text", "usable_cpus"]


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
