"""Parse gesetze-im-internet XML into the typed statute tree of :mod:`legalkg.model`.

Public API: :func:`parse_file`, :func:`parse_bytes`, :func:`iter_laws`, :func:`iter_law_stats`,
:func:`corpus_stats`,
:class:`ParseError`. Decisions are documented in ``docs/model.md``.
"""

from .errors import ParseError
from .law import parse_bytes
from .sentences import split_sentences
from .sources import DuplicateLaw, iter_law_stats, iter_laws, parse_file
from .stats import CorpusStats, LawStats, corpus_stats, law_stats

__all__ = ["DuplicateLaw", "ParseError", "parse_bytes", "parse_file", "iter_laws", "corpus_stats", "CorpusStats",
           "iter_law_stats", "LawStats", "law_stats",
           "split_sentences"]
