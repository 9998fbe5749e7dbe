"""The one hit type and the one result type of retrieval, for search, evaluation, context and the API.

Why one ``Hit`` for every caller: the evaluation scores the very hits ``legalkg search`` returns,
so a second, slimmer hit type would be a second place where the two could drift apart. Hits are
built from graph records without validation (``from_record``): their field types were fixed by
ingest, and validating cost about as much per hit as reading it (ad-hoc profile).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from pydantic import BaseModel, Field

from ..model import level_of_id
from ..vocab import Expansion, Mode, RetrievalLevel


class Hit(BaseModel):
    id: str
    citation: str | None = None
    text: str = ""
    title: str | None = None
    words: int = 0
    score: float | None = None
    rank: int | None = None
    via: Mode | Literal[Expansion.PARENT, Expansion.CITATION, Expansion.COCITED, Expansion.DECISIONS] = Field(
        description="the mode that found a seed, or the hop that reached an expansion node")
    seed: str | None = Field(None, description="for expansion nodes: the seed they were reached from")
    covers: list[str] | None = Field(None, description="for Chunk hits: the unit ids the chunk overlaps")
    level: str | None = Field(None, description="the hit's level (Paragraph ... Doppelbuchstabe, Chunk); "
                                                "under --level auto each hit's own")
    components: dict[str, float] = Field(default_factory=dict,
                                         description="per-mode scores of a fusion hit; per-component "
                                                     "score shares of a ranked hit (--explain)")
    ranker: dict[str, float] = Field(default_factory=dict,
                                     description="the learned ranker's features that moved this hit most: "
                                                 "their contributions to the ranker's score (--explain)")
    found: list[str] = Field(default_factory=list,
                             description="the candidate sources that proposed a ranked hit: predictor, its "
                                         "components (nb, knn, bridge, pop, lex), bm25 and vector over every §, "
                                         "router (--explain)")

    def unit_ids(self) -> list[str]:
        """The ids this hit counts as: a chunk's the units it covers, any other hit its own."""
        return list(self.covers) if self.covers else [self.id]


def from_record(r: Mapping, via: str, rank: int | None = None, seed: str | None = None) -> Hit:
    """A Hit from a record (or map) of the graph's own fields (module docstring: no validation)."""
    score = r.get("score")
    covers = r.get("covers")
    return Hit.model_construct(id=r["id"], citation=r["citation"] or r["id"], text=r["text"] or "",
                               title=r["title"], words=r["words"] or 0,
                               score=None if score is None else float(score), rank=rank, via=via,
                               seed=seed, covers=list(covers) if covers else None, components={})


def ranked(records, via: str) -> list[Hit]:
    """Hits of records that come best first, ranked from 1."""
    return [from_record(r, via, rank=i + 1) for i, r in enumerate(records)]


def hit_level(hit: Hit) -> str | None:
    """A hit's level: ``Chunk`` for a window, else the level its id denotes (None for a foreign id)."""
    if hit.covers is not None:
        return RetrievalLevel.CHUNK.value
    try:
        return level_of_id(hit.id).value
    except ValueError:
        return None


class SearchResult(BaseModel):
    query: str
    level: RetrievalLevel
    mode: Mode
    expand: Expansion
    k: int
    model: str | None = None
    law: str | None = Field(None, description="the law searched in (under --law auto: the routed one)")
    seeds: list[Hit]
    expanded: list[Hit] = Field(default_factory=list)

    def unit_ids(self) -> list[str]:
        """Ids whose citations count as retrieved (chunks contribute the units they cover)."""
        return [uid for h in self.seeds for uid in h.unit_ids()] + [h.id for h in self.expanded]

    def delivered_words(self) -> int:
        return delivered_words([*self.seeds, *self.expanded])


def delivered_words(hits) -> int:
    """The words of each distinct hit once (a chunk counts its own words, not its covers')."""
    seen: dict[str, int] = {}
    for h in hits:
        seen.setdefault(h.id, h.words or 0)
    return sum(seen.values())
