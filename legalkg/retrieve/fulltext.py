"""Full-text mode: the level's german Lucene index, over the query made safe (``lucene_query``).

User text is never Lucene syntax: every special character is escaped and the operators are
lower-cased, so any input is a plain OR of its words (Lucene's default), at most
``MAX_LUCENE_TERMS`` of them. The optional law filter runs after the index, so the index is asked
for ``legalkg.fusion.overfetch(k)`` candidates; Lucene's top-n is exact, so this changes no top k.
"""

from __future__ import annotations

import re

import numpy as np

from ..fusion import overfetch
from ..graph.cypher import query
from ..vocab import Expansion, Mode, RetrievalLevel, Task
from . import expand
from .base import Engine, Texts, Vectors
from .hits import Hit

MAX_LUCENE_TERMS = 200

_LUCENE_SPECIAL = re.compile(r'([+\-!(){}\[\]^"~*?:\\/&|])')


def lucene_query(text: str) -> str:
    """User text -> a safe Lucene query: every special character escaped, operators lower-cased,
    at most MAX_LUCENE_TERMS terms (OR-combined, Lucene's default)."""
    terms = []
    for raw in text.split():
        term = _LUCENE_SPECIAL.sub(r"\\\1", raw)
        if raw in ("AND", "OR", "NOT", "TO"):
            term = raw.lower()
        if term.strip("\\"):
            terms.append(term)
        if len(terms) >= MAX_LUCENE_TERMS:
            break
    return " ".join(terms)


class FulltextStrategy:
    uses_predictor = False

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def seeds(self, texts: Texts, level: RetrievalLevel, k: int, law: str | None = None,
              vectors: Vectors | None = None, task: Task | None = None) -> dict[str, list[Hit]]:
        items = [{"qid": q, "q": lq} for q, lq in ((q, lucene_query(t)) for q, t in texts.items()) if lq]
        base = {"index": f"fulltext_{level}", "law": law, "fetch": overfetch(k), "k": k}
        found = self.engine.graph.read_batched(query("retrieve/fulltext"), base, items, Mode.FULLTEXT)
        return {q: found.get(q, []) for q in texts}

    def seeds_with_hops(self, text: str, level: RetrievalLevel, k: int, law: str | None,
                        vector: np.ndarray | None, how: Expansion) -> tuple[list[Hit], list[Hit]] | None:
        """The seeds and their parent / citation hops in one statement (no hop from cases)."""
        if how.from_cases:
            return None
        q = lucene_query(text)
        if not q:
            return [], []
        params = {**expand.trip_params(k, how), "index": f"fulltext_{level}", "q": q, "law": law}
        return expand.one_trip(self.engine, "retrieve/fulltext_expand", params, Mode.FULLTEXT, how)
