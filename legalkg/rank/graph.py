"""Graph prior and citation-hop recall over the CITES_* graph, reduced to §-to-§ edges (pure).

Why: the general clauses that laypeople's questions need (§ 280, § 242, § 823, § 249 BGB) are
rarely similar to the question's words, but many specific §§ cite them (§§ 281-283, 311a, 437 all
lead to § 280). So (a) how often a § is cited is a prior for it being relevant at all, and (b) a §
cited by several of the top hits of a question is a candidate even if similarity missed it.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence

import networkx as nx
from pydantic import BaseModel, Field


def paragraph_of(node_id: str) -> str | None:
    """The Paragraph id that a unit id lies in ('BGB/§573/Abs2/S1' -> 'BGB/§573'), or None."""
    parts = node_id.split("/")
    for i, seg in enumerate(parts[1:], start=1):
        if seg.startswith(("§", "Art", "Anl")):
            return "/".join(parts[: i + 1])
    return None


class ParaGraph(BaseModel):
    """Distinct § -> § citation pairs (self-citations dropped) and the scores derived from them."""

    out_links: dict[str, list[str]] = Field(default_factory=dict)
    in_degree: dict[str, int] = Field(default_factory=dict)
    pagerank: dict[str, float] = Field(default_factory=dict)

    def log_in_degree(self, pid: str) -> float:
        return math.log1p(self.in_degree.get(pid, 0))

    def scaled_pagerank(self, pid: str) -> float:
        """PageRank times the number of nodes (1.0 = average), log1p-scaled."""
        n = max(1, len(self.pagerank))
        return math.log1p(self.pagerank.get(pid, 0.0) * n)


def paragraph_pairs(edges: Iterable[tuple[str, str]]) -> set[tuple[str, str]]:
    """Unit-level (source, target) edges -> distinct (source §, target §) pairs, no self loops."""
    pairs: set[tuple[str, str]] = set()
    for src, dst in edges:
        a, b = paragraph_of(src), paragraph_of(dst)
        if a and b and a != b:
            pairs.add((a, b))
    return pairs


def in_degree(pairs: Iterable[tuple[str, str]]) -> dict[str, int]:
    """How many distinct §§ cite each § (the same number the Neo4j path computes)."""
    out: dict[str, int] = defaultdict(int)
    for _a, b in pairs:
        out[b] += 1
    return dict(out)


def build_graph(edges: Iterable[tuple[str, str]], nodes: Iterable[str] = ()) -> ParaGraph:
    """The § graph with in-degree and PageRank (networkx, damping 0.85)."""
    pairs = paragraph_pairs(edges)
    g = nx.DiGraph()
    g.add_nodes_from(nodes)
    g.add_edges_from(pairs)
    pr = nx.pagerank(g, alpha=0.85) if g.number_of_nodes() else {}
    out: dict[str, list[str]] = defaultdict(list)
    for a, b in sorted(pairs):
        out[a].append(b)
    return ParaGraph(out_links=dict(out), in_degree=in_degree(pairs),
                     pagerank={k: float(v) for k, v in pr.items()})


def hop_candidates(hits: Sequence[str], graph: ParaGraph, min_sources: int = 2) -> dict[str, int]:
    """§§ cited by at least ``min_sources`` of ``hits`` -> how many hits cite them.

    A § that is itself among the hits still gets its count (it is a feature, not only recall).
    """
    counts: dict[str, int] = defaultdict(int)
    for h in dict.fromkeys(hits):
        for t in graph.out_links.get(h, ()):
            counts[t] += 1
    return {t: c for t, c in counts.items() if c >= min_sources}
