"""The built default law registry, kept in ``$LEGALKG_CACHE/law-registry/<digest>.bin``.

Why: ``LawRegistry.default()`` keys about 24,000 law names (the default codes, the alias table, gii's
6,821 laws, their short titles and genitives) and took 0.3 s of every cold ``legalkg cite`` and
``legalkg verify``, more than half of a cite (eval/cli-startup/). Its state is three plain tables
that depend only on the files it reads and the code that reads them, so the digest covers both
(the data files' bytes and the source of the modules that build the names): the same inputs load
the tables in about 20 ms, a changed file or module builds them anew, and an unreadable or
unwritable cache costs the build, never an error.

The file is a SHA-256 of the payload and the payload (``marshal``: strings, tuples, sets and dicts
only, the fastest reader of the standard library for them); a damaged file fails the check and is
built again.
"""

from __future__ import annotations

import gc
import hashlib
import marshal
import os
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

from .. import paths

VERSION = 1
FOLDER = "law-registry"
#: Files of other keys kept (the packaged names, the shared manifest's, a test's own registry)
KEEP = 3
#: (names, abbreviations, longest name per first word, default keys): ``LawRegistry``'s state
State = tuple[dict[tuple[str, ...], str], set[tuple[str, ...]], dict[str, int], frozenset[str]]


def digest(inputs: Iterable[bytes]) -> str:
    """The cache key of a registry built from ``inputs`` (data files' bytes and the builders'
    source), this cache's format and the interpreter's marshal format."""
    h = hashlib.sha256(f"{FOLDER}/{VERSION}/{marshal.version}/{sys.implementation.cache_tag}\n".encode())
    for blob in inputs:
        h.update(hashlib.sha256(blob).digest())
    return h.hexdigest()[:24]


def path_of(key: str) -> Path:
    return paths.cache_dir() / FOLDER / f"{key}.bin"


def load(key: str) -> State | None:
    """The state kept under ``key``, or None where there is none or it does not check."""
    try:
        blob = path_of(key).read_bytes()
    except OSError:
        return None
    check, payload = blob[:32], blob[32:]
    if hashlib.sha256(payload).digest() != check:
        return None
    was = gc.isenabled()
    gc.disable()  # 190,000 small strings and tuples: the collector's passes over them cost more than the read
    try:
        state = marshal.loads(payload)
    except (ValueError, EOFError, TypeError):
        return None
    finally:
        if was:
            gc.enable()
    if not (isinstance(state, tuple) and len(state) == 4 and isinstance(state[0], dict)
            and isinstance(state[1], set) and isinstance(state[2], dict) and isinstance(state[3], frozenset)):
        return None
    return state


def save(key: str, state: State) -> None:
    """Keep ``state`` under ``key`` (written to a temporary file and renamed: never half a file); of
    other keys' files the ``KEEP`` newest stay. A cache that cannot be written is skipped."""
    try:
        path = path_of(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        payload = marshal.dumps(state)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(hashlib.sha256(payload).digest() + payload)
            os.replace(tmp, path)
        finally:
            Path(tmp).unlink(missing_ok=True)
        older = sorted((p for p in path.parent.glob("*.bin") if p.name != path.name),
                       key=lambda p: p.stat().st_mtime_ns, reverse=True)
        for old in older[KEEP:]:
            old.unlink(missing_ok=True)
    except (OSError, ValueError):
        pass
