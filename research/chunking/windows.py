"""Fixed-size token windows across the whole code text (pure).

Tokens are whitespace-separated words (``str.split``): documented, model-independent, and the
unit the rest of legalkg counts in (``model.word_count``). The code is one token stream in
document order, so a window can bridge two §§ and then covers both.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple


class Window(NamedTuple):
    start: int  # first token index in the stream
    text: str
    sections: tuple[str, ...]  # covered §§ in order


def window_starts(n_tokens: int, size: int, overlap: int) -> list[int]:
    """Start offsets: stride = size - overlap; the last window reaches the end of the stream.

    ``n <= size`` gives one window; otherwise ``ceil((n - size) / stride) + 1`` windows.
    """
    if size <= 0 or overlap < 0 or overlap >= size:
        raise ValueError(f"need size > overlap >= 0, got size={size}, overlap={overlap}")
    if n_tokens <= 0:
        return []
    stride = size - overlap
    starts = [0]
    while starts[-1] + size < n_tokens:
        starts.append(starts[-1] + stride)
    return starts


def fixed_windows(texts: Sequence[tuple[str, str]], size: int, overlap: int) -> list[Window]:
    """Windows over ``texts`` = [(section id, text)] in document order."""
    tokens: list[str] = []
    owner: list[str] = []
    for section, text in texts:
        words = text.split()
        tokens.extend(words)
        owner.extend([section] * len(words))
    out = []
    for start in window_starts(len(tokens), size, overlap):
        end = min(start + size, len(tokens))
        out.append(Window(start, " ".join(tokens[start:end]), tuple(dict.fromkeys(owner[start:end]))))
    return out
