"""Complement Naive Bayes over TF-IDF words: query words -> the units cases with those words cite.

Why Complement NB: with hundreds of labels and a few examples each, it estimates every label's
weights from all the *other* labels' examples, which is stable where a per-label linear model
overfits (it gave GerLayQA R@10 0.442 against 0.375 for the shipped ranker, issue 24).
Multi-label data are fitted as one row per (example, label) pair. Only the class-word counts are
kept; the weights are recomputed from them, so the model file holds a sparse count matrix.

Why the weights are computed per query word and not once at load: the dense table (labels x words)
cost a cold search 2.5 s (eval/cli-startup/), while a question has a dozen words. ``NaiveBayes``
computes the columns of those words with the same operations in the same order as ``weights``, so
the scores are the same to the bit (tests/predict/test_components.py); a batch of many queries still
builds the whole table once.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from . import nbcache

#: Rows of a batch from which the whole weight table is built once instead of per batch (evaluations).
TABLE_ROWS = 8
#: Columns (words) densified at a time while a table is built.
CHUNK = 2048
#: Rows (labels) densified at a time for their totals (64 x 24,581 words of the lay model: 12 MB, where
#: all 807 rows at once made a cold search page in 300 MB).
ROW_CHUNK = 64


def fit_counts(x: sp.csr_matrix, y: sp.csr_matrix, alpha: float = 1.0) -> sp.csr_matrix:
    """Class-word counts (n_labels, n_words) from examples ``x`` and 0/1 labels ``y``."""
    from sklearn.naive_bayes import ComplementNB

    rows, cols = y.nonzero()
    if len(rows) == 0:
        return sp.csr_matrix((y.shape[1], x.shape[1]), dtype=np.float32)
    order = np.lexsort((cols, rows))
    rows, cols = rows[order], cols[order]
    nb = ComplementNB(alpha=alpha, norm=False)
    nb.fit(x[rows], cols)
    counts = np.zeros((y.shape[1], x.shape[1]), dtype=np.float64)
    counts[nb.classes_] = nb.feature_count_
    return sp.csr_matrix(counts.astype(np.float32))


def weights(counts: sp.csr_matrix, alpha: float = 1.0) -> np.ndarray:
    """Complement NB log weights (n_labels, n_words), as ``sklearn``'s ``feature_log_prob_``."""
    fc = counts.toarray().astype(np.float64)
    comp = fc.sum(axis=0, keepdims=True) + alpha - fc
    return -np.log(comp / comp.sum(axis=1, keepdims=True)).astype(np.float32)


class NaiveBayes:
    """Scores = x @ W.T; higher is better. Built from stored counts (``weights``' W, by column)."""

    def __init__(self, counts: sp.csr_matrix, alpha: float = 1.0, cache: bool = False):
        self.counts = counts.tocsr()
        self.alpha = alpha
        #: read the totals from ``nbcache`` (a model loaded from a file; not the fits of a CV)
        self.cache = cache
        self._sums: tuple[np.ndarray, np.ndarray, sp.csc_matrix] | None = None
        self._table: np.ndarray | None = None

    @property
    def w(self) -> np.ndarray:
        """The whole weight table (n_labels, n_words)."""
        return self.table().T

    def sums(self) -> tuple[np.ndarray, np.ndarray, sp.csc_matrix]:
        """(word totals + alpha, each label's complement total, the counts by column), computed once:
        the totals as ``weights`` adds them (words down the labels in order, labels across every word
        pairwise, which needs each label's dense row, a chunk at a time)."""
        if self._sums is None:
            self._sums = nbcache.sums(self.counts, self.alpha, self.build_sums) if self.cache else self.build_sums()
        return self._sums

    def build_sums(self) -> tuple[np.ndarray, np.ndarray, sp.csc_matrix]:
        """``sums``, computed."""
        fc = self.counts
        data = fc.data.astype(np.float64)
        # bincount adds each word's counts in data order, i.e. down the labels, as the dense sum does
        top = np.bincount(fc.indices, weights=data, minlength=fc.shape[1]) + self.alpha
        norms = np.empty(fc.shape[0], dtype=np.float64)
        rows = np.empty((ROW_CHUNK, fc.shape[1]), dtype=np.float64)
        for s in range(0, fc.shape[0], ROW_CHUNK):
            e = min(s + ROW_CHUNK, fc.shape[0])
            dense = rows[:e - s]
            dense[:] = top  # the complement rows, top minus each label's counts, built in place
            a, b = fc.indptr[s], fc.indptr[e]
            dense[np.repeat(np.arange(e - s), np.diff(fc.indptr[s:e + 1])), fc.indices[a:b]] -= data[a:b]
            norms[s:e] = dense.sum(axis=1)
        return top, norms, fc.tocsc()

    def columns(self, words: np.ndarray) -> np.ndarray:
        """The weights of ``words`` (column indices), (len(words), n_labels) float32, C order."""
        top, norms, by_word = self.sums()
        out = np.empty((len(words), self.counts.shape[0]), dtype=np.float32)
        for s in range(0, len(words), CHUNK):
            part = words[s:s + CHUNK]
            comp = top[part][:, None] - np.ascontiguousarray(by_word[:, part].toarray().T).astype(np.float64)
            out[s:s + CHUNK] = (-np.log(comp / norms[None, :])).astype(np.float32)
        return out

    def table(self) -> np.ndarray:
        """Every word's weights (n_words, n_labels), built once (a batch of many queries)."""
        if self._table is None:
            self._table = self.columns(np.arange(self.counts.shape[1]))
        return self._table

    def scores(self, x: sp.csr_matrix) -> np.ndarray:
        x = x.tocsr()
        if x.shape[0] >= TABLE_ROWS or self._table is not None:
            return np.asarray(x @ self.table(), dtype=np.float32)
        words = np.unique(x.indices)
        local = sp.csr_matrix((x.data, np.searchsorted(words, x.indices), x.indptr), shape=(x.shape[0], len(words)))
        return np.asarray(local @ self.columns(words), dtype=np.float32)
