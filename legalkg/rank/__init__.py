"""Ranking BGB §§ for laypeople's questions: query citations, graph and case-law priors,
long-question windows and a learned fusion (numbers in docs/retrieval-quality.md).

Public API::

    from legalkg.rank import rank, Ranker, RankedHit, Components
    hits = rank("Mein Vermieter kündigt wegen Eigenbedarf ...", k=10, explain=True)
    hits[0].id, hits[0].citation, hits[0].score, hits[0].contributions  # per component

``Ranker.default()`` loads the shipped model (``legalkg/data/rank_model.json``) and the cached
BGB indexes; ``Ranker.rank_vectors(question, vecs)`` ranks with precomputed query vectors.
Train: ``legalkg rank-train --out legalkg/data/rank_model.json`` (``legalkg.cli.rank``).
"""

from .citations import cited_paragraphs
from .features import COMPONENT_FEATURES, FEATURES, Components, QueryVectors, build_features
from .graph import ParaGraph, build_graph, hop_candidates, in_degree, paragraph_of
from .model import RankModel, load_model
from .ranker import RankedHit, Ranker, embed_query, rank
from .text import split_question, title_line, tokenize

__all__ = ["COMPONENT_FEATURES", "FEATURES", "Components", "ParaGraph", "QueryVectors",
           "RankModel", "RankedHit", "Ranker", "build_features", "build_graph",
           "cited_paragraphs", "embed_query", "hop_candidates", "in_degree", "load_model",
           "paragraph_of", "rank", "split_question", "title_line", "tokenize"]
