"""Garbage-collector settings for the bulk paths: parsing, citation extraction, CSV writing.

Why: CPython runs a collection every 700 new container objects (``gc.get_threshold()``), and every
tenth of those also walks the older objects. Citation extraction builds millions of token tuples
and a load keeps every parsed law alive, so most collections walk large heaps and find nothing:
these paths make no reference cycles worth collecting early. With the thresholds below and the
worker's start-up state frozen, the CSV phase took less wall and CPU time
(``benchmarks/bulk_parts.py``, docs/benchmarks/ingest.md). Cycles are still collected, less often.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

THRESHOLDS = (20_000, 20, 20)


def worker_init() -> None:
    """Process-pool initializer: what the worker holds now (imports, shared state) is never
    collected, so it leaves the collector's walks; later garbage is collected less often."""
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)


@contextmanager
def relaxed() -> Iterator[None]:
    """The same thresholds in the calling process for the duration of a load, then the old ones."""
    old = gc.get_threshold()
    gc.set_threshold(*THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*old)
