"""Word-budgeted context packs: the statute units to put into an LLM prompt (docs/context.md).

Public API::

    from legalkg.context import build_pack, ContextPack
    pack = build_pack(retriever, "Mein Vermieter gibt die Kaution nicht zurück", budget=1000)
    pack.model_dump()   # {"query", "budget", "units": [{"id", "citation", "text", "words", "why",
                        #                                "reason", "rank", "cited_by"}]}
    pack.words          # delivered words, never above the budget

The parts, for evaluation and reuse: ``gather`` (candidates from the learned engine),
``select_units`` (the pure choice over ready candidates) and ``render_markdown``.
"""

from .candidates import POOLS, Candidate, gather
from .markdown import render_markdown
from .pack import MAX_BUDGET, ContextPack, PackUnit, build_pack, check_budget, select_units

__all__ = ["MAX_BUDGET", "POOLS", "Candidate", "ContextPack", "PackUnit", "build_pack", "check_budget", "gather",
           "render_markdown", "select_units"]
