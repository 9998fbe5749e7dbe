"""A bridge from lay words to statute words, learned from what the training cases cite.

Why: a lay person writes "Kaution", the statute says "Sicherheitsleistung"; the stems never
meet, so text similarity alone cannot find § 551 BGB. For each query word we learn which statute
words the units cited by cases containing it use (the training cases' cited § texts), relative to
how common those statute words are among all cited texts (a lift, so "Vertrag" does not win
everywhere), and keep the ``top`` strongest. A query is translated word by word into a statute
word vector and scored against every unit text, so the bridge also reaches units that no training
case cites, which the classifier and the neighbours cannot.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .sparse import normalise_rows, top_per_row

#: Added to the background share of a statute word before dividing: keeps rare words from
#: exploding the lift.
SMOOTHING = 1e-4


def fit_associations(x_query: sp.csr_matrix, y: sp.csr_matrix, label_texts: sp.csr_matrix,
                     top: int = 50) -> sp.csr_matrix:
    """(n_query_words, n_statute_words) association matrix, rows l2-normalised.

    ``x_query``: training cases' query rows; ``y``: their labels (n_cases, n_labels);
    ``label_texts``: TF-IDF rows of the labels' statute texts (n_labels, n_statute_words), a zero
    row for a label without text.
    """
    present = x_query.copy().tocsr()
    present.data[:] = 1.0
    profile = normalise_rows(y @ label_texts)  # each case: the statute words of what it cites
    assoc = normalise_rows((present.T @ profile).tocsr(), "l1")
    background = np.asarray(profile.sum(axis=0)).ravel()
    total = background.sum()
    if total > 0:
        background = background / total
    assoc = assoc.tocoo()
    assoc.data = assoc.data / (background[assoc.col] + SMOOTHING)
    return normalise_rows(top_per_row(assoc.tocsr(), top)).astype(np.float32).tocsr()


def translate(x_query: sp.csr_matrix, assoc: sp.csr_matrix) -> sp.csr_matrix:
    """Query rows -> statute-word rows (l2-normalised)."""
    return normalise_rows((x_query @ assoc).tocsr()).astype(np.float32)


def scores(x_query: sp.csr_matrix, assoc: sp.csr_matrix, unit_cols: sp.csr_matrix) -> np.ndarray:
    """(n_queries, n_units) cosine of the translated query with each unit's statute-word row;
    ``unit_cols`` is the transposed unit matrix (n_statute_words, n_units), built once."""
    return np.asarray((translate(x_query, assoc) @ unit_cols).toarray(), dtype=np.float32)
