"""Every § of the graph scored by its best Absatz: BM25 and static-vector cosine over passages,
aggregated to § by the maximum (pure, plus its cache file).

Why: a long § dilutes whole-text BM25 (``corpus.Corpus.bm25``); a lay question's words usually sit
in one Absatz, so a § whose one Absatz matches well can rank low over its whole text. The graph
components ``pbm25`` and ``pvec`` (``rankfeatures.PASSAGE_COMPONENTS``) score each § by its best
passage.

* Passages (``split``): a § text is its title line, then its text, whose Absätze start lines with
  "(1)", "(2)", ... (``units.unit_texts`` and ``cypher/retrieve/corpus_texts`` build the texts the
  same way). Each Absatz line, with the lines up to the next Absatz, is one passage; a § without
  Absatz marks is one passage. Every passage starts with the § title, since an Absatz is read under
  its heading and the title often holds the words a layperson uses. Absatz only, not Satz: a Satz
  is often a fragment ("Dies gilt nicht, wenn ...") whose words mean little alone.
* ``bm25``: ``textmatch.bm25_matrix`` (the formula, constants and tokens of ``gbm25``) over all
  passages (idf over passages); a §'s score is its best passage's.
* ``cosines``: the default static encoder's cosine of the query with each passage's vector (the
  corpus' encoder); a §'s score is its best passage's.

Built for the corpus' §§ (``ids`` in its order); about 40,000 passages for the 58 codes, so
``cached`` keeps them in ``$LEGALKG_CACHE/passages/<digest>.npz`` like the corpus.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from .cachefile import load_or_build
from .corpus import embedder, json_bytes, query_matrix
from .modelfile import get_csr, pack_strings, put_csr, read_arrays, unpack_strings, write_arrays
from .textmatch import bm25_matrix

FORMAT = "legalkg-passages"
FORMAT_VERSION = 1
#: A line that starts an Absatz: "(1)", "(2a)", ...
ABSATZ = re.compile(r"^\(\d+[a-z]?\)\s")


def split(text: str) -> list[str]:
    """The passages of a § text ("title\\ntext"): one per Absatz (a line starting "(n)" and the
    lines up to the next such line), each with the title line first; the whole text where no line
    starts an Absatz (a text of one line has no title)."""
    title, _, rest = text.partition("\n")
    if not rest:
        return [text]
    parts: list[list[str]] = []
    for line in rest.split("\n"):
        if ABSATZ.match(line) or not parts:
            parts.append([line])
        else:
            parts[-1].append(line)
    if len(parts) <= 1:
        return [text]
    return [f"{title}\n" + "\n".join(p) for p in parts]


@dataclass
class Passages:
    """The passages of ``ids`` (in order, each § at least one): ``starts[j]`` is §j's first passage,
    the BM25 weights and static vectors of all passages."""

    ids: list[str]
    starts: np.ndarray
    weights: sp.csr_matrix
    vocab: dict[str, int]
    vectors: np.ndarray

    @classmethod
    def build(cls, units: Mapping[str, str], ids: Sequence[str], vectors: bool = True) -> Passages:
        """The passages of the § texts of ``ids`` (``units``: id -> "title\\ntext")."""
        texts: list[str] = []
        starts = np.zeros(len(ids), dtype=np.int64)
        for j, uid in enumerate(ids):
            starts[j] = len(texts)
            texts.extend(split(units.get(uid, "")))
        weights, vocab = bm25_matrix(texts)
        vecs = (np.asarray(embedder().embed_documents(texts), dtype=np.float32) if vectors and texts
                else np.zeros((len(texts), 0), dtype=np.float32))
        return cls(list(ids), starts, weights, vocab, vecs)

    @cached_property
    def weights_t(self) -> sp.csr_matrix:
        return self.weights.T.tocsr()

    def best(self, scores: np.ndarray) -> np.ndarray:
        """(queries x ids) each §'s best passage score of (queries x passages) ``scores``."""
        if not len(self.ids):
            return np.zeros((scores.shape[0], 0), dtype=np.float32)
        return np.maximum.reduceat(scores, self.starts, axis=1).astype(np.float32)

    def bm25(self, texts: Sequence[str], compounds: bool = False) -> np.ndarray:
        """(texts x ids) each §'s best passage BM25 (``compounds``: as ``corpus.Corpus.bm25``)."""
        q = query_matrix(texts, self.vocab, compounds)
        return self.best(np.asarray((q @ self.weights_t).toarray(), dtype=np.float32))

    def cosines(self, texts: Sequence[str]) -> np.ndarray:
        """(texts x ids) each §'s best passage cosine with the query's static vector (0 for an empty
        query, NaN-free)."""
        texts = list(texts)
        out = np.zeros((len(texts), len(self.ids)), dtype=np.float32)
        have = [i for i, t in enumerate(texts) if t.strip()]
        if have and self.vectors.shape[1]:
            q = np.asarray(embedder().embed_queries([texts[i] for i in have]), dtype=np.float32)
            out[have] = self.best(q @ self.vectors.T)
        return out

    # -- the file ---------------------------------------------------------------------------
    def save(self, path: Path) -> Path:
        header = {"format": FORMAT, "version": FORMAT_VERSION, "n": len(self.ids)}
        arrays = {"header": np.frombuffer(json_bytes(header), dtype=np.uint8), "ids": pack_strings(self.ids),
                  "starts": self.starts, "vectors": self.vectors.astype(np.float32),
                  "vocab": pack_strings(sorted(self.vocab, key=self.vocab.__getitem__))}
        put_csr(arrays, "weights", self.weights)
        return write_arrays(path, arrays)

    @classmethod
    def load(cls, path: Path) -> Passages:
        with read_arrays(path, FORMAT, "passage cache", "delete it; the next search builds it anew") as (z, _h):
            vocab = unpack_strings(z["vocab"])
            return cls(unpack_strings(z["ids"]), z["starts"].astype(np.int64), get_csr(z, "weights"),
                       {w: i for i, w in enumerate(vocab)}, z["vectors"].astype(np.float32))


def digest(units: Mapping[str, str], ids: Sequence[str]) -> str:
    """sha256 of the § ids and texts the passages are built from, plus the format."""
    h = hashlib.sha256(f"{FORMAT}/{FORMAT_VERSION}\n".encode())
    for uid in ids:
        h.update(uid.encode("utf-8") + b"\0" + units.get(uid, "").encode("utf-8") + b"\0")
    return h.hexdigest()[:24]


def cached(units: Mapping[str, str], ids: Sequence[str], folder: Path) -> Passages:
    """The passages of ``ids``, from ``folder/<digest>.npz`` where an earlier call left them, else
    built and written there; an unreadable cache is rebuilt."""
    return load_or_build(folder / f"{digest(units, ids)}.npz", Passages.load, lambda: Passages.build(units, ids))
