"""Every § text of a graph, kept in ``$LEGALKG_CACHE/corpus/texts-<key>.bin`` between processes.

Why: the lay ranker reads every § of the graph (``legalkg.predict.corpus``), and reading those 15,000
texts from Neo4j was the largest part of a cold ``legalkg search`` on the 58 codes. The key is a
digest of every law's id and structure hash (``Gesetz.hash``, a hash of each unit's properties, its
text and repealed flag among them, written when the law's load finishes), so a changed, added or
removed law gives a new key, and a graph with a law whose load is unfinished (no hash) is read from
Neo4j and never cached. ``marshalcache``'s file, not JSON or gzip: marshal read the 58 codes' 20 MB in
about a third of JSON's time (0.035 s against 0.1 s, ad hoc on the shared machine; the CRC check adds
about 0.012 s), and gzip took 0.25 s. An unreadable cache is read anew, an unwritable one costs the
read next time; neither is an error.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from pathlib import Path

from .. import marshalcache

VERSION = 2


def key(laws: Iterable[tuple[str, str | None]]) -> str | None:
    """The digest of (law id, structure hash) pairs; None where a law has no hash or there is none."""
    pairs = sorted(laws)
    if not pairs or any(not h for _, h in pairs):
        return None
    lines = "\n".join(f"{law}\t{h}" for law, h in pairs)
    return hashlib.sha256(f"texts/{VERSION}/{marshalcache.TAG}\n{lines}".encode()).hexdigest()[:32]


def path(folder: Path, digest: str) -> Path:
    return folder / f"texts-{digest}.bin"


def load(folder: Path, digest: str) -> dict[str, str] | None:
    """The texts stored under ``digest``, or None (none stored, or an unreadable file)."""
    texts = marshalcache.read(path(folder, digest))
    return texts if isinstance(texts, dict) else None


def save(folder: Path, digest: str, texts: Mapping[str, str]) -> None:
    """Store ``texts`` under ``digest`` through a temporary file and a rename (never half a file)."""
    marshalcache.write(path(folder, digest), dict(texts))
