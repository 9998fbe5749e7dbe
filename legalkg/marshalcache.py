"""One cache file of plain Python data (str, int, tuple, list, set, dict): ``marshal`` behind a CRC-32.

Why marshal: a cold CLI call reads tables of tens of thousands of strings from the legalkg cache
(the law registry's names, every § text of the graph), and ``marshal`` reads them 3-4x faster than
JSON and keeps tuples and sets. It is no format for data from elsewhere, so a file holds a magic,
the payload's length and its CRC-32 (as zip and gzip check their members; three times faster than a
SHA-256 over the 20 MB of § texts) first: a damaged or cut file fails the check and reads as
missing. Files are written to a temporary name and renamed (never half a file). Callers key the
file name by their inputs and the interpreter (``TAG``: marshal's format may change between Python
versions).
"""

from __future__ import annotations

import gc
import marshal
import os
import sys
import tempfile
import zlib
from pathlib import Path
from typing import Any

#: marshal's format and the interpreter: part of every caller's cache key
TAG = f"marshal{marshal.version}-{sys.implementation.cache_tag}"
MAGIC = b"LKGM"
#: magic, CRC-32 (4 bytes) and length (8 bytes) of the payload
HEAD = len(MAGIC) + 12


def header(payload: bytes | memoryview) -> bytes:
    return MAGIC + zlib.crc32(payload).to_bytes(4, "little") + len(payload).to_bytes(8, "little")


def read(path: Path) -> Any | None:
    """The data kept in ``path``, or None where there is none or it does not check."""
    try:
        blob = path.read_bytes()
    except OSError:
        return None
    payload = memoryview(blob)[HEAD:]
    if blob[:HEAD] != header(payload):
        return None
    was = gc.isenabled()
    gc.disable()  # many small strings and tuples: the collector's passes over them cost more than the read
    try:
        return marshal.loads(payload)
    except (ValueError, EOFError, TypeError):
        return None
    finally:
        if was:
            gc.enable()


def write(path: Path, data: Any) -> None:
    """Keep ``data`` in ``path``; a place that cannot be written is skipped (the cache is optional)."""
    try:
        payload = marshal.dumps(data)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(header(payload))
                fh.write(payload)
            os.replace(tmp, path)
        finally:
            Path(tmp).unlink(missing_ok=True)
    except (OSError, ValueError):
        pass
