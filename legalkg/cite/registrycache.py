"""The built default law registry, kept in ``$LEGALKG_CACHE/law-registry/<digest>.bin``.

Why: ``LawRegistry.default()`` keys about 24,000 law names (the default codes, the alias table, gii's
6,821 laws, their short titles and genitives) and took 0.3 s of every cold ``legalkg cite`` and
``legalkg verify``, more than half of a cite (eval/cli-startup/). Its state is three plain tables
that depend only on the files it reads and the code that reads them, so the digest covers both
(the data files' bytes and the source of the modules that build the names): the same inputs load
the tables in a few hundredths of a second, a changed file or module builds them anew, and an unreadable or
unwritable cache costs the build, never an error.

The file is ``marshalcache``'s (a CRC-32, then ``marshal``'s bytes); a damaged file fails the check
and is built again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

from .. import marshalcache, paths

VERSION = 1
FOLDER = "law-registry"
#: Files of other keys kept (the packaged names, the shared manifest's, a test's own registry)
KEEP = 3
#: (names, abbreviations, longest name per first word, default keys): ``LawRegistry``'s state
State = tuple[dict[tuple[str, ...], str], set[tuple[str, ...]], dict[str, int], frozenset[str]]


def digest(inputs: Iterable[bytes]) -> str:
    """The cache key of a registry built from ``inputs`` (data files' bytes and the builders'
    source), this cache's format and the interpreter's marshal format."""
    h = hashlib.sha256(f"{FOLDER}/{VERSION}/{marshalcache.TAG}\n".encode())
    for blob in inputs:
        h.update(hashlib.sha256(blob).digest())
    return h.hexdigest()[:24]


def path_of(key: str) -> Path:
    return paths.cache_dir() / FOLDER / f"{key}.bin"


def load(key: str) -> State | None:
    """The state kept under ``key``, or None where there is none or it does not check."""
    try:
        state = marshalcache.read(path_of(key))
    except OSError:
        return None
    if not (isinstance(state, tuple) and len(state) == 4 and isinstance(state[0], dict)
            and isinstance(state[1], set) and isinstance(state[2], dict) and isinstance(state[3], frozenset)):
        return None
    return state


def save(key: str, state: State) -> None:
    """Keep ``state`` under ``key``; of other keys' files the ``KEEP`` newest stay. A cache that
    cannot be written is skipped."""
    try:
        path = path_of(key)
        marshalcache.write(path, state)
        older = sorted((p for p in path.parent.glob("*.bin") if p.name != path.name),
                       key=lambda p: p.stat().st_mtime_ns, reverse=True)
        for old in older[KEEP:]:
            old.unlink(missing_ok=True)
    except OSError:
        pass
