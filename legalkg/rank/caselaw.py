"""Case-law prior: how often courts cite each §, counted from gold citation spans of decisions.

The counts come from the LER BGH decisions (gold GS spans parsed with the project grammar), not
from GerLayQA labels. That corpus is mostly criminal law and civil procedure (StGB/StPO/ZPO), so
for BGB it knows only the §§ the BGH cited there (docs/retrieval-quality.md says how many).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from ..cite import LawRegistry, extract
from .citations import paragraph_id


def count_span_citations(spans: Iterable[str], registry: LawRegistry | None = None) -> Counter:
    """Paragraph id -> number of citations in the given citation spans (pure)."""
    reg = registry or LawRegistry.default()
    counts: Counter = Counter()
    for span in spans:
        seen = set()
        for m in extract(span, registry=reg):
            if m.law_key and m.para:
                seen.add(paragraph_id(m.law_key, m.para))
        counts.update(seen)
    return counts


def load_ler_spans(path: Path) -> list[str]:
    """Every gold GS span text of the LER BGH JSONL file (I/O)."""
    spans: list[str] = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                spans.extend(n["text"] for n in json.loads(line)["norms"])
    return spans
