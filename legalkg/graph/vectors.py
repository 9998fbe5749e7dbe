"""Embed every level's nodes into per-level Neo4j vector indexes, one model per index.

Why one ``:EmbeddingModel`` node per index: vectors of two models are not comparable, so the graph
records which model filled each index and refuses a run with another model unless ``--reembed``
asks to replace them. All texts of all levels are embedded in one pass so a text that appears at
several levels (a one-sentence § is § = Absatz = Satz) is embedded once; the on-disk content-hash
cache makes a re-ingest with unchanged text embed nothing.
"""

from __future__ import annotations

import time

import numpy as np
from neo4j import Driver
from pydantic import BaseModel, Field

from ..embed import Embedder, embed_texts, get_embedder
from ..errors import UserError
from ..model import TEXT_LEVELS
from ..vocab import RetrievalLevel
from .cypher import labelled, query

#: Labels with a vector index: the text levels and the naive chunks.
VECTOR_LABELS: tuple[str, ...] = tuple(lvl.value for lvl in TEXT_LEVELS) + (RetrievalLevel.CHUNK.value,)
WRITE_BATCH = 2000
#: At least this many new vectors for one index: write them with the index dropped and build it
#: afterwards. Vectors written into a live index arrive as many small Lucene segments (39 for the
#: 77k Satz vectors of the dev ingest), and a kNN query searches every segment's HNSW graph; an
#: index built by one population pass over the written vectors has far fewer (16), so queries are
#: faster (benchmarks/retrieval_latency.py, docs/benchmarks/retrieval.md).
BULK_REBUILD = 5000


def index_name(label: str) -> str:
    return f"vector_{label}"


class EmbedReport(BaseModel):
    model: str
    dim: int
    written: dict[str, int] = Field(default_factory=dict)
    n_texts: int = 0
    n_distinct: int = 0
    n_embedded: int = 0
    n_cached: int = 0
    seconds: float = 0.0

    def summary(self) -> str:
        total = sum(self.written.values())
        rate = self.n_embedded / self.seconds if self.seconds else 0.0
        return (f"embeddings ({self.model}, {self.dim}-d): {total:,} vectors written; "
                f"{self.n_texts:,} texts, {self.n_distinct:,} distinct, {self.n_embedded:,} embedded, "
                f"{self.n_cached:,} from cache in {self.seconds:.1f} s ({rate:,.0f} texts/s)")


def check_model(driver: Driver, db: str, label: str, embedder: Embedder, reembed: bool) -> None:
    """Refuse to mix models in one index; with ``reembed`` clear the old vectors first."""
    rec = driver.execute_query(query("vectors/model_get"), {"index": index_name(label)},
                               database_=db).records[0]
    if rec["name"] is None:
        return
    if rec["version"] == embedder.version and rec["dim"] == embedder.dim:
        return
    if not reembed:
        raise UserError(
            f"the {label} vectors in the graph were made with '{rec['name']}' ({rec['dim']}-d), this run "
            f"uses '{embedder.name}' ({embedder.dim}-d): pass --reembed to replace them, "
            f"or --model {rec['name']} to keep them")
    driver.execute_query(labelled("vectors/drop_index", label=label), database_=db)
    with driver.session(database=db) as session:
        session.run(labelled("vectors/clear", label=label)).consume()
    driver.execute_query(query("vectors/model_delete"), {"index": index_name(label)}, database_=db)


def recorded_model(driver: Driver, db: str, label: str) -> dict | None:
    rec = driver.execute_query(query("vectors/model_get"), {"index": index_name(label)},
                               database_=db).records[0]
    return rec.data() if rec["name"] is not None else None


def embed_graph(driver: Driver, db: str, model: str | Embedder | None = None, reembed: bool = False,
                progress: bool = True, labels: tuple[str, ...] = VECTOR_LABELS) -> EmbedReport:
    started = time.perf_counter()
    embedder = model if isinstance(model, Embedder) else get_embedder(model)
    for label in labels:
        check_model(driver, db, label, embedder, reembed)
    pending: list[tuple[str, str, str]] = []  # (label, id, text)
    for label in labels:
        for rec in driver.execute_query(labelled("vectors/pending", label=label), database_=db).records:
            pending.append((label, rec["id"], rec["text"]))
    report = EmbedReport(model=embedder.name, dim=embedder.dim)
    if pending:
        result = embed_texts(embedder, [t for _, _, t in pending], progress=progress)
        stats = result.stats
        report.n_texts, report.n_distinct = stats.n_texts, stats.n_distinct
        report.n_embedded, report.n_cached = stats.n_embedded, stats.n_cached
        vectors: np.ndarray = result.vectors
    for label in labels:
        rows = [{"id": pid, "vec": vectors[i].tolist()}
                for i, (lab, pid, _) in enumerate(pending) if lab == label]
        bulk = len(rows) >= BULK_REBUILD
        create = labelled("vectors/create_index", label=label)
        if bulk:  # searches of this level fail until the index is back ONLINE (awaited below)
            driver.execute_query(labelled("vectors/drop_index", label=label), database_=db)
        else:
            driver.execute_query(create, {"dim": embedder.dim}, database_=db)
        driver.execute_query(query("vectors/model_set"), {
            "index": index_name(label), "level": label, "name": embedder.name,
            "version": embedder.version, "dim": embedder.dim}, database_=db)
        q = labelled("vectors/write", label=label)
        for start in range(0, len(rows), WRITE_BATCH):
            driver.execute_query(q, {"rows": rows[start:start + WRITE_BATCH]}, database_=db)
        if bulk:
            driver.execute_query(create, {"dim": embedder.dim}, database_=db)
        report.written[label] = len(rows)
    driver.execute_query(query("await_indexes"), {"seconds": 600}, database_=db)
    report.seconds = time.perf_counter() - started
    return report
