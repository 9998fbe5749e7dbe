"""Deterministic context prefixes: the Gliederung breadcrumb and the § heading (pure).

Why: contextual retrieval (Anthropic 2024) prepends an LLM-written situating sentence. The
statute already carries that context for free: the chain Buch / Abschnitt / Titel / Untertitel
and the § title. The default prefix is therefore ``breadcrumb + § heading``; an LLM prefix is
optional (``research.chunking.llm``).
"""

from __future__ import annotations

from legalkg.model import Law, Level, Unit, para_human


def breadcrumb(units_by_id: dict[str, Unit], section_id: str) -> list[str]:
    """Gliederung chain above a §, outermost first: ['Buch 2: Recht der Schuldverhältnisse', ...]."""
    chain: list[str] = []
    unit = units_by_id.get(section_id)
    parent = units_by_id.get(unit.parent_id) if unit else None
    while parent is not None and parent.level == Level.GLIEDERUNG:
        name = " ".join(p for p in (parent.kind, parent.label) if p)
        chain.append(f"{name}: {parent.title}" if parent.title else name)
        parent = units_by_id.get(parent.parent_id)
    return chain[::-1]


def section_heading(unit: Unit) -> str:
    """'§ 433 Vertragstypische Pflichten beim Kaufvertrag'."""
    head = para_human(unit.citation.para or unit.label or "")
    return f"{head} {unit.title}".strip() if unit.title else head


def context_prefix(law: Law | dict[str, Unit], section_id: str) -> str:
    """Breadcrumb and § heading joined with ' > ' (the default contextual prefix)."""
    by_id = law.by_id() if isinstance(law, Law) else law
    parts = breadcrumb(by_id, section_id) + [section_heading(by_id[section_id])]
    return " > ".join(parts)
