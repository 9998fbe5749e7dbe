"""The German citation grammar: statute references -> graph edges, court citations -> tuples.

Public API (other rooms call only these):
- ``extract(text, default_law=None, registry=None, max_chars=MAX_CHARS) -> list[CitationMatch]``;
  a longer text raises ``TextTooLong`` (a ``UserError``, one line); ``check_length`` is that check alone
- ``resolve(match_or_citation, known_ids) -> str | None``
- ``mask(text, placeholder="[NORM]") -> str``
- ``statute_edges(law, registry, known_ids, repealed_ids) -> (list[Edge], EdgeStats)``; for many laws
  pass one ``KnownUnits(ids)`` as ``known_ids``
- ``LawRegistry.default()``
- ``cases(text) -> list[CaseSpan]``: case-law citations ('BGHZ 123, 45'), never read as statutes
- ``normalize(text) -> (text, offsets)``: web text (entities, odd spaces, soft hyphens) for the grammar
"""

from .caselaw import CaseSpan, case_spans as cases
from .court import MAX_CHARS, CitationMatch, TextTooLong, check_length, extract, mask, resolve, spans
from .normalize import normalize
from .registry import LawRegistry
from .statute import Edge, EdgeStats, KnownUnits, statute_edges

__all__ = ["MAX_CHARS", "CaseSpan", "CitationMatch", "Edge", "EdgeStats", "KnownUnits", "LawRegistry", "TextTooLong",
           "cases", "check_length", "extract", "mask", "normalize", "resolve", "spans", "statute_edges"]
