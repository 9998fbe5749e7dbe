"""Per-law work in worker processes, shared by both loaders: citation extraction for the Cypher
load, CSV lines for the bulk import (``legalkg.graph.bulk``).

Why processes: citation extraction is pure Python and the slowest client-side step. The Cypher load
starts it before writing the structure, which mostly waits on the server; the bulk import runs it
while the server stops. Every law of a run resolves its citations against the same registry and
the same set of unit ids, so the workers get that once (:class:`CiteContext`), not per task.
"""

from __future__ import annotations

import multiprocessing
import sys
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import as_completed
from dataclasses import dataclass

from ..cite import Edge, KnownUnits, LawRegistry, statute_edges
from ..gcpolicy import worker_init
from ..model import TEXT_LEVELS, Law, Level
from ..parse.sources import pack_law, unpack_law
from ..procs import process_pool


@dataclass(frozen=True)
class CiteContext:
    """What every law's citation extraction in one run shares: the law registry, the run's unit
    ids and the repealed ones; and, where workers are forked, the parsed laws themselves (then a
    task names a law by its index instead of carrying it)."""

    registry: LawRegistry
    known: KnownUnits
    repealed: set[str]
    laws: list[Law] | None = None


#: the context of this worker process, set once by :func:`init_worker` (None outside a worker)
_context: CiteContext | None = None


def init_worker(context: CiteContext) -> None:
    """Process-pool initializer: keep the run's context for every task of this worker."""
    global _context
    _context = context
    worker_init()


def worker_context() -> CiteContext:
    if _context is None:
        raise RuntimeError("worker_context() outside an extraction worker (init_worker was not run)")
    return _context


def worker_law(ref: int | tuple) -> Law:
    """Worker side: the law a task names, by its index into the inherited laws or packed."""
    if isinstance(ref, int):
        return worker_context().laws[ref]
    return unpack_law(ref)


def cite_work(ref: int | tuple) -> tuple[list[tuple], object]:
    """Worker side: edges of one law as plain tuples (pickling 80k pydantic Edges is slow)."""
    ctx = worker_context()
    edges, stats = statute_edges(worker_law(ref), ctx.registry, ctx.known, ctx.repealed)
    return [(e.source_id, e.target_id, e.kind, e.target_level.value, e.text) for e in edges], stats


def fork_context():
    """The fork start method where it is the platform's safe default (Linux), else None."""
    if sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return None


class Extraction:
    """Per-law ``work`` of every law in ``workers`` processes (citation extraction by default), all
    submitted at once; results come back in law order (:meth:`raw`) or as they finish.

    Forked workers inherit the parsed laws, so a task is a law's index; elsewhere (spawn) each law
    travels packed (``parse.sources.pack_law``), which costs CPU time on both sides: packing and
    pickling in the loading process, unpickling and rebuilding in the worker."""

    def __init__(self, laws: list[Law], registry, known, repealed: set[str], workers: int,
                 work: Callable[[int | tuple], object] = cite_work) -> None:
        fork = fork_context()
        context = CiteContext(registry, known, repealed, laws if fork else None)
        self.pool = process_pool(workers, init_worker, (context,), mp_context=fork)
        # Largest laws first: submitted in law order, a big law near the end (SGB V, ZPO) kept
        # one worker busy while the other had nothing left to do.
        futures = {}
        try:
            for i in sorted(range(len(laws)), key=lambda i: len(laws[i].units), reverse=True):
                futures[i] = self.pool.submit(work, i if fork else pack_law(laws[i]))
        except BaseException:
            self.close()
            raise
        self.futures = [(law, futures[i]) for i, law in enumerate(laws)]

    def raw(self) -> Iterator[tuple[Law, object]]:
        """Results in law order."""
        for law, future in self.futures:
            yield law, future.result()

    def as_completed(self) -> Iterator[tuple[Law, object]]:
        """Results as the workers finish them (for consumers that need no order)."""
        law_of = {future: law for law, future in self.futures}
        for future in as_completed(law_of):
            yield law_of[future], future.result()

    def results(self) -> Iterator[tuple[Law, list, object]]:
        """Citation edges and statistics per law (for the default ``work``)."""
        levels = {lvl.value: lvl for lvl in Level}
        for law, (rows, stats) in self.raw():
            yield law, [Edge.model_construct(source_id=a, target_id=b, kind=c, target_level=levels[d], text=t)
                        for a, b, c, d, t in rows], stats

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


def parsed_unit_ids(laws: Iterable[Law]) -> tuple[set[str], set[str]]:
    """Text unit ids (and the repealed ones) of parsed laws, exactly as the load writes them."""
    ids, repealed = set(), set()
    for law in laws:
        for u in law.units:
            if u.level in TEXT_LEVELS:
                ids.add(u.id)
                if u.repealed:
                    repealed.add(u.id)
    return ids, repealed
