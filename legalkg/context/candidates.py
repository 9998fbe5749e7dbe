"""The units a context pack may choose from: the learned engine's hits at several levels, expanded.

Why several levels: the metric (``legalkg.eval.metric``) credits a unit with every gold citation
inside its § (at § depth) and inside its Absatz (at Absatz depth), so the same citation can be
reached by a whole § or by one short Satz of it. Which is better per word depends on the query;
the selection (``select``) decides, so retrieval here offers each level's ranking and the units
that the best §§ cite (one ``citation`` hop: cross-references such as "nach § 566 Abs. 2").

Each candidate keeps where it came from (``source``: the level it was ranked at, or
``cited:<level>`` for a citation hop, and its rank or its seed's rank, and for a hop the citation
of the unit that cites it): that is what the selection orders by and what a pack's reasons say.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from pydantic import BaseModel

from ..retrieve import Retriever, SearchRequest, clean_query
from ..retrieve.learned import keeping_predictions
from ..vocab import Expansion, Mode, RetrievalLevel

#: Levels ranked for a pack and how many hits of each are asked for: at each level more words
#: than the largest budget the benchmark measures (3,000), so the selection has a choice there.
POOLS: dict[RetrievalLevel, int] = {RetrievalLevel.PARAGRAPH: 80, RetrievalLevel.ABSATZ: 200,
                                    RetrievalLevel.SATZ: 400}
#: The top §-level hits whose citations are followed one hop.
CITED_SEEDS = 10
CITED_PREFIX = "cited:"


class Candidate(BaseModel):
    """One unit a pack may deliver, with its text and where retrieval found it."""

    id: str
    citation: str
    text: str = ""
    title: str | None = None
    words: int = 0
    source: str
    rank: int
    seed: str | None = None


def query_vectors(retriever: Retriever, text: str, levels: Sequence[RetrievalLevel]) -> dict[str, np.ndarray]:
    """level -> the query embedded with that level's index model, each model embedded once;
    levels without vectors are left out (the learned mode then runs without its vector run)."""
    vectors, _ = retriever.queries.for_levels({"q": clean_query(text)}, levels, cache=False, skip_missing=True)
    return {level: per_query["q"] for level, per_query in vectors.items()}


def gather(retriever: Retriever, text: str, task: str | None = None, law: str | None = None,
           pools: Mapping[RetrievalLevel, int] | None = None, cited_seeds: int = CITED_SEEDS,
           vectors: Mapping[str, np.ndarray] | None = None) -> list[Candidate]:
    """Every candidate of ``text``: each level's learned ranking, then the units the top §§ cite.

    A unit found at several places keeps the first (level order, then rank); the selection reads
    the others through the §/Absatz it shares with them, not through duplicates. ``vectors``
    (level -> query vector) skips embedding, for batches (default: embedded here).
    """
    pools = dict(POOLS if pools is None else pools)
    vectors = query_vectors(retriever, text, list(pools)) if vectors is None else vectors
    out: dict[str, Candidate] = {}
    seeds_by_level = {}
    with keeping_predictions():  # the predictor's § ranking once for the three levels
        for level, k in pools.items():
            req = SearchRequest(query=text, level=level, k=k, mode=Mode.LEARNED, law=law, task=task)
            res = retriever.search(req, vector=vectors.get(level))
            seeds_by_level[level] = res.seeds
            for h in res.seeds:
                out.setdefault(h.id, Candidate(id=h.id, citation=h.citation or h.id, text=h.text, title=h.title,
                                               words=h.words, source=str(level), rank=h.rank or 0))
    top = seeds_by_level.get(RetrievalLevel.PARAGRAPH, [])[:cited_seeds]
    if top:
        seed_rank = {h.id: h.rank or 0 for h in top}
        seed_citation = {h.id: h.citation or h.id for h in top}
        for h in retriever.expand(top, Expansion.CITATION):
            if law is not None and h.id.split("/", 1)[0] != law:
                continue
            out.setdefault(h.id, Candidate(id=h.id, citation=h.citation or h.id, text=h.text, title=h.title,
                                           words=h.words, source=f"{CITED_PREFIX}{RetrievalLevel.PARAGRAPH}",
                                           rank=seed_rank.get(h.seed or "", 0),
                                           seed=seed_citation.get(h.seed or "")))
    return list(out.values())
