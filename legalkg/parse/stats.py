"""Corpus statistics: node counts per level and per law, mean words per node per level.

The mean words per node of a level is the W of the paper's token-efficiency metric.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable

import pandas as pd
from pydantic import BaseModel

from ..model import TEXT_LEVELS, Law, Level, word_count

LEVEL_ORDER = [Level.GLIEDERUNG, *TEXT_LEVELS]


class LevelStats(BaseModel):
    level: str
    nodes: int
    words: int
    mean_words: float


class CorpusStats(BaseModel):
    laws: int
    per_level: list[LevelStats]
    per_law: dict[str, dict[str, int]]  # law key -> level -> count

    def per_law_frame(self) -> pd.DataFrame:
        cols = [lv.value for lv in LEVEL_ORDER]
        df = pd.DataFrame.from_dict(self.per_law, orient="index").reindex(columns=cols).fillna(0)
        return df.astype(int).sort_index()

    def per_level_frame(self) -> pd.DataFrame:
        return pd.DataFrame([s.model_dump() for s in self.per_level]).set_index("level")


def corpus_stats(laws: Iterable[Law]) -> CorpusStats:
    """Counts per level and per law and mean words per level (consumes ``laws`` once)."""
    nodes: Counter[Level] = Counter()
    words: Counter[Level] = Counter()
    per_law: dict[str, dict[str, int]] = {}
    n = 0
    for law in laws:
        n += 1
        counts: dict[str, int] = defaultdict(int)
        for u in law.units:
            nodes[u.level] += 1
            words[u.level] += word_count(u.text)
            counts[u.level.value] += 1
        per_law[law.key] = dict(counts)
    per_level = [LevelStats(level=lv.value, nodes=nodes[lv], words=words[lv],
                            mean_words=round(words[lv] / nodes[lv], 2) if nodes[lv] else 0.0)
                 for lv in LEVEL_ORDER]
    return CorpusStats(laws=n, per_level=per_level, per_law=per_law)
