"""Texts -> sublinear TF-IDF rows over stemmed words, with a vocabulary and idf that can be saved.

Why not a pickled ``TfidfVectorizer``: the model file stores plain arrays (vocabulary, idf), and
this class rebuilds the same transform from them. Why the counting is written out here and not
left to scikit-learn's ``CountVectorizer``: a search transforms one query, and importing
scikit-learn would cost the cold search more than everything else it does (eval/cli-startup/);
``counts`` gives the same matrix (tests/predict/test_components.py compares them), and ``fit``,
which only training runs, still uses ``CountVectorizer``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

import numpy as np
import scipy.sparse as sp

from .sparse import normalise_rows
from .text import tokens


class Vectoriser:
    """Fixed vocabulary + idf; ``transform`` gives l2-normalised rows (CSR, float32)."""

    def __init__(self, vocabulary: Sequence[str], idf: np.ndarray, forms: tuple[str, ...] = ()):
        self.vocabulary = list(vocabulary)
        self.idf = np.asarray(idf, dtype=np.float32)
        self.forms = tuple(forms)
        self.index = {w: i for i, w in enumerate(self.vocabulary)}

    @classmethod
    def fit(cls, texts: Sequence[str], min_df: int = 2, forms: tuple[str, ...] = ()) -> Vectoriser:
        """Vocabulary and idf of ``texts``; ``forms``: the word forms beside the stems (``text.FORMS``)."""
        from sklearn.feature_extraction.text import CountVectorizer

        counter = CountVectorizer(analyzer=partial(tokens, forms=tuple(forms)), min_df=min_df)
        counts = counter.fit_transform(texts)
        vocab = [""] * len(counter.vocabulary_)
        for word, i in counter.vocabulary_.items():
            vocab[i] = word
        df = np.bincount(counts.indices, minlength=len(vocab))
        idf = np.log((1 + counts.shape[0]) / (1 + df)) + 1.0
        return cls(vocab, idf, tuple(forms))

    def counts(self, texts: Sequence[str]) -> sp.csr_matrix:
        """(n_texts, n_words) counts of the vocabulary's words, as ``CountVectorizer.transform`` with
        this vocabulary gives them (int64, indices sorted per row; unknown words dropped)."""
        index = self.index
        cols: list[int] = []
        values: list[int] = []
        indptr = [0]
        for text in texts:
            seen: dict[int, int] = {}
            for token in tokens(text, self.forms):
                j = index.get(token)
                if j is not None:
                    seen[j] = seen.get(j, 0) + 1
            cols.extend(seen)
            values.extend(seen.values())
            indptr.append(len(cols))
        out = sp.csr_matrix((np.asarray(values, dtype=np.int64), np.asarray(cols, dtype=np.int64),
                             np.asarray(indptr, dtype=np.int64)), shape=(len(indptr) - 1, len(self.vocabulary)),
                            dtype=np.int64)
        out.sort_indices()
        return out

    def weigh(self, counts: sp.csr_matrix) -> sp.csr_matrix:
        """Sublinear tf times idf, then l2 row norm: long decisions must not outweigh short questions."""
        x = counts.astype(np.float32).tocsr(copy=True)
        x.data = 1.0 + np.log(x.data)
        x = x @ sp.diags(self.idf)
        return normalise_rows(x).astype(np.float32).tocsr()

    def transform(self, texts: Sequence[str]) -> sp.csr_matrix:
        return self.weigh(self.counts(texts))
