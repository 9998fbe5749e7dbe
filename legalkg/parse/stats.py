"""Corpus statistics: node counts per level and per law, mean words per node per level.

The mean words per node of a level is the W of the paper's token-efficiency metric.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

from pydantic import BaseModel

from ..model import TEXT_LEVELS, Law, Level, word_count

if TYPE_CHECKING:  # pandas is imported by the two frame methods: `legalkg cite` parses without it
    import pandas as pd

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
        import pandas as pd

        cols = [lv.value for lv in LEVEL_ORDER]
        df = pd.DataFrame.from_dict(self.per_law, orient="index").reindex(columns=cols).fillna(0)
        return df.astype(int).sort_index()

    def per_level_frame(self) -> pd.DataFrame:
        import pandas as pd

        return pd.DataFrame([s.model_dump() for s in self.per_level]).set_index("level")


class LawStats(BaseModel):
    """Counts and word sums of one law: small enough to return from a parser process instead of
    the whole tree (shipping and rebuilding units cost the main process more than the parse)."""

    key: str
    units: int
    nodes: dict[str, int]  # level -> count
    words: dict[str, int]  # level -> sum of words


def law_stats(law: Law) -> LawStats:
    nodes: Counter[str] = Counter()
    words: Counter[str] = Counter()
    for u in law.units:
        lv = u.level.value
        nodes[lv] += 1
        words[lv] += word_count(u.text)
    return LawStats(key=law.key, units=len(law.units), nodes=dict(nodes), words=dict(words))


def corpus_stats(laws: Iterable[Law | LawStats]) -> CorpusStats:
    """Counts per level and per law and mean words per level (consumes ``laws`` once)."""
    nodes: Counter[str] = Counter()
    words: Counter[str] = Counter()
    per_law: dict[str, dict[str, int]] = {}
    n = 0
    for item in laws:
        one = item if isinstance(item, LawStats) else law_stats(item)
        n += 1
        nodes.update(one.nodes)
        words.update(one.words)
        per_law[one.key] = dict(one.nodes)
    per_level = []
    for lv in LEVEL_ORDER:
        c, w = nodes[lv.value], words[lv.value]
        per_level.append(LevelStats(level=lv.value, nodes=c, words=w,
                                    mean_words=round(w / c, 2) if c else 0.0))
    return CorpusStats(laws=n, per_level=per_level, per_law=per_law)
