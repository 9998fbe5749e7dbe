"""``once_per_key``: a loader method that runs under a lock per instance and argument tuple.

Why: ``legalkg serve`` answers from many threads. A model loaded on first use without a lock is
loaded by every thread that arrives before the first load finishes: 50 concurrent searches on a
fresh server loaded 50 copies of the predictor (4.8 GB, issue 36). With the lock the first caller
of a key loads, callers of the same key wait for it and then find the loaded value in the method's
own cache; other keys load in parallel. The wrapped method keeps its own caching: this only
serialises it.
"""

from __future__ import annotations

import functools
import importlib
import threading
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

_GUARD = threading.Lock()


def key_lock(owner: object, key: tuple) -> threading.RLock:
    """The lock of ``key`` on ``owner`` (made once, under a process-wide guard)."""
    with _GUARD:
        locks = owner.__dict__.setdefault("_once_per_key_locks", {})
        lock = locks.get(key)
        if lock is None:
            lock = locks[key] = threading.RLock()
        return lock


def once_per_key(method: F) -> F:
    """Decorate a loader method whose first call per argument tuple is costly and cached by it."""

    @functools.wraps(method)
    def wrapper(self: object, *args: Any, **kwargs: Any) -> Any:
        with key_lock(self, (method.__name__, args, tuple(sorted(kwargs.items())))):
            return method(self, *args, **kwargs)

    return wrapper  # type: ignore[return-value]


def package_face(package: str, face: dict[str, tuple[str, str]], namespace: dict[str, Any]) -> Callable[[str], Any]:
    """A package's module ``__getattr__`` (PEP 562) that imports ``face[name] = (submodule, attribute)``
    on first use and keeps it in the package's ``namespace``.

    Why: a package face that imports every submodule makes ``legalkg search`` load the citation
    grammar, the parser and the embedding pool it never uses; the face names the public names once
    and loads each submodule only when one of its names is asked for."""

    def __getattr__(name: str) -> Any:
        if name not in face:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, attribute = face[name]
        value = getattr(importlib.import_module(f"{package}.{module}"), attribute)
        namespace[name] = value
        return value

    return __getattr__
