"""The German citation grammar: statute references -> graph edges, court citations -> tuples.

Public API (other rooms call only these):
- ``extract(text, default_law=None, registry=None) -> list[CitationMatch]``
- ``resolve(match_or_citation, known_ids) -> str | None``
- ``mask(text, placeholder="[NORM]") -> str``
- ``statute_edges(law, registry, known_ids, repealed_ids) -> (list[Edge], EdgeStats)``; for many laws
  pass one ``KnownUnits(ids)`` as ``known_ids``
- ``LawRegistry.default()``
"""

from .court import CitationMatch, extract, mask, resolve, spans
from .registry import LawRegistry
from .statute import Edge, EdgeStats, KnownUnits, statute_edges

__all__ = ["CitationMatch", "Edge", "EdgeStats", "KnownUnits", "LawRegistry", "extract", "mask", "resolve",
           "spans", "statute_edges"]
