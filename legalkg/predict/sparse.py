"""Small sparse-matrix helpers shared by the components (label matrices, row-wise top-k)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import scipy.sparse as sp


def label_matrix(rows: Sequence[Sequence[str]], index: Mapping[str, int]) -> sp.csr_matrix:
    """(n_rows, n_labels) 0/1 matrix; labels missing from ``index`` are ignored."""
    r: list[int] = []
    c: list[int] = []
    for i, labels in enumerate(rows):
        for lab in dict.fromkeys(labels):
            j = index.get(lab)
            if j is not None:
                r.append(i)
                c.append(j)
    data = np.ones(len(r), dtype=np.float32)
    return sp.csr_matrix((data, (r, c)), shape=(len(rows), len(index)), dtype=np.float32)


def top_per_row(m: sp.csr_matrix, k: int) -> sp.csr_matrix:
    """Keep the ``k`` largest entries of every row (ties: lower column first)."""
    m = m.tocsr()
    m.sort_indices()
    rows: list[np.ndarray] = []
    cols: list[np.ndarray] = []
    vals: list[np.ndarray] = []
    for i in range(m.shape[0]):
        s, e = m.indptr[i], m.indptr[i + 1]
        if e == s:
            continue
        d = m.data[s:e]
        keep = np.argsort(-d, kind="stable")[:k]
        rows.append(np.full(len(keep), i))
        cols.append(m.indices[s:e][keep])
        vals.append(d[keep])
    if not rows:
        return sp.csr_matrix(m.shape, dtype=m.dtype)
    return sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                         shape=m.shape, dtype=m.dtype)


def top_dense(scores: np.ndarray, k: int) -> np.ndarray:
    """Column indices of the ``k`` best scores of each row, best first, ties by column order."""
    k = min(k, scores.shape[1])
    if k <= 0:
        return np.zeros((scores.shape[0], 0), dtype=np.int64)
    part = np.argpartition(-scores, k - 1, axis=1)[:, :k] if k < scores.shape[1] else \
        np.tile(np.arange(scores.shape[1]), (scores.shape[0], 1))
    out = np.empty_like(part)
    for i in range(scores.shape[0]):
        cand = np.sort(part[i])
        order = np.argsort(-scores[i, cand], kind="stable")
        out[i] = cand[order]
    return out


#: Up to this many rows, ``sequential_row_sums`` sums row by row: a query's few rows, whose one long
#: row made the vectorised way one numpy step per value.
FEW_ROWS = 8


def sequential_row_sums(values: np.ndarray, indptr: np.ndarray) -> np.ndarray:
    """Per CSR row, the sum of its ``values`` (float64) added left to right, one value at a time: the
    order a C loop adds them, which ``np.add.reduceat`` (pairwise in blocks) does not keep. Vectorised
    across rows: the k-th value of every row long enough is added in one step."""
    lengths = np.diff(indptr)
    if len(lengths) <= FEW_ROWS:  # a query's rows: one running sum each (``np.add.accumulate`` adds in order)
        return np.array([np.add.accumulate(values[a:b])[-1] if b > a else 0.0
                         for a, b in zip(indptr[:-1], indptr[1:])], dtype=np.float64)
    order = np.argsort(-lengths, kind="stable")
    starts, lens = indptr[:-1][order], lengths[order]
    sums = np.zeros(len(lengths), dtype=np.float64)
    for k in range(int(lens[0]) if len(lens) else 0):
        active = int(np.searchsorted(-lens, -k, side="left"))
        sums[:active] += values[starts[:active] + k]
    out = np.empty_like(sums)
    out[order] = sums
    return out


def normalise_rows(m: sp.csr_matrix, norm: str = "l2") -> sp.csr_matrix:
    """``m``'s rows scaled to unit length, in place, bit for bit as scikit-learn's ``normalize`` of a
    CSR matrix (each square or absolute value in the data's type, summed in double in index order, then
    one division in double per value; an all-zero row stays). Why not scikit-learn's: the shipped models
    were built with it, and importing it costs a cold search about a second (eval/cli-startup/)."""
    m = m.tocsr()
    data = m.data
    part = data * data if norm == "l2" else np.abs(data)
    sums = sequential_row_sums(part.astype(np.float64), m.indptr)
    if norm == "l2":
        sums = np.sqrt(sums)
    per_value = np.repeat(sums, np.diff(m.indptr))
    scaled = per_value != 0.0
    data[scaled] = (data[scaled].astype(np.float64) / per_value[scaled]).astype(data.dtype)
    return m
