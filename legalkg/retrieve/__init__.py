"""Retrieval over the graph: vector / fulltext / fusion / learned top-k at one level, then one-hop expansion.

Public API::

    from legalkg.retrieve import search, Retriever, SearchRequest, SearchResult, Hit
    res = search(driver, db, "Kaution zurück", level="Satz", k=5, mode="vector", expand="hybrid")
    r = Retriever(driver, db)                  # reuse for many queries (embedder loaded once)
    req = SearchRequest(query="Kaution zurück", level="§", k=5, mode="fusion", expand="parent")
    res = r.search(req)                        # or r.search(text, level=..., k=..., mode=..., ...)
    res = r.search(req, vector=v)              # a precomputed query vector skips embedding
    res.seeds     # list[Hit]: the top-k hits (score, rank, via=Mode.VECTOR | FULLTEXT | FUSION | LEARNED)
    res.expanded  # list[Hit]: expansion nodes (via=Expansion.PARENT | CITATION, seed=<seed id>)
    res.unit_ids()  # ids for the metric: seed ids (chunks: the units they cover) + expansion ids
    r.search(text, level="auto")               # per § hit the shortest unit inside it that carries it
    r.seeds({qid: text, ...}, level, k, mode)  # the batch form: query id -> seeds (what the eval scores)

The engine is ``engine.py`` (its ``STRATEGIES`` map: one strategy file per mode), the hit types
``hits.py``, expansion ``expand.py``. The vocabulary (levels, modes, expansions and their aliases)
is ``legalkg.vocab``. Names: "hybrid" is the paper's *expansion* (parent + citation); "fusion" is
the *mode* that fuses the vector and full-text rankings by reciprocal rank (``legalkg.fusion``).
"""

from .engine import Retriever, search
from .fulltext import lucene_query
from .fusion import fuse_hits
from .hits import Hit, SearchResult
from .request import SearchRequest, clean_query

__all__ = ["Hit", "Retriever", "SearchRequest", "SearchResult", "clean_query", "fuse_hits", "lucene_query",
           "search"]
