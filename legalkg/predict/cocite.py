"""Co-citation of statute units: how often training cases cite two §§ together, and how surprising that is.

Why: a decision that needs § 573 BGB (ordinary notice) very often also needs § 573c (notice periods);
a lay question about § 1004 often also needs § 823. The predictor scores every unit on its own, so it
cannot use that a unit's usual companions are already high on the list. Counts come from the training
cases' § labels only, so a cross-validation fold never sees its test cases' pairs.

The weight of a pair is the normalised pointwise mutual information (Bouma 2009)::

    npmi(a, b) = log(p(a, b) / (p(a) p(b))) / -log p(a, b)      in [-1, 1]

with p the share of training cases citing a unit or the pair. Pairs seen fewer than ``min_count``
times are dropped: one shared decision is no pattern.

Retrieval reads the counts from the model files (the ranker's, and the predictor's § label matrix for
``--expand cocited``), never from the graph: each CV fold and each shipped model needs the counts of its
own training cases, and a graph holds one set; the model files also keep `legalkg search` free of graph
writes. The graph gets the shipped predictors' view for people: `legalkg ingest` writes
:func:`shipped_rows` as ``CO_CITED`` edges (``legalkg.graph.cocited``, one per pair and task, from the
smaller id to the larger; ``cypher/browser/07_cocited_with.cypher`` reads them either way).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
import scipy.sparse as sp

from ..vocab import RetrievalLevel
from .modelfile import DEFAULT_MODELS, default_model_path, load
from .sparse import label_matrix

#: Tables of up to this many units also keep a dense npmi matrix (4,000 units: 64 MB).
DENSE_UP_TO = 4000
#: A pair must be cited together by at least this many training cases to count.
MIN_COUNT = 2


@dataclass
class CoCitation:
    """Unit ids, pair counts (symmetric, zero diagonal), per-unit counts and the number of cases."""

    ids: list[str]
    pairs: sp.csr_matrix
    units: np.ndarray
    n_cases: int

    def __post_init__(self) -> None:
        self.index = {u: i for i, u in enumerate(self.ids)}
        self.npmi = npmi_matrix(self.pairs, self.units, self.n_cases)
        #: dense copy for the ranker's per-query look-ups (sparse fancy indexing cost 20 ms a query)
        self.dense = self.npmi.toarray() if len(self.ids) <= DENSE_UP_TO else None

    def neighbours(self, uid: str, k: int = 10) -> list[tuple[str, float, int]]:
        """The ``k`` units most often co-cited with ``uid``: (id, npmi, count), strongest npmi first."""
        i = self.index.get(uid)
        if i is None:
            return []
        row = self.npmi.getrow(i)
        counts = self.pairs.getrow(i)
        order = np.lexsort((row.indices, -row.data))[:k]
        return [(self.ids[row.indices[j]], float(row.data[j]), int(counts[0, row.indices[j]])) for j in order]

    def block(self, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
        """Dense npmi of the ``rows`` x ``cols`` unit positions."""
        if self.dense is not None:
            return self.dense[np.ix_(rows, cols)]
        return self.npmi[rows][:, cols].toarray()

    def columns(self, ids: Sequence[str]) -> np.ndarray:
        """Positions of ``ids`` in this table, -1 where a unit was never cited."""
        return np.array([self.index.get(u, -1) for u in ids], dtype=np.int64)


def npmi_matrix(pairs: sp.csr_matrix, units: np.ndarray, n_cases: int) -> sp.csr_matrix:
    """Normalised PMI of every stored pair (same sparsity as ``pairs``)."""
    coo = pairs.tocoo()
    if coo.nnz == 0 or n_cases == 0:
        return sp.csr_matrix(pairs.shape, dtype=np.float32)
    p_ab = coo.data / n_cases
    p_a = units[coo.row] / n_cases
    p_b = units[coo.col] / n_cases
    with np.errstate(divide="ignore", invalid="ignore"):
        value = np.log(p_ab / (p_a * p_b)) / -np.log(p_ab)
    value = np.where(p_ab >= 1.0, 1.0, value)  # every case cites both: the pair is certain
    return sp.csr_matrix((value.astype(np.float32), (coo.row, coo.col)), shape=pairs.shape)


def fit(label_sets: Sequence[Sequence[str]], min_count: int = MIN_COUNT) -> CoCitation:
    """Co-citation table of the § labels of training cases (one label set per case)."""
    ids = sorted({u for row in label_sets for u in row})
    y = label_matrix([sorted(set(row)) for row in label_sets], {u: j for j, u in enumerate(ids)})
    return of_matrix(ids, y, min_count)


def of_matrix(ids: Sequence[str], y: sp.csr_matrix, min_count: int = MIN_COUNT) -> CoCitation:
    """Co-citation table of a cases x units label matrix (a predictor's § level: ``LevelModel.y``),
    so any predictor, a CV fold's too, gives the table of exactly its own training cases. Units no
    case cites are left out, as ``fit`` never sees them."""
    y = sp.csr_matrix(y, dtype=np.float32, copy=True)
    y.eliminate_zeros()
    y.data[:] = 1.0
    cited = np.flatnonzero(np.asarray(y.sum(axis=0)).ravel() > 0)
    if len(cited) < y.shape[1]:
        y, ids = y[:, cited].tocsr(), [ids[j] for j in cited]
    both = (y.T @ y).tocsr().astype(np.float32)
    units = both.diagonal().astype(np.float64)
    both.setdiag(0.0)
    both.data[both.data < min_count] = 0.0
    both.eliminate_zeros()
    return CoCitation(list(ids), both, units, y.shape[0])


def of_predictor(pred) -> CoCitation | None:
    """The co-citation table of a predictor's own training cases (its § label matrix), None where it
    has no § level: what ``Models.cocitation`` expands with and what the graph's edges hold."""
    level = pred.levels.get(RetrievalLevel.PARAGRAPH.value)
    return None if level is None else of_matrix(level.labels, level.y)


def edge_rows(table: CoCitation | None, min_count: int = MIN_COUNT) -> list[dict]:
    """One row per co-cited pair of ``table`` seen at least ``min_count`` times: ``{a, b, count, npmi}``
    with ``a`` < ``b`` (the ids' string order: a symmetric pair is stored once), sorted by ``a``, ``b``."""
    if table is None:
        return []
    upper = sp.triu(table.pairs, k=1).tocoo()
    npmi = table.npmi.tocsr()
    rows = []
    for i, j, count in zip(upper.row, upper.col, upper.data, strict=True):
        if count < min_count:
            continue
        a, b = sorted((table.ids[i], table.ids[j]))
        rows.append({"a": a, "b": b, "count": int(count), "npmi": float(npmi[i, j])})
    return sorted(rows, key=lambda r: (r["a"], r["b"]))


@cache
def shipped_rows() -> dict[str, list[dict]]:
    """:func:`edge_rows` of every shipped predictor (``legalkg/data/predictor-TASK.npz``), by task:
    the ``CO_CITED`` edges `legalkg ingest` writes. Made once per process (the shipped files do not
    change while it runs; loading both predictors takes seconds); callers must not change the rows."""
    return {task: edge_rows(of_predictor(load(default_model_path(task)))) for task in DEFAULT_MODELS}
