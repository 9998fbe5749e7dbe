"""Parse gesetze-im-internet XML into the typed statute tree of :mod:`legalkg.model`.

Public API: :func:`parse_file`, :func:`parse_bytes`, :func:`iter_laws`, :func:`iter_law_stats`,
:func:`corpus_stats`,
:class:`ParseError`. Decisions are documented in ``docs/model.md``.
"""

from typing import TYPE_CHECKING

from ..lazy import package_face

#: public name -> (submodule, name there): the face loads a submodule on first use (PEP 562), so
#: ``legalkg cite``, which parses only for ``--check-source``, does not import lxml, the worker pool
#: and the downloader (eval/cli-startup/)
_FACE: dict[str, tuple[str, str]] = {
    "ParseError": ("errors", "ParseError"), "parse_bytes": ("law", "parse_bytes"),
    "split_sentences": ("sentences", "split_sentences"),
    **{name: ("sources", name) for name in ("DuplicateLaw", "iter_law_stats", "iter_laws", "parse_file")},
    **{name: ("stats", name) for name in ("CorpusStats", "LawStats", "corpus_stats", "law_stats")},
}

if TYPE_CHECKING:
    from .errors import ParseError
    from .law import parse_bytes
    from .sentences import split_sentences
    from .sources import DuplicateLaw, iter_law_stats, iter_laws, parse_file
    from .stats import CorpusStats, LawStats, corpus_stats, law_stats

__getattr__ = package_face(__name__, _FACE, globals())

__all__ = ["DuplicateLaw", "ParseError", "parse_bytes", "parse_file", "iter_laws", "corpus_stats", "CorpusStats",
           "iter_law_stats", "LawStats", "law_stats",
           "split_sentences"]
