"""Every § of the graph as candidates for the ranker: BM25 and static-vector cosine over all § texts,
and a law router over the laws' § titles (pure, plus its cache file).

Why: the statute predictor knows only the §§ its training cases cite (the lay model: 807 BGB §§), so
a question about holidays or shoplifting never reaches § 3 BUrlG or § 242 StGB through it. The
corpus scores every § the graph holds, whatever law it is in, so the ranker's candidate set is the
union of the predictor's and the corpus' top §§ and its features say which source found a unit
(``rankfeatures.GRAPH_FEATURES``).

* ``bm25``: Okapi BM25 (``textmatch.Bm25``'s formula and constants) of each query with every § text
  (title first line, then the text), one sparse product for a batch of queries.
* ``cosines``: the default static encoder's cosine of the query with every § text.
* ``route``: BM25 of the query against one document per law, its long title and the titles of its
  §§; the candidate's law's score is a feature (``router_*``) and ``--law auto`` reads its top law.

The matrices cost about ten seconds for the 58 codes' 15,224 §§ (parse excluded), so
``cached`` keeps them in ``$LEGALKG_CACHE/corpus/<digest>.npz``, the digest of the ids and texts:
the same graph loads them in a fraction of a second, a changed § builds anew.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from ..embed.static import StaticEmbedder
from .cachefile import load_or_build
from .modelfile import get_csr, pack_strings, put_csr, read_arrays, unpack_strings, write_arrays
from .textmatch import bm25_matrix, part_terms, query_terms

FORMAT = "legalkg-corpus"
FORMAT_VERSION = 1
#: §§ per source whose votes make the router's law scores (``Corpus.route``), and the constant of
#: their reciprocal-rank vote ``1 / (ROUTE_K + rank)``: few and steep, so that a large law's many
#: weak matches do not outvote a small law whose §§ lead (chosen, not tuned).
ROUTE_TOP = 20
ROUTE_K = 5


def top_rows(scores: np.ndarray, n: int) -> list[np.ndarray]:
    """Per row the column indices of its ``n`` highest scores, best first (ties by column)."""
    n = min(n, scores.shape[1])
    if n <= 0:
        return [np.array([], dtype=np.int64) for _ in range(scores.shape[0])]
    part = np.argpartition(-scores, n - 1, axis=1)[:, :n] if n < scores.shape[1] else np.tile(
        np.arange(scores.shape[1]), (scores.shape[0], 1))
    return [row[np.lexsort((row, -scores[i, row]))] for i, row in enumerate(part)]


def query_matrix(texts: Sequence[str], vocab: Mapping[str, int], compounds: bool = False,
                 terms: Callable[[str, Mapping[str, int]], set[int]] | None = None) -> sp.csr_matrix:
    """(texts x vocabulary) with 1 for each distinct known query token (BM25 counts a token once);
    with ``compounds`` also the compound parts of the words ``vocab`` lacks (``textmatch.query_terms``);
    ``terms``: another choice of each text's columns (``textmatch.part_terms``)."""
    rows, cols = [], []
    for i, text in enumerate(texts):
        known = terms(text, vocab) if terms is not None else query_terms(text, vocab, compounds)
        rows.extend([i] * len(known))
        cols.extend(known)
    return sp.csr_matrix((np.ones(len(rows), dtype=np.float32), (rows, cols)), shape=(len(texts), len(vocab)))


@dataclass
class Corpus:
    """All § ids (sorted), each one's law (an index into ``laws``), the BM25 weights and static
    vectors of their texts, and the router's BM25 weights over one document per law."""

    ids: list[str]
    law_index: np.ndarray
    laws: list[str]
    weights: sp.csr_matrix
    vocab: dict[str, int]
    vectors: np.ndarray
    law_weights: sp.csr_matrix
    law_vocab: dict[str, int]

    @classmethod
    def build(cls, units: Mapping[str, str], titles: Mapping[str, str] | None = None,
              vectors: np.ndarray | None = None) -> Corpus:
        """The corpus of the § texts in ``units`` (id -> "title\\ntext"; deeper ids are ignored);
        ``titles``: law -> long title for the router; ``vectors``: the § vectors in ``ids`` order
        where the caller has them (else the static encoder makes them)."""
        ids = sorted(u for u in units if u.count("/") == 1 and units[u].strip())
        laws = sorted({u.split("/", 1)[0] for u in ids})
        at = {law: j for j, law in enumerate(laws)}
        law_index = np.array([at[u.split("/", 1)[0]] for u in ids], dtype=np.int32)
        weights, vocab = bm25_matrix([units[u] for u in ids])
        heads: dict[str, list[str]] = {law: [(titles or {}).get(law, ""), law] for law in laws}
        for u in ids:
            first, _, rest = units[u].partition("\n")
            if rest:
                heads[u.split("/", 1)[0]].append(first)
        law_weights, law_vocab = bm25_matrix(["\n".join(heads[law]) for law in laws])
        if vectors is None:
            vectors = np.asarray(embedder().embed_documents([units[u] for u in ids]), dtype=np.float32)
        return cls(ids, law_index, laws, weights, vocab, np.asarray(vectors, dtype=np.float32), law_weights, law_vocab)

    def bm25(self, texts: Sequence[str], compounds: bool = False) -> np.ndarray:
        """(texts x ids) BM25 scores; with ``compounds`` the query side adds the compound parts of
        the words no § text uses (``textmatch.query_terms``)."""
        q = query_matrix(texts, self.vocab, compounds)
        return np.asarray((q @ self.weights_t).toarray(), dtype=np.float32)

    def part_bm25(self, texts: Sequence[str]) -> np.ndarray:
        """(texts x ids) the BM25 of the compound parts ``bm25(texts, compounds=True)`` adds alone
        (``textmatch.part_terms``; 0 for a query whose words the § texts all use)."""
        q = query_matrix(texts, self.vocab, terms=part_terms)
        return np.asarray((q @ self.weights_t).toarray(), dtype=np.float32)

    @cached_property
    def weights_t(self) -> sp.csr_matrix:
        """The BM25 weights transposed, as CSR: the product with a query's row would otherwise convert
        the whole transposed matrix for every search (scipy makes the same matrix inside it)."""
        return self.weights.T.tocsr()

    def cosines(self, texts: Sequence[str]) -> np.ndarray:
        """(texts x ids) cosine of each query's static vector with each § vector (0 for an empty query)."""
        texts = list(texts)
        have = [i for i, t in enumerate(texts) if t.strip()]
        out = np.zeros((len(texts), len(self.ids)), dtype=np.float32)
        if have:
            q = np.asarray(embedder().embed_queries([texts[i] for i in have]), dtype=np.float32)
            out[have] = q @ self.vectors.T
        return out

    def route(self, texts: Sequence[str], bm25: np.ndarray | None = None,
              cosines: np.ndarray | None = None) -> np.ndarray:
        """(texts x laws) the router's score of each law: reciprocal-rank votes of the query's top
        ``ROUTE_TOP`` §§ by BM25 and by cosine (each § votes for its law, ``1 / (ROUTE_K + rank)``),
        plus the vote of the law's rank by BM25 against its title and § titles. Why votes, not one
        BM25 over whole laws: a long law matches every common word; many matching §§ in one law are
        the evidence (``bm25`` / ``cosines``: the scores where the caller has them)."""
        texts = list(texts)
        runs = [self.bm25(texts) if bm25 is None else bm25, self.cosines(texts) if cosines is None else cosines]
        heads = np.asarray((query_matrix(texts, self.law_vocab) @ self.law_weights.T).toarray(), dtype=np.float32)
        out = np.zeros((len(texts), len(self.laws)), dtype=np.float32)
        for scores in runs:
            top = top_rows(scores, ROUTE_TOP)
            for i, cols in enumerate(top):
                ok = cols[scores[i, cols] > 0]
                np.add.at(out[i], self.law_index[ok], 1.0 / (ROUTE_K + np.arange(1, len(ok) + 1)))
        for i, cols in enumerate(top_rows(heads, len(self.laws))):
            ok = cols[heads[i, cols] > 0]
            out[i, ok] += 1.0 / (ROUTE_K + np.arange(1, len(ok) + 1))
        return out

    def top_laws(self, text: str, n: int = 3) -> list[tuple[str, float]]:
        """The ``n`` laws the router ranks first for ``text``, with their scores (ties by name)."""
        scores = self.route([text])[0]
        order = np.lexsort((np.array(self.laws), -scores))[:n]
        return [(self.laws[j], float(scores[j])) for j in order if scores[j] > 0]

    # -- the file ---------------------------------------------------------------------------
    def save(self, path: Path) -> Path:
        header = {"format": FORMAT, "version": FORMAT_VERSION, "n": len(self.ids)}
        arrays = {"header": np.frombuffer(json_bytes(header), dtype=np.uint8),
                  "ids": pack_strings(self.ids), "laws": pack_strings(self.laws),
                  "law_index": self.law_index, "vectors": self.vectors.astype(np.float32),
                  "vocab": pack_strings(sorted(self.vocab, key=self.vocab.__getitem__)),
                  "law_vocab": pack_strings(sorted(self.law_vocab, key=self.law_vocab.__getitem__))}
        put_csr(arrays, "weights", self.weights)
        put_csr(arrays, "law_weights", self.law_weights)
        return write_arrays(path, arrays)

    @classmethod
    def load(cls, path: Path) -> Corpus:
        with read_arrays(path, FORMAT, "corpus cache", "delete it; the next search builds it anew") as (z, _header):
            vocab = unpack_strings(z["vocab"])
            law_vocab = unpack_strings(z["law_vocab"])
            return cls(unpack_strings(z["ids"]), z["law_index"].astype(np.int32), unpack_strings(z["laws"]),
                       get_csr(z, "weights"), {w: i for i, w in enumerate(vocab)},
                       z["vectors"].astype(np.float32), get_csr(z, "law_weights"),
                       {w: i for i, w in enumerate(law_vocab)})


@lru_cache(maxsize=1)
def embedder():
    """The default static encoder, loaded once per process (the corpus' vectors are its own)."""
    return StaticEmbedder()


def json_bytes(obj: dict) -> bytes:
    return json.dumps(obj, sort_keys=True).encode("utf-8")


def digest(units: Mapping[str, str], titles: Mapping[str, str] | None = None) -> str:
    """sha256 of the § ids and texts (and law titles) a corpus is built from, plus its format."""
    h = hashlib.sha256(f"{FORMAT}/{FORMAT_VERSION}\n".encode())
    for uid in sorted(u for u in units if u.count("/") == 1):
        h.update(uid.encode("utf-8") + b"\0" + units[uid].encode("utf-8") + b"\0")
    for law in sorted(titles or {}):
        h.update(law.encode("utf-8") + b"\1" + (titles or {})[law].encode("utf-8") + b"\1")
    return h.hexdigest()[:24]


def cached(units: Mapping[str, str], folder: Path, titles: Mapping[str, str] | None = None) -> Corpus:
    """The corpus of ``units``, from ``folder/<digest>.npz`` where an earlier call left it, else
    built and written there (atomically); an unreadable cache is rebuilt."""
    return load_or_build(folder / f"{digest(units, titles)}.npz", Corpus.load, lambda: Corpus.build(units, titles))
