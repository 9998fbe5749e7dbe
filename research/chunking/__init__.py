"""The chunking-strategy study on the BGB (issue 8): which way of cutting the code finds the right §§.

Reproduces and extends Prior, Milanova & Schultz, "Chunking German Legal Code" (ASAIL 2026) on the
graph: every strategy turns the BGB into indexed units (:StudyUnit nodes with one vector index per
strategy), every question runs the same pipeline (kNN top-100 units -> scores propagated to the
covered §§ -> top-10 distinct §§ -> Recall@10, and Recall@25 for the paper's ablation). See
docs/chunking-study.md; the committed run is in eval/chunking/.

Public API (every name here is in ``__all__``; tests/chunking/test_api.py imports each one)::

    from research.chunking import (AGGREGATIONS, BaseUnit, Builder, Comparison, Corpus, STRATEGIES,
                                  StudyConfig, StudyResult, breadcrumb, build_corpus,
                                  compare_to_reference, fixed_windows, lumber_boundary,
                                  lumber_groups, propagate, propositionize, recall_at, resolve,
                                  run_study, section_heading, top_sections, window_starts,
                                  write_report)
"""

from .aggregate import AGGREGATIONS, propagate, recall_at, top_sections
from .context import breadcrumb, section_heading
from .lumber import lumber_boundary, lumber_groups
from .propositions import propositionize
from .report import write_report
from .significance import Comparison, compare_to_reference
from .strategies import STRATEGIES, Builder, resolve
from .study import StudyConfig, StudyResult, run_study
from .units import BaseUnit, Corpus, build_corpus
from .windows import fixed_windows, window_starts

__all__ = [
    "AGGREGATIONS", "BaseUnit", "Builder", "Comparison", "Corpus", "STRATEGIES", "StudyConfig",
    "StudyResult", "breadcrumb", "build_corpus", "compare_to_reference", "fixed_windows",
    "lumber_boundary", "lumber_groups", "propagate", "propositionize", "recall_at", "resolve",
    "run_study", "section_heading", "top_sections", "window_starts", "write_report",
]
