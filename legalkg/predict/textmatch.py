"""Full-text BM25 and static-vector cosine of a query with § texts: ranker features that need no graph.

Why here and not from the graph's full-text and vector indexes: the ranker is trained outside the
graph (on the gii XML texts) and must see the same numbers at search time, where it gets the same §
texts through ``Ranker.attach_units``; both matchers below read only those texts.

BM25 (Okapi, Lucene's non-negative idf) over the project's analyser ``text.tokens`` (stems, no
stopwords), ``k1 = 1.2``, ``b = 0.75``, each distinct query token once::

    score(q, d) = sum_{t in set(q)} idf(t) * tf(t, d) * (k1 + 1) / (tf(t, d) + k1 * (1 - b + b * |d| / avgdl))
    idf(t)      = ln(1 + (N - df(t) + 0.5) / (df(t) + 0.5))

with ``N`` the § texts given, ``df(t)`` how many contain ``t``, ``|d|`` a text's token count and
``avgdl`` their mean. scipy does it in a sparse (texts x vocabulary) matrix of the per-term weights;
a library (bm25s) would add a dependency for these lines.

Vectors: the default static encoder (``embed.registry.DEFAULT_MODEL``, ``embed.static``), cosine of
the L2-normalised sums; each § text is encoded once (``VectorCache``): all of a ranker's §§ when it
gets its units (``UnitFacts.build``: 0.5-1.5 s for the lay predictor's 2,470 §§ on the shared
machine), so a search encodes only the query (0.1 ms) and both features cost about 1.5 ms per query
for 150 candidates; encoding the candidates on demand instead cost 20-40 ms per query.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..embed.static import StaticEmbedder
from .text import split_compound, tokens

if TYPE_CHECKING:
    from scipy import sparse

K1 = 1.2
B = 0.75


def bm25_matrix(docs: Sequence[str]) -> tuple[sparse.csr_matrix, dict[str, int]]:
    """(docs x vocabulary) BM25 term weights (the module docstring's formula) and the vocabulary;
    scipy is imported here, not at the top, so a search that reads no BM25 never loads it."""
    from scipy import sparse  # noqa: F811

    vocab: dict[str, int] = {}
    data, cols, indptr = [], [], [0]
    for text in docs:
        counts: dict[int, int] = {}
        for tok in tokens(text):
            j = vocab.setdefault(tok, len(vocab))
            counts[j] = counts.get(j, 0) + 1
        cols.extend(counts)
        data.extend(counts.values())
        indptr.append(len(cols))
    tf = sparse.csr_matrix((np.asarray(data, dtype=np.float64), cols, indptr), shape=(len(docs), len(vocab)))
    length = np.asarray(tf.sum(axis=1)).ravel()
    norm = K1 * (1 - B + B * length / max(float(length.mean()) if len(docs) else 0.0, 1e-9))
    df = np.bincount(tf.indices, minlength=len(vocab))
    idf = np.log1p((len(docs) - df + 0.5) / (df + 0.5))
    weight = tf.copy()
    weight.data = tf.data * (K1 + 1) / (tf.data + np.repeat(norm, np.diff(tf.indptr)))
    return sparse.csr_matrix(weight.multiply(idf[None, :]), dtype=np.float32), vocab


def compound_parts(text: str, vocab: Mapping[str, int]) -> set[str]:
    """The tokens of the compound parts (``text.split_compound``) of each word of ``text`` whose one
    token ``vocab`` lacks ("Ladendiebstahl" -> laden, diebstahl). Why only those: a compound the §
    texts use matches as a whole, and its parts would only add noise; one they never use ("no §
    says Ladendiebstahl") otherwise matches nothing (eval/bm25-compounds/)."""
    out: set[str] = set()
    for word in re.findall(r"\w+", text.lower()):
        own = tokens(word)
        if len(own) == 1 and own[0] not in vocab:
            out.update(t for part in split_compound(word) for t in tokens(part))
    return out


def query_terms(text: str, vocab: Mapping[str, int], compounds: bool = False) -> set[int]:
    """The BM25 columns of ``text``'s distinct tokens in ``vocab``; with ``compounds`` also those
    of its unknown words' compound parts (``compound_parts``): a query whose every word's token
    ``vocab`` knows gets the same columns either way."""
    known = {vocab[t] for t in tokens(text) if t in vocab}
    return known | {vocab[t] for t in compound_parts(text, vocab) if t in vocab} if compounds else known


def part_terms(text: str, vocab: Mapping[str, int]) -> set[int]:
    """The columns ``compounds`` adds to ``query_terms``: the parts' tokens the query itself lacks."""
    return query_terms(text, vocab, True) - query_terms(text, vocab)


class Bm25:
    """BM25 of queries against fixed § texts (module docstring has the formula)."""

    def __init__(self, texts: Mapping[str, str], ids: Sequence[str]) -> None:
        self.row = {uid: i for i, uid in enumerate(ids)}
        self.weights, self.vocab = bm25_matrix([texts.get(uid, "") for uid in ids])

    def scores(self, query: str, ids: Sequence[str]) -> np.ndarray:
        """BM25 of ``query`` with each of ``ids`` (NaN for an id without a text here)."""
        cols = sorted({self.vocab[t] for t in tokens(query) if t in self.vocab})
        rows = [self.row.get(u, -1) for u in ids]
        out = np.full(len(ids), np.nan, dtype=np.float32)
        have = np.flatnonzero(np.array(rows) >= 0) if rows else np.array([], dtype=np.int64)
        if len(have):
            block = self.weights[[rows[i] for i in have]][:, cols] if cols else None
            out[have] = np.asarray(block.sum(axis=1)).ravel() if block is not None else 0.0
        return out


class VectorCache:
    """Static-encoder vectors of § texts, each encoded once, and cosines with a query."""

    def __init__(self, texts: Mapping[str, str]) -> None:
        self.texts = texts
        self.vectors: dict[str, np.ndarray] = {}
        self._embedder: StaticEmbedder | None = None

    @property
    def embedder(self) -> StaticEmbedder:
        if self._embedder is None:
            self._embedder = StaticEmbedder()
        return self._embedder

    def encode(self, ids: Sequence[str]) -> VectorCache:
        """Encode the texts of ``ids`` not encoded yet (in one batch)."""
        missing = [u for u in dict.fromkeys(ids) if u not in self.vectors and self.texts.get(u, "").strip()]
        if missing:
            vecs = self.embedder.embed_documents([self.texts[u] for u in missing])
            self.vectors.update(zip(missing, vecs))
        return self

    def cosines(self, query: str, ids: Sequence[str]) -> np.ndarray:
        """Cosine of ``query`` with each of ``ids`` (NaN for an id without a text, or an empty query)."""
        out = np.full(len(ids), np.nan, dtype=np.float32)
        self.encode(ids)
        have = [i for i, u in enumerate(ids) if u in self.vectors]
        if not have or not query.strip():
            return out
        q = self.embedder.embed_query(query)
        out[have] = np.stack([self.vectors[ids[i]] for i in have]) @ q
        return out


def score_rank_gap(scores: np.ndarray) -> np.ndarray:
    """(len(scores), 3): the score, its 1-based rank among the query's candidates (best first) and
    its gap to their best score; NaN rows stay NaN."""
    out = np.full((len(scores), 3), np.nan, dtype=np.float32)
    ok = np.isfinite(scores)
    if not ok.any():
        return out
    out[:, 0] = scores
    order = np.argsort(-np.where(ok, scores, -np.inf), kind="stable")
    rank = np.empty(len(scores), dtype=np.float32)
    rank[order] = np.arange(1, len(scores) + 1)
    out[ok, 1] = rank[ok]
    out[ok, 2] = scores[ok] - scores[ok].max()
    return out
