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

from typing import TYPE_CHECKING

from ..lazy import package_face

# ``normalize`` and ``resolve`` are also submodules' names. Both submodules are light and load here,
# first, so that no later import of either rebinds the package's name to the module: the face gives
# the functions (``normalize`` at once, ``resolve`` with the grammar, on first use).
from . import resolve as _resolve_submodule  # noqa: F401
from .normalize import normalize

del globals()["resolve"]  # the submodule's binding: ``__getattr__`` gives the grammar's function

#: public name -> (submodule, name there): the face loads the grammar on first use (PEP 562), so a
#: search whose query cites nothing never builds its patterns (eval/cli-startup/lazy/)
_FACE: dict[str, tuple[str, str]] = {
    "CaseSpan": ("caselaw", "CaseSpan"), "cases": ("caselaw", "case_spans"),
    **{name: ("court", name) for name in ("MAX_CHARS", "CitationMatch", "TextTooLong", "check_length", "extract",
                                          "mask", "resolve", "spans")},
    "LawRegistry": ("registry", "LawRegistry"),
    **{name: ("statute", name) for name in ("Edge", "EdgeStats", "KnownUnits", "statute_edges")},
}

if TYPE_CHECKING:
    from .caselaw import CaseSpan, case_spans as cases
    from .court import MAX_CHARS, CitationMatch, TextTooLong, check_length, extract, mask, resolve, spans
    from .registry import LawRegistry
    from .statute import Edge, EdgeStats, KnownUnits, statute_edges


__getattr__ = package_face(__name__, _FACE, globals())


__all__ = ["MAX_CHARS", "CaseSpan", "CitationMatch", "Edge", "EdgeStats", "KnownUnits", "LawRegistry", "TextTooLong",
           "cases", "check_length", "extract", "mask", "normalize", "resolve", "spans", "statute_edges"]
