"""Model files read as memory maps: a compressed ``.npz`` unpacked once into the cache, then mapped.

Why: the shipped models and the corpus cache are compressed ``.npz`` files (small wheels, small
caches), and inflating them is most of a cold CLI call's model time (about 0.5 s of a 2 s search on
2 cores). Unpacked once per file version into ``<cache>/mapped/<key>/<member>.npy``, every later
process maps them (``np.load(mmap_mode="c")``): the pages a query touches are read, the rest not.

The key is the file's resolved path, size and modification time, so a rebuilt or restored model is
unpacked anew. The copy is written to a temporary folder and renamed into place (never half a copy);
where the cache cannot be written the file is read as before. Copy-on-write maps keep the arrays
writable for callers without touching the cached copy.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import zipfile
import zlib
from collections.abc import Iterator, Mapping
from pathlib import Path

import numpy as np

SUFFIX = ".npy"
DONE = "complete"
#: the SHA-256 of the file itself, kept in its unpacked copy (``sha256``)
DIGEST = "sha256"


class MappedArrays(Mapping[str, np.ndarray]):
    """The members of one unpacked ``.npz``, each mapped on first access."""

    def __init__(self, folder: Path, names: list[str]) -> None:
        self.folder = folder
        self.names = names

    def __getitem__(self, name: str) -> np.ndarray:
        if name not in self.names:
            raise KeyError(name)
        return np.load(self.folder / f"{name}{SUFFIX}", mmap_mode="c", allow_pickle=False)

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.names)


def short_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def key(path: Path) -> tuple[str, str]:
    """The cache key of ``path`` as it is now: the resolved path's part (shared by every version of
    the file, so older copies can be pruned) and its size and modification time's part."""
    st = path.stat()
    return short_hash(str(path.resolve())), short_hash(f"{st.st_size}|{st.st_mtime_ns}")


def prune(folder: Path, stem: str, keep: str) -> None:
    """Remove the unpacked copies of earlier versions of the same file (names ``stem-*``)."""
    for old in folder.glob(f"{stem}-*"):
        if old.name != keep and not old.name.startswith("."):
            shutil.rmtree(old, ignore_errors=True)


def unpack(z: np.lib.npyio.NpzFile, target: Path) -> None:
    """Write every member of ``z`` to ``target`` as ``.npy`` via a temporary folder and a rename."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        for name in z.files:
            np.save(tmp / f"{name}{SUFFIX}", z[name], allow_pickle=False)
        (tmp / DONE).write_text("\n".join(z.files), encoding="utf-8")
        os.replace(tmp, target)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        if not (target / DONE).is_file():  # else another process placed the same copy first
            raise


def mapped(path: Path, z: np.lib.npyio.NpzFile, cache: Path) -> Mapping[str, np.ndarray]:
    """The arrays of the open ``.npz`` ``z`` (read from ``path``), mapped from the unpacked copy in
    ``cache`` (``<legalkg cache>/mapped``), made on first use; ``z`` itself where that cannot be
    written."""
    try:
        stem, version = key(path)
        target = cache / f"{stem}-{version}"
        if not (target / DONE).is_file():
            unpack(z, target)
            prune(target.parent, stem, target.name)
        names = (target / DONE).read_text(encoding="utf-8").split("\n")
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, zlib.error):
        return z  # an unwritable cache, or a damaged member: the caller reads the file and says so
    return MappedArrays(target, [n for n in names if n])


def sha256(path: Path, cache: Path) -> str:
    """The SHA-256 (hex) of ``path``'s bytes, kept in its unpacked copy in ``cache`` (the same key:
    path, size and modification time) once ``mapped`` has made that copy; computed from the file
    where there is none or it cannot be written.

    Why: the static encoder names its version by this digest (15 MB hashed by every process that
    embeds a query, a tenth of a cold verify's model time)."""
    memo: Path | None = None
    try:
        stem, version = key(path)
        folder = cache / f"{stem}-{version}"
        if (folder / DONE).is_file():
            memo = folder / DIGEST
            text = memo.read_text(encoding="ascii") if memo.is_file() else ""
            if len(text) == 64:
                return text
    except (OSError, ValueError):
        memo = None
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if memo is not None:
        try:
            tmp = memo.with_name(f".{DIGEST}.{os.getpid()}.tmp")
            tmp.write_text(digest, encoding="ascii")
            os.replace(tmp, memo)
        except OSError:
            pass
    return digest
