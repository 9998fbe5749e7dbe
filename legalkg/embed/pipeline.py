"""Embed many statute texts: each distinct text once, cached vectors reused, with a progress bar.

Why dedupe: a § with one Absatz and one Satz carries the same text at three levels, and many
short Sätze recur ("(weggefallen)", "Die Vorschrift ist ... anzuwenden."). Why a cache: a re-ingest
with unchanged text must embed nothing (see ``EmbeddingCache``).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from pydantic import BaseModel
from tqdm.auto import tqdm

from .base import Embedder, check_texts
from .cache import EmbeddingCache, text_key


class EmbedStats(BaseModel):
    """What one ``embed_texts`` call did (for logs, the ingest report and the benchmark)."""

    model: str
    version: str
    n_texts: int  # rows returned
    n_distinct: int  # distinct texts among them
    n_cached: int  # distinct texts taken from the cache
    n_embedded: int  # distinct texts the model actually embedded
    seconds: float  # wall time of the whole call


class EmbedResult(NamedTuple):
    """``vectors`` (float32, (n_texts, dim), unit rows, same order as the input) and ``stats``."""

    vectors: np.ndarray
    stats: EmbedStats


def dedupe(texts: Sequence[str]) -> tuple[list[str], np.ndarray]:
    """Distinct texts in first-seen order and, per input, the index of its distinct text (pure).

    ``[distinct[i] for i in inverse] == list(texts)``.
    """
    index: dict[str, int] = {}
    inverse = np.empty(len(texts), dtype=np.int64)
    for pos, text in enumerate(texts):
        inverse[pos] = index.setdefault(text, len(index))
    return list(index), inverse


def embed_texts(
    embedder: Embedder,
    texts: Sequence[str],
    cache: EmbeddingCache | bool = True,
    *,
    progress: bool = True,
    batch_size: int | None = None,
) -> EmbedResult:
    """Document vectors for ``texts`` (statute text, passage side of asymmetric models).

    - ``cache``: True = the embedder's default cache under ``paths.cache_dir()``; False = none;
      or an ``EmbeddingCache`` (must belong to the same embedder version).
    - Each distinct text is embedded at most once; cached ones not at all. New vectors are
      written to the cache after every batch, so an interrupted run keeps its progress.
    - Empty / whitespace-only texts raise ``EmptyTextError`` before anything is embedded:
      leave text-less nodes out.
    - ``progress`` shows a tqdm bar (texts/s) over the texts that need the model.
    """
    started = time.perf_counter()
    items = check_texts(texts)
    distinct, inverse = dedupe(items)
    dim = embedder.dim
    table = np.empty((len(distinct), dim), dtype=np.float32)

    own_cache = cache is True
    store = _open_store(embedder, cache)
    try:
        keys, todo = _from_cache(distinct, table, store)
        _embed_missing(embedder, distinct, todo, table, store, keys, progress, batch_size)
    finally:
        if own_cache and store is not None:
            store.close()

    stats = EmbedStats(
        model=embedder.name,
        version=embedder.version,
        n_texts=len(items),
        n_distinct=len(distinct),
        n_cached=len(distinct) - len(todo),
        n_embedded=len(todo),
        seconds=round(time.perf_counter() - started, 3),
    )
    return EmbedResult(table[inverse] if len(items) else table[:0], stats)


def _open_store(embedder: Embedder, cache: EmbeddingCache | bool) -> EmbeddingCache | None:
    """The cache ``embed_texts`` reads and writes: the embedder's default, none, or the one given,
    which must hold the embedder's version and dimension."""
    if cache is True:
        return EmbeddingCache.for_embedder(embedder)
    if cache is False or cache is None:
        return None
    store, dim = cache, embedder.dim
    if store.version != embedder.version or store.dim != dim:
        raise ValueError(
            f"cache holds {store.version!r} (dim {store.dim}), embedder is "
            f"{embedder.version!r} (dim {dim})"
        )
    return store


def _from_cache(distinct: list[str], table: np.ndarray,
                store: EmbeddingCache | None) -> tuple[list[str], list[int]]:
    """Fill ``table`` rows the cache holds; returns the cache keys and the rows left for the model."""
    keys = [text_key(t) for t in distinct] if store is not None else []
    hits = store.get_many(keys) if store is not None else {}
    todo: list[int] = []
    for i in range(len(distinct)):
        vec = hits.get(keys[i]) if store is not None else None
        if vec is None:
            todo.append(i)
        else:
            table[i] = vec
    return keys, todo


def _embed_missing(
    embedder: Embedder,
    distinct: list[str],
    todo: list[int],
    table: np.ndarray,
    store: EmbeddingCache | None,
    keys: list[str],
    progress: bool,
    batch_size: int | None,
) -> None:
    """Fill ``table`` rows listed in ``todo`` by the model, batch by batch, caching each batch."""
    if not todo:
        return
    size = int(batch_size or embedder.default_batch_size)
    # padding backends: group similar lengths (fewer padded tokens, same result per text)
    order = sorted(todo, key=lambda i: len(distinct[i])) if embedder.sort_by_length else todo
    with tqdm(
        total=len(order),
        unit="text",
        desc=f"embedding ({embedder.name})",
        disable=not progress,
        smoothing=0.1,
    ) as bar:
        for start in range(0, len(order), size):
            rows = order[start : start + size]
            vecs = embedder.embed_documents([distinct[i] for i in rows], batch_size=size)
            table[rows] = vecs
            if store is not None:
                store.put_many((keys[i], table[i]) for i in rows)
            bar.update(len(rows))
