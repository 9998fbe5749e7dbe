"""The closed list of chunking strategies and their builders (units + vectors, no Neo4j).

Names are the only thing that reaches Cypher labels (``Study_<name>``), so they come from
:data:`STRATEGIES` and nothing else. Families:

- flat ``section``/``subsection``/``sentence``/``proposition``: one unit per base unit;
- ``fixed_<size>_<overlap>``: word windows across the whole code text;
- ``ctx_<base>``: breadcrumb > § heading prefix + base unit text (LLM prefix optional);
- ``cluster_<base>``: KMeans to ~1,000 clusters, pooled vector, covers all members' §§;
- ``lumber_<base>``: consecutive units up to a word budget, cut at the largest similarity drop;
- ``raptor_<base>``: collapsed RAPTOR tree (leaves + extractive summary nodes);
- ``lex_<flat>`` / ``fusion_<flat>``: German full-text index over the flat units, and RRF of
  vector + full-text section rankings (they reuse the flat strategy's nodes).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from pydantic import BaseModel

from legalkg.errors import UserError

from .lumber import lumber_groups
from .propositions import Item
from .tree import covered_sections, extractive_summary, kmeans_labels, pool, raptor_tree
from .units import Corpus
from .windows import fixed_windows

BASES = ("subsection", "sentence", "proposition")
FLAT = ("section",) + BASES
FIXED = ((16, 4), (32, 8), (64, 16), (128, 32), (256, 64))


class Spec(NamedTuple):
    name: str
    family: str  # flat | fixed | contextual | cluster | lumber | raptor | lexical | fusion
    base: str | None
    size: int = 0
    overlap: int = 0

    @property
    def label(self) -> str:
        """Neo4j label of the strategy's nodes (lexical/fusion share their flat strategy's)."""
        return f"Study_{self.base if self.family in ('lexical', 'fusion') else self.name}"

    @property
    def needs_vectors(self) -> bool:
        return self.family != "lexical"


def _specs() -> dict[str, Spec]:
    out = {b: Spec(b, "flat", b) for b in FLAT}
    out.update({f"fixed_{s}_{o}": Spec(f"fixed_{s}_{o}", "fixed", None, s, o) for s, o in FIXED})
    for fam, prefix in (("contextual", "ctx"), ("cluster", "cluster"), ("lumber", "lumber"),
                        ("raptor", "raptor")):
        out.update({f"{prefix}_{b}": Spec(f"{prefix}_{b}", fam, b) for b in BASES})
    for fam, prefix in (("lexical", "lex"), ("fusion", "fusion")):
        out.update({f"{prefix}_{b}": Spec(f"{prefix}_{b}", fam, b) for b in FLAT})
    return out


#: Every strategy the study knows, in report order.
STRATEGIES: dict[str, Spec] = _specs()
#: Strategies whose nodes live in the graph (lexical/fusion reuse the flat ones).
INDEXED: tuple[str, ...] = tuple(n for n, s in STRATEGIES.items() if s.family not in ("lexical", "fusion"))


def resolve(names: list[str] | tuple[str, ...] | None) -> list[Spec]:
    """Specs for user-given names ('all', families like 'fixed', or exact names)."""
    if not names or "all" in names:
        return list(STRATEGIES.values())
    picked: dict[str, Spec] = {}
    for raw in names:
        for name in (p.strip() for p in raw.split(",") if p.strip()):
            fam = [s for s in STRATEGIES.values() if s.family == name]
            if name in STRATEGIES:
                picked[name] = STRATEGIES[name]
            elif fam:
                picked.update({s.name: s for s in fam})
            else:
                raise UserError(f"unknown strategy {name!r}: choose from {', '.join(STRATEGIES)} "
                                "(or a family: flat, fixed, contextual, cluster, lumber, raptor, lexical, fusion, or all)")
    return [STRATEGIES[n] for n in STRATEGIES if n in picked]


class IndexUnit(NamedTuple):
    id: str
    text: str  # stored only for the full-text index / inspection; not counted as index size
    sections: tuple[str, ...]
    level: int = 0


class Built(BaseModel):
    """A strategy's units and vectors plus the seconds its build took (excluding Neo4j writes)."""

    model_config = {"arbitrary_types_allowed": True}
    name: str
    units: list[IndexUnit]
    vectors: np.ndarray | None
    seconds: float
    n_embedded: int = 0


EmbedFn = Callable[[list[str]], tuple[np.ndarray, float, int]]  # -> (vectors, seconds, n_embedded)


class Hooks(NamedTuple):
    """Optional LLM replacements (None = deterministic default). ``propositions`` is read when the
    corpus is built (``units.build_corpus``), the others by the builder."""

    propositions: Callable[[str, tuple[Item, ...]], list[str]] | None = None  # (Satz text, items)
    prefix: Callable[[str, str], str] | None = None  # (section text, unit text) -> prefix
    summary: Callable[[list[str]], str] | None = None
    boundary: Callable[[list[str]], int] | None = None


NO_HOOKS = Hooks()


class Builder:
    """Builds strategies over one corpus, embedding each distinct base-unit list once per run."""

    def __init__(self, corpus: Corpus, embed: EmbedFn, *, n_clusters: int = 1000,
                 lumber_budget: int = 128, raptor_branching: int = 10, seed: int = 0,
                 hooks: Hooks = NO_HOOKS):
        self.corpus, self.embed = corpus, embed
        self.n_clusters, self.lumber_budget = n_clusters, lumber_budget
        self.branching, self.seed, self.hooks = raptor_branching, seed, hooks
        self._base: dict[str, tuple[np.ndarray, float, int]] = {}

    def base_vectors(self, base: str) -> tuple[np.ndarray, float, int]:
        """Vectors of a base unit list and the seconds it took the first time (charged to every
        strategy built on them, because each would have to embed them on its own)."""
        if base not in self._base:
            self._base[base] = self.embed([u.text for u in self.corpus.base(base)])
        return self._base[base]

    def build(self, spec: Spec) -> Built:
        started = time.perf_counter()
        had_base = spec.base in self._base
        extra, n_emb = 0.0, 0
        units: list[IndexUnit]
        vecs: np.ndarray | None
        corpus = self.corpus
        if spec.family in ("flat", "lexical", "fusion"):
            base = corpus.base(spec.base)
            units = [IndexUnit(u.id, u.text, (u.section,)) for u in base]
            if spec.family == "lexical":
                vecs = None
            else:
                vecs, extra, n_emb = self.base_vectors(spec.base)
        elif spec.family == "fixed":
            wins = fixed_windows([(s.section, s.text) for s in corpus.sections], spec.size, spec.overlap)
            units = [IndexUnit(f"{corpus.law}/W{spec.size}_{spec.overlap}/{i}", w.text, w.sections)
                     for i, w in enumerate(wins)]
            vecs, extra, n_emb = self.embed([u.text for u in units])
        elif spec.family == "contextual":
            base = corpus.base(spec.base)
            sec_text = {s.section: s.text for s in corpus.sections}
            texts = []
            for u in base:
                prefix = (self.hooks.prefix(sec_text[u.section], u.text) if self.hooks.prefix
                          else corpus.prefixes[u.section])
                texts.append(f"{prefix}\n{u.text}")
            units = [IndexUnit(f"{u.id}#ctx", t, (u.section,)) for u, t in zip(base, texts)]
            vecs, extra, n_emb = self.embed(texts)
        elif spec.family == "cluster":
            base = corpus.base(spec.base)
            bvec, extra, n_emb = self.base_vectors(spec.base)
            labels = kmeans_labels(bvec, min(self.n_clusters, max(1, len(base) // 2)), seed=self.seed)
            vecs, members = pool(bvec, labels)
            sections = [u.section for u in base]
            units = [IndexUnit(f"{corpus.law}/C_{spec.base}/{i}", "", covered_sections(m, sections))
                     for i, m in enumerate(members)]
        elif spec.family == "lumber":
            base = corpus.base(spec.base)
            bvec, extra, n_emb = self.base_vectors(spec.base)
            texts = [u.text for u in base]
            hook = self.hooks.boundary
            boundary = (lambda start, end: hook(texts[start:end])) if hook else None
            groups = lumber_groups([len(t.split()) for t in texts], bvec, self.lumber_budget, boundary)
            sections = [u.section for u in base]
            units = [IndexUnit(f"{corpus.law}/L_{spec.base}/{i}", " ".join(texts[a:b]),
                               covered_sections(range(a, b), sections)) for i, (a, b) in enumerate(groups)]
            vecs, e2, n2 = self.embed([u.text for u in units])
            extra, n_emb = extra + e2, n_emb + n2
        elif spec.family == "raptor":
            base = corpus.base(spec.base)
            bvec, extra, n_emb = self.base_vectors(spec.base)
            nodes, node_vecs = raptor_tree(bvec, self.branching, seed=self.seed)
            texts = [u.text for u in base]
            sections = [u.section for u in base]
            units, summaries = [], []
            for i, node in enumerate(nodes):
                if node.level == 0:
                    u = base[node.leaves[0]]
                    units.append(IndexUnit(u.id, u.text, (u.section,), 0))
                else:
                    text = (self.hooks.summary([texts[j] for j in node.leaves[:50]]) if self.hooks.summary
                            else extractive_summary(bvec, texts, node.leaves))
                    summaries.append(i)
                    units.append(IndexUnit(f"{corpus.law}/R_{spec.base}/{i}", text,
                                           covered_sections(node.leaves, sections), node.level))
            vecs = node_vecs.copy()
            if summaries:
                svec, e2, n2 = self.embed([units[i].text for i in summaries])
                vecs[summaries] = svec
                extra, n_emb = extra + e2, n_emb + n2
        else:  # pragma: no cover - the enum is closed
            raise ValueError(spec.family)
        own = time.perf_counter() - started
        # base vectors embedded by an earlier strategy of this run are charged to this one too:
        # built alone it would have had to embed them itself
        uses_base = spec.family in ("flat", "fusion", "cluster", "lumber", "raptor")
        charge = self._base[spec.base][1] if uses_base and had_base else 0.0
        return Built(name=spec.name, units=units, vectors=vecs, seconds=own + charge, n_embedded=n_emb)
