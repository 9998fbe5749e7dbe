"""How many worker processes this machine offers: the CPUs this process may run on, capped.

Why a cap: parse and citation extraction run one process per core, and each holds its own copy of the
parsed laws' pages, so more processes than a few gain little. The benchmark helpers that time the
machine itself (steal, calibration) live in ``research/machine.py``, outside the product.
"""

from __future__ import annotations

import os

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


