"""The statute side of the bridge: TF-IDF rows of every § of the laws a model predicts.

Why a separate object: it depends only on the unit texts and the set of laws, not on the training
cases, so cross-validation builds it once and every fold's model reuses it; a loaded model gets it
from ``unit_texts`` today and from the graph later.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import scipy.sparse as sp

from ..model import Level, level_of_id
from . import rowcache
from .features import Vectoriser


def para_ids(units: Mapping[str, str], laws: Iterable[str]) -> list[str]:
    """The § ids of ``laws`` in ``units``, sorted (a fixed order keeps rankings reproducible)."""
    keep = set(laws)
    return sorted(u for u in units if u.split("/", 1)[0] in keep and level_of_id(u) == Level.PARAGRAPH)


@dataclass
class StatuteIndex:
    vectoriser: Vectoriser
    ids: list[str]
    rows: sp.csr_matrix

    def __post_init__(self) -> None:
        self.cols = self.rows.T.tocsr()  # (n_words, n_units), for scoring queries

    @classmethod
    def build(cls, units: Mapping[str, str], laws: Iterable[str]) -> StatuteIndex:
        ids = para_ids(units, laws)
        texts = [units[u] for u in ids]
        vec = Vectoriser.fit(texts) if texts else Vectoriser([], [])
        return cls(vec, ids, vec.transform(texts) if texts else sp.csr_matrix((0, 0)))

    @classmethod
    def attach(cls, vectoriser: Vectoriser, units: Mapping[str, str], laws: Iterable[str]) -> StatuteIndex:
        """Rows for a stored vocabulary (a loaded model), from the caller's unit texts (through the
        cache of ``rowcache``: a search loads them, a training run builds its own with ``build``)."""
        ids = para_ids(units, laws)
        return cls(vectoriser, ids, rowcache.rows(vectoriser, [units[u] for u in ids]))

    def rows_for(self, labels: list[str]) -> sp.csr_matrix:
        """TF-IDF rows of ``labels`` (a zero row for a label outside the index)."""
        where = {u: i for i, u in enumerate(self.ids)}
        n_words = len(self.vectoriser.vocabulary)
        padded = sp.vstack([self.rows.tocsr(), sp.csr_matrix((1, n_words), dtype="float32")]).tocsr()
        return padded[[where.get(lab, len(self.ids)) for lab in labels]]
