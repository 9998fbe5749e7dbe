"""One cached model file: read it where an earlier call left it, else build it and write it.

Why one helper: the graph's corpus (``corpus.cached``) and its passages (``passages.cached``) are
both rebuilt from the graph's § texts when their file is missing, and both follow the same rule: a
damaged file is rebuilt, never an error, and an unwritable folder costs the build next time.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol, TypeVar


class Saved(Protocol):
    def save(self, path: Path) -> Path: ...


T = TypeVar("T", bound=Saved)


def load_or_build(path: Path, load: Callable[[Path], T], build: Callable[[], T]) -> T:
    """``load(path)`` where that works, else ``build()``, saved to ``path`` (the object's own
    ``save``, atomic there) when the folder can be written."""
    if path.exists():
        try:
            return load(path)
        except Exception:  # noqa: BLE001 - a damaged cache file is rebuilt, never an error
            pass
    built = build()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        built.save(path)
    except Exception:  # noqa: BLE001 - an unwritable cache costs the build next time, nothing else
        pass
    return built
