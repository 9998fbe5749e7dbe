"""TF-IDF rows of the graph's § texts, kept in ``$LEGALKG_CACHE/statute-rows/<digest>.npz``.

Why: a loaded predictor's bridge needs the rows of every § of its laws (``StatuteIndex.attach``),
and stemming those texts was a third of a cold `legalkg search`'s own work (eval/cli-startup/). The
rows depend only on the vocabulary, the idf, the texts and the analyser, so the digest covers all
four (the analyser by the source of ``text.py``, ``features.py`` and ``sparse.py`` and the stemmer's
version): the same graph and model load the rows in milliseconds, a changed § or model builds them
anew, and an unreadable or unwritable cache costs the build, never an error.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from .. import paths
from .features import Vectoriser

VERSION = 1
#: The modules whose code decides the rows.
ANALYSER = ("text.py", "features.py", "sparse.py")


def digest(vectoriser: Vectoriser, texts: Sequence[str]) -> str:
    h = hashlib.sha256(f"statute-rows/{VERSION}/{stemmer_version()}\n".encode())
    here = Path(__file__).parent
    for name in ANALYSER:
        h.update((here / name).read_bytes())
    h.update("\n".join(vectoriser.vocabulary).encode("utf-8") + b"\0")
    h.update(np.ascontiguousarray(vectoriser.idf, dtype=np.float32).tobytes())
    h.update(",".join(vectoriser.forms).encode() + b"\0")
    for text in texts:
        h.update(text.encode("utf-8") + b"\0")
    return h.hexdigest()[:24]


def stemmer_version() -> str:
    try:
        return metadata.version("PyStemmer")
    except metadata.PackageNotFoundError:
        return "?"


def rows(vectoriser: Vectoriser, texts: Sequence[str]) -> sp.csr_matrix:
    """``vectoriser.transform(texts)``, read from the cache where an earlier call left it."""
    try:
        path = paths.cache_dir() / "statute-rows" / f"{digest(vectoriser, texts)}.npz"
    except OSError:
        return vectoriser.transform(texts)
    if path.is_file():
        try:
            with np.load(path, allow_pickle=False) as z:
                return sp.csr_matrix((z["data"], z["indices"], z["indptr"]), shape=tuple(z["shape"]))
        except (OSError, ValueError, KeyError):
            pass
    out = vectoriser.transform(texts)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                np.savez(fh, data=out.data, indices=out.indices, indptr=out.indptr, shape=np.array(out.shape))
            os.replace(tmp, path)
        finally:
            Path(tmp).unlink(missing_ok=True)
    except OSError:
        pass
    return out
