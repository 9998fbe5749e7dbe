"""Query citations: statute units the question names itself ("nach § 573 BGB").

213 of 2,154 GerLayQA dev questions name a § themselves; the grammar in :mod:`legalkg.cite`
finds them, and a bare "§ 573" in a BGB question means BGB (``default_law``).
"""

from __future__ import annotations

import re
from collections.abc import Container
from functools import lru_cache

from ..cite import LawRegistry, extract

_MAY_CITE = re.compile(r"§|\bArt\b|\bArtikel\b", re.IGNORECASE)


@lru_cache(maxsize=1)
def _registry() -> LawRegistry:
    return LawRegistry.default()


def paragraph_id(law_key: str, para: str) -> str:
    """'BGB', '§573' -> 'BGB/§573' (the model id of a Paragraph)."""
    return f"{law_key}/{para}"


def cited_paragraphs(question: str, default_law: str = "BGB",
                     known_ids: Container[str] | None = None,
                     registry: LawRegistry | None = None) -> dict[str, int]:
    """Paragraph ids the question cites -> how often, in first-seen order.

    Only § / Art units with a resolved law count; ``known_ids`` (when given) drops ids that are
    not in the corpus (repealed or other laws).
    """
    out: dict[str, int] = {}
    if not _MAY_CITE.search(question):
        return out  # the grammar needs a § or Art. sign: most questions have none, skip the scan
    for m in extract(question, default_law=default_law, registry=registry or _registry()):
        if not m.law_key or not m.para:
            continue
        pid = paragraph_id(m.law_key, m.para)
        if known_ids is not None and pid not in known_ids:
            continue
        out[pid] = out.get(pid, 0) + 1
    return out
