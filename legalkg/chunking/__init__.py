"""The chunking-strategy study on the BGB (issue 8): which way of cutting the code finds the right §§.

Reproduces and extends Prior, Milanova & Schultz, "Chunking German Legal Code" (ASAIL 2026) on the
graph: every strategy turns the BGB into indexed units (:StudyUnit nodes with one vector index per
strategy), every question runs the same pipeline (kNN top-100 units -> scores propagated to the
covered §§ -> top-10 distinct §§ -> Recall@10). See docs/chunking-study.md.

Public API::

    from legalkg.chunking import (base_units, propositionize, fixed_windows, breadcrumb,
                                  propagate, top_sections, recall_at, lumber_boundary,
                                  build_strategy, STRATEGIES, run_study)
"""

from .aggregate import AGGREGATIONS, propagate, recall_at, top_sections
from .context import breadcrumb, section_heading
from .lumber import lumber_boundary, lumber_groups
from .propositions import propositionize
from .units import BaseUnit, Corpus, build_corpus
from .windows import fixed_windows, window_starts

__all__ = [
    "AGGREGATIONS", "BaseUnit", "Corpus", "breadcrumb", "build_corpus", "fixed_windows",
    "lumber_boundary", "lumber_groups", "propagate", "propositionize", "recall_at",
    "section_heading", "top_sections", "window_starts",
]
