"""A loaded model's naive Bayes totals, kept in ``$LEGALKG_CACHE/nb-sums/<digest>/``.

Why: ``NaiveBayes.sums`` walks every label's dense complement row (2,135 labels x 25,740 words of
the lay model) and was the largest part of a cold ``legalkg search``'s own work after the imports
(0.07-0.2 s on the shared 2-core machine, by its load). The totals depend only on the class-word
counts, alpha and the code that adds them, so the digest covers those (the counts' arrays, alpha and the source of
``classifier.py``): the same model maps its totals in milliseconds, another model or changed code
builds them anew, and an unreadable or unwritable cache costs the build, never an error. Only
models read from a file use it (``modelfile.load``), not the many fits of a cross-validation.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from .. import paths

VERSION = 1
FOLDER = "nb-sums"
DONE = "complete"
#: Models whose totals stay (the lay and the case predictor, and a user's own)
KEEP = 4
#: (word totals + alpha, each label's complement total, the counts by column)
Sums = tuple[np.ndarray, np.ndarray, sp.csc_matrix]


def digest(counts: sp.csr_matrix, alpha: float) -> str:
    h = hashlib.sha256(f"{FOLDER}/{VERSION}/{alpha!r}/{counts.shape}/{counts.dtype}\n".encode())
    h.update((Path(__file__).parent / "classifier.py").read_bytes())
    for part in (counts.data, counts.indices, counts.indptr):
        h.update(str(part.dtype).encode())
        h.update(np.ascontiguousarray(part).tobytes())
    return h.hexdigest()[:24]


def read(folder: Path) -> Sums:
    def get(name: str) -> np.ndarray:
        return np.load(folder / f"{name}.npy", mmap_mode="c", allow_pickle=False)

    shape = tuple(int(v) for v in get("shape"))
    return get("top"), get("norms"), sp.csc_matrix((get("data"), get("indices"), get("indptr")), shape=shape)


def write(sums: Sums, target: Path) -> None:
    """Write ``sums`` to ``target`` via a temporary folder and a rename (never half a copy)."""
    top, norms, by_word = sums
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        arrays = {"top": top, "norms": norms, "data": by_word.data, "indices": by_word.indices,
                  "indptr": by_word.indptr, "shape": np.array(by_word.shape, dtype=np.int64)}
        for name, arr in arrays.items():
            np.save(tmp / f"{name}.npy", arr, allow_pickle=False)
        (tmp / DONE).write_text("", encoding="utf-8")
        os.replace(tmp, target)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def prune(folder: Path, keep: str) -> None:
    """Of the other models' totals the ``KEEP - 1`` most recently written stay."""
    older = sorted((p for p in folder.iterdir() if p.name != keep and not p.name.startswith(".")),
                   key=lambda p: p.stat().st_mtime_ns, reverse=True)
    for old in older[KEEP - 1:]:
        shutil.rmtree(old, ignore_errors=True)


def sums(counts: sp.csr_matrix, alpha: float, build: Callable[[], Sums]) -> Sums:
    """``build()``, read from the cache where an earlier process left it."""
    try:
        target = paths.cache_dir() / FOLDER / digest(counts, alpha)
    except OSError:
        return build()
    if (target / DONE).is_file():
        try:
            return read(target)
        except (OSError, ValueError, EOFError):
            shutil.rmtree(target, ignore_errors=True)  # damaged: built and written again
    out = build()
    try:
        if not (target / DONE).is_file():
            write(out, target)
            prune(target.parent, target.name)
    except OSError:
        pass
    return out
