"""Retrieval over the graph: vector / fulltext / fusion top-k at one level, then one-hop expansion.

Public API::

    from legalkg.retrieve import search, Retriever, SearchResult, Hit, LEVELS, EXPANSIONS, MODES
    res = search(driver, db, "Kaution zurück", level="Satz", k=5, mode="vector", expand="hybrid")
    r = Retriever(driver, db)                  # reuse for many queries (embedder loaded once)
    res = r.search(query, level="Satz", k=5, mode="fusion", expand="parent", law=None,
                   vector=None)                # pass a precomputed query vector to skip embedding
    res.seeds     # list[Hit]: the top-k hits (score, rank, via='vector'|'fulltext'|'fusion')
    res.expanded  # list[Hit]: expansion nodes (via='parent'|'citation', seed=<seed id>)
    res.unit_ids()  # ids for the metric: seed ids (chunks: the units they cover) + expansion ids

Names: "hybrid" is the paper's *expansion* (parent + citation); the retrieval modes are
``vector``, ``fulltext`` and ``fusion`` (reciprocal rank fusion of the two).
"""

from .search import EXPANSIONS, LEVELS, MODES, Hit, Retriever, SearchResult, normalise_level, search

__all__ = ["EXPANSIONS", "LEVELS", "MODES", "Hit", "Retriever", "SearchResult", "normalise_level", "search"]
