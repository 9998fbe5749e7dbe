"""Which home serves which local Bolt port: ``legalkg neo4j start`` records it, the bulk import reads it.

Why: ``legalkg ingest --uri bolt://127.0.0.1:7691`` can bulk-import (``neo4j-admin``) only into a
server whose home it knows. Without the record a server started with ``--home`` elsewhere would be
loaded by the slower Cypher batches instead, without a word (the cost on all laws is in
docs/benchmarks/ingest.md). A record is only a hint: the reader checks that the
home's ``neo4j.conf`` names the port (``offline_import.managed_home``), so a stale one is harmless.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from ..paths import cache_dir


def records_dir() -> Path:
    return cache_dir() / "servers"


def record_path(port: int) -> Path:
    return records_dir() / f"bolt-{int(port)}"


def record_home(port: int, home: Path) -> None:
    """Note that ``home``'s server listens on Bolt ``port`` (atomic: a reader sees the old or the new)."""
    path = record_path(port)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(str(Path(home).resolve()))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def forget_home(home: Path) -> None:
    """Drop every record that names ``home`` (``legalkg neo4j stop``). Not on the bulk import's own
    stop: an import killed while the server is down must still find its home."""
    wanted = Path(home).resolve()
    for path in records_dir().glob("bolt-*"):
        try:
            named = Path(path.read_text("utf-8").strip())
        except OSError:
            continue
        if named == wanted:
            path.unlink(missing_ok=True)


def recorded_home(port: int) -> Path | None:
    """The home last recorded for ``port``, or None."""
    try:
        text = record_path(port).read_text("utf-8").strip()
    except OSError:
        return None
    return Path(text) if text else None
