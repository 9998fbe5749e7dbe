"""Where the start-up caches of Neo4j's JVMs live: one file per jar set, JVM and tool.

Why per jar set, JVM and jar folder: a JVM refuses a cache recorded by another JVM, over other jars
or with the jars at another path, and a new name keeps the old file from being tried on every start.
They live in the user cache beside the jars, never in a server home, so every home on the machine
shares them.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from ..paths import cache_dir
from . import jvm


def class_archive(lib: Path) -> Path:
    """The server JVM's start-up cache: an AOT cache on JDK 25 (classes loaded and linked, method
    profiles), else a class-data-sharing archive. Every start loads and verifies the classes of
    214 jars anew and compiles the same hot methods; mapped from a cache recorded once, it does not
    (``legalkg.server.training`` records it)."""
    java = jvm.find()
    return cache_dir() / "neo4j-cds" / f"{lib.name}-{java.fingerprint}-{where(lib)}{java.suffix}"


def admin_archive(lib: Path) -> Path:
    """The admin tool's AOT cache (JDK 25 only: with JDK 17's class-data archive the import was not
    faster). The first bulk import that finds none is its training run, so the cache holds the
    classes and method profiles of a real import (``legalkg.server.offline_import``)."""
    java = jvm.find()
    return cache_dir() / "neo4j-cds" / f"{lib.name}-{java.fingerprint}-{where(lib)}-admin{java.suffix}"


def where(lib: Path) -> str:
    """A short digest of the jar folder's resolved path: part of a cache's name, since the cache
    maps only for the class path it was recorded with."""
    return hashlib.sha256(str(Path(lib).resolve()).encode()).hexdigest()[:8]
