"""A law router that reads lay words: which law a question concerns, learned from lay questions and
from the words each statute gives itself (pure, plus its model file).

Why: the other signals of ``legalkg.retrieve.laws`` read a question through §§ (the predictor's
labels, BM25 and vectors over § texts), and those lean to the laws with many §§ and to BGB, whose
lay questions trained the encoder; a question about holidays or parental allowance then routes to
BGB. This model scores laws directly, in one TF-IDF space over stems, lemmas and compound parts
(``text.tokens`` with ``FORMS``):

* ``statute``: per law one document of the words the statute gives itself: its long and short
  title, its abbreviations, its § headings and its Gliederung titles (:func:`statute_words`), for
  every law of gii, so a law no question was ever asked about can still be reached;
* ``lay``: per law the centroid of the training questions about it (lay questions that cite it),
  so the lay words ("Chef", "Urlaub", "schwanger") meet the law they are asked about.

A law's score is ``LAY_WEIGHT`` times its lay cosine plus its statute cosine; laws without training
questions have a lay cosine of 0 (the statute words carry them). The scores rank laws; the router
of ``legalkg.retrieve.laws`` fuses that ranking with its other signals.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from ..model import Law, Level
from ..taskfile import shipped_file
from .modelfile import get_csr, pack_strings, put_csr, read_arrays, unpack_strings, write_arrays
from .sparse import normalise_rows
from .text import tokens

FORMAT = "legalkg-law-router"
FORMAT_VERSION = 1
#: The word forms beside the stems (``text.FORMS``), on both sides.
FORMS: tuple[str, ...] = ("lemma", "split")
#: The weight of the lay cosine beside the statute cosine (the default; ``fit`` takes another).
LAY_WEIGHT = 1.0
#: The shipped model in the package (built by the command in eval/law-router-lay/README.md).
SHIPPED = "law-router.npz"
#: Tokens seen in fewer documents (laws' statute words plus training questions) are dropped.
MIN_DF = 1


def statute_words(law: Law, short_title: str | None = None) -> str:
    """The words the statute gives itself: its long title, short title, abbreviations, § headings
    and Gliederung titles, one per line."""
    lines = [law.title, short_title or "", law.jurabk, law.amtabk or ""]
    for u in law.units:
        if u.title and u.level in (Level.PARAGRAPH, Level.GLIEDERUNG):
            lines.append(u.title)
    return "\n".join(x for x in lines if x)


def analyse(text: str) -> list[str]:
    """The tokens the router reads (stems, lemmas, compound parts)."""
    return tokens(text, FORMS)


@lru_cache(maxsize=1 << 16)
def analysed(text: str) -> tuple[str, ...]:
    """:func:`analyse`, kept per text: the fold routers of a cross-validation (``with_lay``) read the
    same training questions once per fold and inner fold."""
    return tuple(analyse(text))


def counts(texts: Iterable[str], vocab: Mapping[str, int]) -> sp.csr_matrix:
    """(texts x vocabulary) token counts of the known tokens."""
    return token_counts((analyse(t) for t in texts), vocab)


def token_counts(docs: Iterable[Sequence[str]], vocab: Mapping[str, int]) -> sp.csr_matrix:
    """(docs x vocabulary) counts of the known tokens of analysed texts."""
    rows, cols = [], []
    n = 0
    for i, toks in enumerate(docs):
        n += 1
        for t in toks:
            j = vocab.get(t)
            if j is not None:
                rows.append(i)
                cols.append(j)
    m = sp.csr_matrix((np.ones(len(rows), dtype=np.float32), (rows, cols)), shape=(n, len(vocab)))
    m.sum_duplicates()
    return m


def tfidf(c: sp.csr_matrix, idf: np.ndarray) -> sp.csr_matrix:
    """Sublinear TF (1 + log tf) times ``idf``, rows l2-normalised."""
    c = c.tocsr(copy=True).astype(np.float32)
    c.data = 1.0 + np.log(c.data)
    return normalise_rows((c @ sp.diags(idf.astype(np.float32))).tocsr())


def lay_rows(laws: Sequence[str], questions: Sequence[tuple[Sequence[str], Sequence[str]]],
             vocab: Mapping[str, int], idf: np.ndarray) -> sp.csr_matrix:
    """(laws x vocabulary) per law the l2-normalised centroid of the TF-IDF rows of the analysed
    ``questions`` (tokens, gold laws) about it; a gold law outside ``laws`` adds nothing."""
    at = {law: j for j, law in enumerate(laws)}
    rows, cols = [], []
    for i, (_, gold) in enumerate(questions):
        for law in set(gold):
            if law in at:
                rows.append(at[law])
                cols.append(i)
    q = tfidf(token_counts((toks for toks, _ in questions), vocab), idf)
    y = sp.csr_matrix((np.ones(len(rows), dtype=np.float32), (rows, cols)), shape=(len(laws), len(questions)))
    return normalise_rows((y @ q).tocsr())


@dataclass
class LawRouter:
    """The laws (sorted ids), the vocabulary and its idf, and per law its statute and lay rows."""

    laws: list[str]
    vocab: dict[str, int]
    idf: np.ndarray
    statute: sp.csr_matrix
    lay: sp.csr_matrix
    lay_weight: float = LAY_WEIGHT

    @classmethod
    def fit(cls, statutes: Mapping[str, str], questions: Sequence[tuple[str, Sequence[str]]],
            lay_weight: float = LAY_WEIGHT) -> LawRouter:
        """The router of ``statutes`` (law -> :func:`statute_words`) and the training ``questions``
        (text, its gold laws); a question's law missing from ``statutes`` is added with no words."""
        return cls.fit_tokens({law: analyse(text) for law, text in statutes.items()},
                              [(analyse(text), gold) for text, gold in questions], lay_weight)

    @classmethod
    def fit_tokens(cls, statutes: Mapping[str, Sequence[str]], questions: Sequence[tuple[Sequence[str], Sequence[str]]],
                   lay_weight: float = LAY_WEIGHT) -> LawRouter:
        """:meth:`fit` on texts already analysed (:func:`analyse`), so that CV folds analyse each
        text once."""
        laws = sorted(set(statutes) | {law for _, gold in questions for law in gold})
        docs = [statutes.get(law, ()) for law in laws] + [q for q, _ in questions]
        df: dict[str, int] = {}
        for d in docs:
            for t in set(d):
                df[t] = df.get(t, 0) + 1
        vocab = {t: i for i, t in enumerate(sorted(t for t, n in df.items() if n >= MIN_DF))}
        nd = np.array([df[t] for t in sorted(vocab, key=vocab.__getitem__)], dtype=np.float64)
        idf = np.log((1 + len(docs)) / (1 + nd)) + 1.0
        statute = tfidf(token_counts((statutes.get(law, ()) for law in laws), vocab), idf)
        lay = lay_rows(laws, questions, vocab, idf)
        return cls(laws, vocab, idf.astype(np.float32), statute, lay, float(lay_weight))

    def with_lay(self, questions: Sequence[tuple[str, Sequence[str]]]) -> LawRouter:
        """This router with its ``lay`` rows recomputed from ``questions`` (text, its gold laws) alone:
        the laws, the vocabulary, the idf and the statute rows stay this router's. Why: a CV fold's
        ranker must not read a router whose lay rows hold a question it scores, and refitting the
        whole router per fold would need every law's statute words (the all-laws archive). The idf
        (document frequencies) stays the one the shipped router was fitted with, whose documents
        include its own training questions: a word's weight, not any question's law, comes from
        there. A question's law outside ``self.laws`` adds nothing."""
        lay = lay_rows(self.laws, [(analysed(text), gold) for text, gold in questions], self.vocab, self.idf)
        return LawRouter(self.laws, self.vocab, self.idf, self.statute, lay, self.lay_weight)

    def over(self, texts: Sequence[str], laws: Sequence[str]) -> np.ndarray:
        """(texts x ``laws``) each law's score, in the order of ``laws`` (the graph's); 0 for a law
        this router does not know."""
        cols = np.array([self.column.get(law, -1) for law in laws], dtype=np.int64)
        out = np.zeros((len(texts), len(laws)), dtype=np.float32)
        known = cols >= 0
        if len(texts) and known.any():
            out[:, known] = self.scores(texts)[:, cols[known]]
        return out

    def scores(self, texts: Sequence[str], laws: Iterable[str] | None = None) -> np.ndarray:
        """(texts x ``self.laws``) each law's score; laws outside ``laws`` (where given: the laws in
        the graph) get -inf."""
        statute, lay = self.cosines(texts)
        out = statute + self.lay_weight * lay
        if laws is not None:
            out[:, ~self.mask(tuple(laws))] = -np.inf
        return out

    def cosines(self, texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """(texts x ``self.laws``) each query's cosine with each law's statute row and lay row."""
        q = tfidf(counts(texts, self.vocab), self.idf)
        return (np.asarray((q @ self.statute_t).toarray(), dtype=np.float32),
                np.asarray((q @ self.lay_t).toarray(), dtype=np.float32))

    @cached_property
    def column(self) -> dict[str, int]:
        """Law -> its row, made once (``over`` asks for it on every query)."""
        return {law: j for j, law in enumerate(self.laws)}

    @cached_property
    def statute_t(self) -> sp.csr_matrix:
        """The statute rows transposed, as CSR, made once: ``q @ statute.T`` converts the transposed
        (CSC) matrix to CSR inside every product, the same matrix each time (as ``Corpus.weights_t``)."""
        return self.statute.T.tocsr()

    @cached_property
    def lay_t(self) -> sp.csr_matrix:
        """The lay rows transposed, as CSR, made once (``statute_t`` says why)."""
        return self.lay.T.tocsr()

    def mask(self, laws: tuple[str, ...]) -> np.ndarray:
        """A boolean row over ``self.laws``: True for the laws in ``laws`` (the last one kept)."""
        if getattr(self, "_mask_of", None) != laws:
            keep = np.zeros(len(self.laws), dtype=bool)
            keep[[self.column[law] for law in laws if law in self.column]] = True
            self._mask_of, self._mask = laws, keep
        return self._mask

    def top_laws(self, text: str, n: int = 20, laws: Iterable[str] | None = None) -> list[tuple[str, float]]:
        """The ``n`` best laws for ``text`` with their scores, best first (ties by id); laws with
        score 0 (no shared word) are left out."""
        s = self.scores([text], laws)[0]
        order = np.lexsort((np.arange(len(s)), -s))[:n]
        return [(self.laws[j], float(s[j])) for j in order if s[j] > 0]

    # -- the file ---------------------------------------------------------------------------
    def save(self, path: Path) -> Path:
        header = {"format": FORMAT, "version": FORMAT_VERSION, "laws": len(self.laws),
                  "lay_weight": self.lay_weight, "forms": list(FORMS)}
        arrays = {"header": np.frombuffer(json.dumps(header, sort_keys=True).encode("utf-8"), dtype=np.uint8),
                  "laws": pack_strings(self.laws), "idf": self.idf.astype(np.float32),
                  "vocab": pack_strings(sorted(self.vocab, key=self.vocab.__getitem__))}
        put_csr(arrays, "statute", self.statute, np.float16)
        put_csr(arrays, "lay", self.lay, np.float16)
        return write_arrays(path, arrays)

    @classmethod
    def load(cls, path: Path) -> LawRouter:
        with read_arrays(path, FORMAT, "law router", "rebuild it (eval/law-router-lay/README.md)") as (z, header):
            vocab = unpack_strings(z["vocab"])
            return cls(unpack_strings(z["laws"]), {w: i for i, w in enumerate(vocab)}, z["idf"].astype(np.float32),
                       get_csr(z, "statute"), get_csr(z, "lay"),
                       float(header.get("lay_weight", LAY_WEIGHT)))


@lru_cache(maxsize=1)
def shipped() -> LawRouter:
    """The shipped law router (``legalkg/data/law-router.npz``), loaded once per process; one line
    where the package lacks it (``taskfile.shipped_file``)."""
    return LawRouter.load(shipped_file(SHIPPED))
