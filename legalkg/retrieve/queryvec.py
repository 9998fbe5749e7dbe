"""The one query embedder: every query vector of a search, an evaluation or a context pack.

Why one: the vector of a query must come from the model recorded for the level's index, in the
installed version that made the graph's vectors, or a search compares vectors of two models. This
class reads that record (``GraphFacts.index_model``), loads each model once, checks its version and
``--model``, and embeds: one query for a search, many for ``legalkg eval`` (batched, each text once
per model, optionally kept in the on-disk query cache so a rerun embeds nothing).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from .. import paths
from ..embed import EmbeddingCache, get_embedder, text_key
from ..errors import UserError
from ..lazy import once_per_key
from ..vocab import RetrievalLevel
from .base import Texts, Vectors
from .graphfacts import GraphFacts
from .request import clean_query

#: Queries embedded per call of a model (and per progress step).
BATCH = 64
#: (what, how many done) after each batch.
Progress = Callable[[str, int], None]


def no_progress(_what: str, _n: int) -> None:
    return None


def query_cache(embedder) -> EmbeddingCache:
    """The on-disk cache of *query* vectors: ``<cache_dir>/eval-queries/<model>/`` (kept apart from the
    document cache, as asymmetric models embed queries differently)."""
    return EmbeddingCache.for_embedder(embedder, root=paths.cache_dir() / "eval-queries")


def embed_cached(embedder, texts: list[str], what: str, progress: Progress = no_progress) -> np.ndarray:
    """Query vectors for ``texts``, from the query cache where present; new ones are stored."""
    keys = [text_key(t) for t in texts]
    distinct = list(dict.fromkeys(keys))
    first = {key: i for i, key in reversed(list(enumerate(keys)))}  # key -> first text with it
    with query_cache(embedder) as cache:
        have = cache.get_many(distinct)
        todo = [key for key in distinct if key not in have]
        progress(what, len(distinct) - len(todo))
        for start in range(0, len(todo), BATCH):
            part = todo[start:start + BATCH]
            vecs = embedder.embed_queries([texts[first[key]] for key in part])
            have.update(zip(part, vecs))
            cache.put_many(zip(part, vecs))
            progress(what, len(part))
    out = np.empty((len(texts), embedder.dim), dtype=np.float32)
    for i, key in enumerate(keys):
        out[i] = have[key]
    return out


class QueryEmbedder:
    """Query vectors for a graph's indexes; ``model``: the model a user named (``--model``), checked
    against each index's recorded one."""

    def __init__(self, graph: GraphFacts, model: str | None = None) -> None:
        self.graph = graph
        self.model = model
        self._embedders: dict[str, object] = {}

    @once_per_key
    def embedder_for(self, label: RetrievalLevel | str, model: str | None = None):
        """The embedder of the model recorded for ``label``'s index, loaded once; a one-line error
        where the installed version of that model is not the recorded one, or where ``model``
        (default: this embedder's) is not the index's model."""
        label = RetrievalLevel(label)
        model = model or self.model
        rec = self.graph.index_model(label)
        if rec is None:
            raise UserError(f"the graph has no {label} vectors: run `legalkg ingest` (without --no-embed), "
                            "or use --mode fulltext")
        if model and model.lower() != rec["name"].lower():
            raise UserError(f"the {label} index holds '{rec['name']}' vectors but --model is '{model}': "
                            f"drop --model or re-embed with `legalkg ingest --model {model} --reembed`")
        name = rec["name"]
        if name not in self._embedders:
            self._embedders[name] = get_embedder(name)
        embedder = self._embedders[name]
        if rec.get("version") and rec["version"] != embedder.version:
            raise UserError(f"the {label} vectors were made with {rec['version']!r}, the installed {name} is "
                            f"{embedder.version!r}: re-embed with `legalkg ingest --reembed`")
        return embedder

    def embed_query(self, text: str, level: RetrievalLevel | str, model: str | None = None) -> np.ndarray:
        return self.embedder_for(level, model).embed_query(clean_query(text))

    def for_level(self, texts: Texts, level: RetrievalLevel, vectors: Vectors | None = None) -> dict:
        """query id -> its vector for ``level``'s index: the given ones, the others embedded."""
        out = dict(vectors or {})
        missing = [q for q in texts if q not in out]
        if len(missing) == 1:
            out[missing[0]] = self.embed_query(texts[missing[0]], level)
        elif missing:
            matrix = self.embedder_for(level).embed_queries([clean_query(texts[q]) for q in missing])
            out.update(zip(missing, matrix))
        return out

    def for_levels(self, texts: Mapping[str, str], levels: Sequence[RetrievalLevel], progress: Progress = no_progress,
                   cache: bool = True, skip_missing: bool = False) -> tuple[dict[str, dict[str, np.ndarray]], dict]:
        """(level -> query id -> vector, level -> its index's model record) for many queries: each
        text embedded once per distinct recorded model, kept in the query cache with ``cache``.
        A level without vectors is one ``UserError``, or left out with ``skip_missing``."""
        models = {lv: self.graph.index_model(lv) for lv in levels}
        missing = [lv for lv in levels if models[lv] is None]
        if missing and not skip_missing:
            raise UserError(f"the graph has no {', '.join(missing)} vectors: run `legalkg ingest` "
                            "(without --no-embed), or use --mode fulltext")
        by_model: dict[str, list[RetrievalLevel]] = defaultdict(list)
        for lv in levels:
            if models[lv] is not None:
                by_model[models[lv]["name"]].append(lv)
        ids = list(texts)
        out: dict[str, dict[str, np.ndarray]] = {}
        for name, lvs in by_model.items():
            embedder = self.embedder_for(lvs[0])
            for lv in lvs[1:]:
                self.embedder_for(lv)  # the version check of each level's index
            ordered = [texts[q] for q in ids]
            matrix = (embed_cached(embedder, ordered, f"embed {name}", progress) if cache
                      else self.embed_batches(embedder, ordered, f"embed {name}", progress))
            per_query = {q: matrix[i] for i, q in enumerate(ids)}
            out.update({lv: per_query for lv in lvs})
        return out, {lv: models[lv] for lv in levels if models[lv] is not None}

    @staticmethod
    def embed_batches(embedder, texts: list[str], what: str, progress: Progress) -> np.ndarray:
        parts = []
        for start in range(0, len(texts), BATCH):
            parts.append(embedder.embed_queries(texts[start:start + BATCH]))
            progress(what, len(parts[-1]))
        return np.concatenate(parts) if parts else np.empty((0, embedder.dim), dtype=np.float32)
