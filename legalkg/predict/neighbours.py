"""Nearest training cases: a label scores by how similar the cases citing it are to the query.

Why beside the classifier: Naive Bayes adds word evidence independently, while one very similar
training question ("Kaution nach Auszug nicht zurück") is strong evidence on its own. Cosine on
the same TF-IDF rows, the ``k`` nearest cases, each weighted by its similarity squared.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .sparse import top_per_row


class Neighbours:
    def __init__(self, x_train: sp.csr_matrix, k: int = 30, power: float = 2.0):
        self.x_train = x_train.tocsr()
        self._xt = self.x_train.T.tocsr()  # transposed once, not per query
        self.k = k
        self.power = power

    def weights(self, x: sp.csr_matrix) -> sp.csr_matrix:
        """(n_queries, n_train): the similarity^power of each query's k nearest training cases."""
        sims = (x @ self._xt).tocsr()
        near = top_per_row(sims, self.k)
        near.data = np.power(np.maximum(near.data, 0.0), self.power)
        return near

    def scores(self, x: sp.csr_matrix, y: sp.csr_matrix, near: sp.csr_matrix | None = None) -> np.ndarray:
        """(n_queries, n_labels) label scores for the label matrix ``y`` of the training cases."""
        near = self.weights(x) if near is None else near
        return np.asarray((near @ y).toarray(), dtype=np.float32)
