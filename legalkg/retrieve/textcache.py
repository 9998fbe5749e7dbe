"""Every § text of a graph, kept in ``$LEGALKG_CACHE/corpus/texts-<key>.json`` between processes.

Why: the lay ranker reads every § of the graph (``legalkg.predict.corpus``), and reading those 15,000
texts from Neo4j was the largest part of a cold ``legalkg search`` on the 58 codes. The key is a
digest of every law's id and structure hash (``Gesetz.hash``, a hash of each unit's properties, its
text and repealed flag among them, written when the law's load finishes), so a changed, added or
removed law gives a new key, and a graph with a law whose load is unfinished (no hash) is read from
Neo4j and never cached. Plain JSON, not gzip: it loads in a third of the time (0.08 s against 0.25 s
for the 58 codes' 20 MB). An unreadable cache is read anew, an unwritable one costs the read next
time; neither is an error.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path

VERSION = 1


def key(laws: Iterable[tuple[str, str | None]]) -> str | None:
    """The digest of (law id, structure hash) pairs; None where a law has no hash or there is none."""
    pairs = sorted(laws)
    if not pairs or any(not h for _, h in pairs):
        return None
    lines = "\n".join(f"{law}\t{h}" for law, h in pairs)
    return hashlib.sha256(f"texts/{VERSION}\n{lines}".encode()).hexdigest()[:32]


def path(folder: Path, digest: str) -> Path:
    return folder / f"texts-{digest}.json"


def load(folder: Path, digest: str) -> dict[str, str] | None:
    """The texts stored under ``digest``, or None (none stored, or an unreadable file)."""
    try:
        texts = json.loads(path(folder, digest).read_bytes())
    except (OSError, ValueError):
        return None
    return texts if isinstance(texts, dict) else None


def save(folder: Path, digest: str, texts: Mapping[str, str]) -> None:
    """Store ``texts`` under ``digest`` through a temporary file and a rename (never half a file)."""
    target = path(folder, digest)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps(dict(texts), ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, target)
    except OSError:
        tmp.unlink(missing_ok=True)
