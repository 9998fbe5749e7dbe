"""The support score (pure): how well the sentence that cites a unit matches the unit's text.

A citation can exist and still be wrong: "§ 433 BGB" under a sentence about the landlord's
deposit. The score puts a lexical and a vector match side by side, because each misses what the
other sees: the lexical part needs the same words (stems, ``legalkg.predict.text.tokens``, the
analyser the predictor uses), the vector part catches paraphrase. The sentence is masked of its
citations first, so a number never supports itself.

The weight and the threshold were chosen on data, not by hand: ``benchmarks/verify_support.py``
picks both on LER BGH (real citing sentence with its unit against the same sentence with a random
other unit of the same law) and reports the AUC on ``ler_courts`` dev; docs/verify.md has the run.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np

from ..predict.text import tokens

#: Share of the vector part in the support score (``benchmarks/verify_support.py``, docs/verify.md).
VECTOR_WEIGHT = 0.1
#: A score at or above this counts as supported (Youden's J on LER BGH, docs/verify.md).
SUPPORT_THRESHOLD = 0.0743


def unit_words(paragraph_title: str | None, text: str) -> str:
    """What a unit is matched against: its §'s title and its own text. The title names the
    subject in the words a court uses ("Rechte des Käufers bei Mängeln"), and it raised the AUC
    (docs/verify.md)."""
    return f"{paragraph_title} {text}" if paragraph_title else text


def stems(text: str) -> frozenset[str]:
    return frozenset(tokens(text))


def lexical(sentence: Iterable[str] | str, unit: Iterable[str] | str) -> float:
    """Cosine of the two stem sets: shared stems over the geometric mean of the set sizes, so a
    long § does not win by holding every word, and a short sentence is not drowned."""
    s = stems(sentence) if isinstance(sentence, str) else frozenset(sentence)
    u = stems(unit) if isinstance(unit, str) else frozenset(unit)
    if not s or not u:
        return 0.0
    return len(s & u) / math.sqrt(len(s) * len(u))


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    na, nb = float(np.linalg.norm(a)), float(np.linalg.norm(b))
    if na == 0.0 or nb == 0.0:
        return 0.0
    return float(np.dot(a, b) / (na * nb))


def combine(lex: float, vec: float | None, vector_weight: float = VECTOR_WEIGHT) -> float:
    """The support score: the weighted mean of both parts, or the lexical part alone where the
    unit has no vector (a graph loaded without embeddings)."""
    if vec is None:
        return lex
    return (1.0 - vector_weight) * lex + vector_weight * vec
