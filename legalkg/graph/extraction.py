"""Per-law work in worker processes, shared by both loaders: citation extraction for the Cypher
load, CSV lines for the bulk import (``legalkg.graph.bulk``).

Why processes: citation extraction is pure Python and the slowest client-side step. The Cypher load
starts it before writing the structure, which mostly waits on the server; the bulk import runs it
while the server stops. Every law of a run resolves its citations against the same registry and
the same set of unit ids, so the workers get that once (:class:`CiteContext`), not per task.

Why results are let go as they are handed on: a finished future keeps its result, and one law's CSV
lines are larger than its text; kept to the end of a run, every law's lines were held at once (see
:class:`PackedLaws` for the other half of the bulk import's memory).
"""

from __future__ import annotations

import multiprocessing
import pickle
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass

from ..cite import Edge, KnownUnits, LawRegistry
from ..gcpolicy import worker_init
from ..model import TEXT_LEVELS, Law, Level
from ..parse.sources import pack_law, unpack_law
from ..procs import process_pool
from .broken import law_citations


@dataclass(frozen=True)
class CiteContext:
    """What every law's citation extraction in one run shares: the law registry, the run's unit
    ids and the repealed ones; and, where workers are forked, the parsed laws themselves (then a
    task names a law by its index instead of carrying it)."""

    registry: LawRegistry
    known: KnownUnits
    repealed: set[str]
    laws: Sequence[Law] | None = None


class PackedLaws(Sequence[Law]):
    """Parsed laws held as pickled plain tuples (``parse.sources.pack_law``); a law is rebuilt
    when asked for by its index. The unit ids that citation resolution needs, each law's key and
    its unit count are kept as laws are added.

    Why: the bulk import holds every parsed law until its CSV lines are written, and a parsed
    ``Law`` (pydantic objects and their strings) costs several times its pickled tuples in the
    loading process; held as objects, all laws' units were most of the main process's peak memory
    (the figures are in docs/benchmarks/ingest.md). The extraction workers rebuild each law from its
    bytes, which costs them about what the loading process would spend turning the parser's tuples
    into objects.
    """

    def __init__(self, laws: Iterable[Law] = ()) -> None:
        self.blobs: list[bytes] = []
        self.keys: list[str] = []
        self.sizes: list[int] = []
        self.ids: set[str] = set()
        self.repealed: set[str] = set()
        for law in laws:
            self.append(law)

    def append(self, law: Law) -> None:
        for u in law.units:
            if u.level in TEXT_LEVELS:
                self.ids.add(u.id)
                if u.repealed:
                    self.repealed.add(u.id)
        self.blobs.append(pickle.dumps(pack_law(law), protocol=pickle.HIGHEST_PROTOCOL))
        self.keys.append(law.key)
        self.sizes.append(len(law.units))

    def __len__(self) -> int:
        return len(self.blobs)

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        return unpack_law(pickle.loads(self.blobs[i]))


def law_keys(laws: Sequence[Law]) -> list[str]:
    """Each law's key without rebuilding packed laws."""
    return list(laws.keys) if isinstance(laws, PackedLaws) else [law.key for law in laws]


def unit_counts(laws: Sequence[Law]) -> list[int]:
    return list(laws.sizes) if isinstance(laws, PackedLaws) else [len(law.units) for law in laws]


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


def worker_law(ref: int | tuple | bytes) -> Law:
    """Worker side: the law a task names, by its index into the inherited laws, packed, or
    packed and pickled (a :class:`PackedLaws` entry sent to a spawned worker)."""
    if isinstance(ref, int):
        return worker_context().laws[ref]
    if isinstance(ref, bytes):
        return unpack_law(pickle.loads(ref))
    return unpack_law(ref)


def cite_work(ref: int | tuple) -> tuple[list[tuple], object, tuple[list[dict], str]]:
    """Worker side: edges of one law as plain tuples (pickling 80k pydantic Edges is slow), their
    statistics and the law's broken-reference rows (``graph.broken``)."""
    ctx = worker_context()
    edges, stats, broken = law_citations(worker_law(ref), ctx.registry, ctx.known, ctx.repealed)
    return [(e.source_id, e.target_id, e.kind, e.target_level.value, e.text, e.spans) for e in edges], stats, broken


def fork_context():
    """The fork start method where it is the platform's safe default (Linux), else None."""
    if sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return None


class Extraction:
    """Per-law ``work`` of every law in ``workers`` processes (citation extraction by default), all
    submitted at once; results come back in law order (:meth:`raw`) or as they finish
    (:meth:`as_completed`), and each is let go once handed on.

    Forked workers inherit the parsed laws, so a task is a law's index; elsewhere (spawn) each law
    travels packed (``parse.sources.pack_law``), which costs CPU time on both sides: packing and
    pickling in the loading process, unpickling and rebuilding in the worker."""

    def __init__(self, laws: Sequence[Law], registry, known, repealed: set[str], workers: int,
                 work: Callable[[int | tuple | bytes], object] = cite_work) -> None:
        fork = fork_context()
        context = CiteContext(registry, known, repealed, laws if fork else None)
        self.laws = laws
        self.pool = process_pool(workers, init_worker, (context,), mp_context=fork)
        # Largest laws first: submitted in law order, a big law near the end (SGB V, ZPO) kept
        # one worker busy while the other had nothing left to do.
        sizes = unit_counts(laws)
        self.futures: dict[int, Future] = {}
        try:
            for i in sorted(range(len(laws)), key=lambda i: sizes[i], reverse=True):
                self.futures[i] = self.pool.submit(work, i if fork else self._ref(i))
        except BaseException:
            self.close()
            raise

    def _ref(self, i: int) -> tuple | bytes:
        return self.laws.blobs[i] if isinstance(self.laws, PackedLaws) else pack_law(self.laws[i])

    def raw(self) -> Iterator[tuple[Law, object]]:
        """Results in law order, with the law."""
        for i in range(len(self.laws)):
            yield self.laws[i], self.futures.pop(i).result()

    def as_completed(self) -> Iterator[tuple[int, object]]:
        """``(law index, result)`` as the workers finish them (for consumers that need no order)."""
        index = {future: i for i, future in self.futures.items()}
        pending = set(index)
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                i = index.pop(future)
                del self.futures[i]
                yield i, future.result()
            del done

    def results(self) -> Iterator[tuple[Law, list, object, tuple[list[dict], str]]]:
        """Citation edges, statistics and broken-reference rows per law (for the default ``work``)."""
        levels = {lvl.value: lvl for lvl in Level}
        for law, (rows, stats, broken) in self.raw():
            yield law, [Edge.model_construct(source_id=a, target_id=b, kind=c, target_level=levels[d], text=t,
                                             spans=w) for a, b, c, d, t, w in rows], stats, broken

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


def parsed_unit_ids(laws: Iterable[Law]) -> tuple[set[str], set[str]]:
    """Text unit ids (and the repealed ones) of parsed laws, exactly as the load writes them."""
    if isinstance(laws, PackedLaws):
        return laws.ids, laws.repealed
    ids, repealed = set(), set()
    for law in laws:
        for u in law.units:
            if u.level in TEXT_LEVELS:
                ids.add(u.id)
                if u.repealed:
                    repealed.add(u.id)
    return ids, repealed
