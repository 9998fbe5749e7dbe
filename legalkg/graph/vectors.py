"""Embed every level's pending nodes into per-level Neo4j vector indexes, one model per index.

Why one ``:EmbeddingModel`` node per index: vectors of two models are not comparable, so the graph
records which model filled each index and refuses a run with another model unless ``--reembed``
asks to replace them.

Why pages: the pending ids are read once (in id order), their texts a page at a time, and each
page's vectors go to the content-hash cache and then into the graph before the run moves on
(``legalkg.embed.parallel``), so memory stays bounded on all laws and a killed run resumes where
it stopped: the next run's pending nodes are the unwritten ones, and the cache serves what was
embedded but not written. A text that recurs at several levels (a one-sentence § is § = Absatz =
Satz) is embedded once per run and then served by the cache.
"""

from __future__ import annotations

import os
import time

from neo4j import Driver
from pydantic import BaseModel, Field
from tqdm.auto import tqdm

from .. import codes as codes_mod, embed as embedding
from ..embed import MODEL_ENV, Embedder, EmbeddingCache, EmbedSettings, resolve_model_name
from ..errors import UserError
from ..model import TEXT_LEVELS
from ..vocab import RetrievalLevel
from .cypher import labelled, query
from .indexwait import await_vector_indexes

#: Labels with a vector index: the text levels and the naive chunks.
VECTOR_LABELS: tuple[str, ...] = tuple(lvl.value for lvl in TEXT_LEVELS) + (RetrievalLevel.CHUNK.value,)
#: Nodes per page: one text read, one cache transaction and one vector write each.
PAGE = 1024
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
    batches: int = 0
    workers: int = 1
    seconds: float = 0.0
    #: Of ``seconds``: the wait for the vector indexes to populate after a bulk write.
    index_wait_s: float = 0.0

    def summary(self) -> str:
        total = sum(self.written.values())
        rate = self.n_embedded / self.seconds if self.seconds else 0.0
        return (f"embeddings ({self.model}, {self.dim}-d): {total:,} vectors written; "
                f"{self.n_texts:,} texts, {self.n_distinct:,} distinct, {self.n_embedded:,} embedded, "
                f"{self.n_cached:,} from cache in {self.seconds:.1f} s ({rate:,.0f} texts/s, "
                f"{self.workers} worker{'s' if self.workers != 1 else ''}; "
                f"{self.index_wait_s:.1f} s of it waiting for the vector indexes)")


def check_model(driver: Driver, db: str, label: str, embedder: Embedder, reembed: bool) -> None:
    """Refuse to mix models in one index; with ``reembed`` clear the old vectors first."""
    rec = driver.execute_query(query("vectors/model_get"), {"index": index_name(label)},
                               database_=db).records[0]
    if rec["name"] is None:
        # No model named: any index left (a wiped graph keeps its indexes) may have another size, and
        # Neo4j silently leaves vectors of another size out of it; it is rebuilt at this run's size.
        driver.execute_query(labelled("vectors/drop_index", label=label), database_=db)
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


def graph_model(driver: Driver, db: str, labels: tuple[str, ...]) -> str | None:
    """The one model the graph's vectors of ``labels`` were made with, or None where none has a
    record: a run without ``--model`` keeps it, so a graph made with an older default keeps working.
    Levels made with different models are one line, as one run writes with one model."""
    names = {label: rec["name"] for label in labels if (rec := recorded_model(driver, db, label))}
    if len(set(names.values())) > 1:
        made = ", ".join(f"{label} {name}" for label, name in names.items())
        raise UserError(f"the graph's vectors were made with different models ({made}): pass --model with "
                        "--levels naming the levels of that model, or --model NAME --reembed to replace them all")
    return next(iter(names.values()), None)


def run_model(driver: Driver, db: str, labels: tuple[str, ...], model: str | None) -> str:
    """The model name of an embedding run: ``model``, else ``$LEGALKG_MODEL``, else the graph's
    record for ``labels``, else the default (``resolve_model_name``)."""
    chosen = (model or "").strip() or os.environ.get(MODEL_ENV, "").strip()
    return resolve_model_name(model, None if chosen else graph_model(driver, db, labels))


def parse_levels(spec: str | None) -> tuple[str, ...]:
    """``--levels``: None/``all`` -> every vector label; ``Paragraph,Satz`` -> those (any case)."""
    if spec is None or spec.strip().lower() in ("", "all"):
        return VECTOR_LABELS
    by_name = {label.lower(): label for label in VECTOR_LABELS}
    chosen: list[str] = []
    for part in (p.strip() for p in spec.split(",")):
        if not part:
            continue
        label = by_name.get(part.lower())
        if label is None:
            raise UserError(f"unknown level {part!r} in --levels: choose from {', '.join(VECTOR_LABELS)} or all")
        if label not in chosen:
            chosen.append(label)
    if not chosen:
        raise UserError(f"--levels is empty: choose from {', '.join(VECTOR_LABELS)} or all")
    return tuple(chosen)


def law_ids(driver: Driver, db: str, codes_spec: str | None, option: str = "--codes") -> list[str] | None:
    """``--codes`` (or another ``option`` naming laws) as the graph's law ids: ``all`` -> None
    (every law); ``default`` -> those of the 58 codes that are loaded; a list -> each name (id,
    jurabk, amtabk or gii slug), which must be loaded (one line names the ones that are not)."""
    if codes_spec is None or codes_spec.strip().lower() == "all":
        return None
    if codes_spec.strip().lower() == "default":
        wanted = {slug: [slug] for slug in codes_mod.resolve_codes("default") or []}
    else:
        wanted = {}
        for name in (p.strip() for p in codes_spec.split(",")):
            info = codes_mod.find_code(name) if name else None
            if name:
                wanted[name] = [name.lower()] + ([info.slug.lower()] if info else [])
        if not wanted:
            raise UserError(f"{option} is empty: use 'default', 'all' or a list such as 'BGB,ZPO'")
    names = sorted({n for alts in wanted.values() for n in alts})
    recs = driver.execute_query(query("vectors/law_ids"), {"names": names}, database_=db).records
    found = {r["name"]: r["ids"] for r in recs}
    if codes_spec.strip().lower() != "default":
        missing = [name for name, alts in wanted.items() if not any(found.get(a) for a in alts)]
        if missing:
            raise UserError(f"not in the graph: {', '.join(missing)} ({option} names loaded laws; "
                            "`legalkg stats` counts them, `legalkg ingest --codes ...` loads more)")
    return sorted({i for ids in found.values() for i in ids})


def pending_ids(driver: Driver, db: str, label: str, laws: list[str] | None) -> list[str]:
    recs = driver.execute_query(labelled("vectors/pending_ids", label=label), {"laws": laws},
                                database_=db).records
    return [r["id"] for r in recs]


def text_pages(driver: Driver, db: str, pending: dict[str, list[str]], size: int = PAGE):
    """``((label, ids), texts)`` per page of pending nodes, read as the pipeline asks for them."""
    for label, ids in pending.items():
        q = labelled("vectors/texts", label=label)
        for start in range(0, len(ids), size):
            recs = driver.execute_query(q, {"ids": ids[start:start + size]}, database_=db).records
            found = [(r["id"], r["text"]) for r in recs if r["text"] and r["text"].strip()]
            yield (label, [i for i, _ in found]), [t for _, t in found]


def build_finished(driver: Driver, db: str, bulk: set[str], order: tuple[str, ...], current: str | None,
                   dim: int) -> None:
    """Create the dropped index of every bulk level whose vectors are all written: the levels
    before ``current`` in ``order`` (pages come level by level, in that order), or all when None.

    Why as soon as a level is done and not at the end: Neo4j populates an index in the
    background, so the § and Absatz indexes fill (and ``legalkg search`` works on them) while the
    finer levels are still being embedded. ``bulk`` loses the levels it builds.
    """
    done = [label for label in order if label in bulk
            and (current is None or order.index(label) < order.index(current))]
    for label in done:
        driver.execute_query(labelled("vectors/create_index", label=label), {"dim": dim}, database_=db)
        bulk.discard(label)


#: a run with every embedding choice left at its default
DEFAULT_SETTINGS = EmbedSettings()


def embed_graph(driver: Driver, db: str, settings: EmbedSettings = DEFAULT_SETTINGS, *,
                labels: tuple[str, ...] = VECTOR_LABELS, laws: list[str] | None = None, workers: int = 1,
                progress: bool = True, cache: EmbeddingCache | None = None) -> EmbedReport:
    """Embed the pending nodes of ``labels`` (of ``laws``, default all) and write their vectors.

    ``settings.model`` None: ``$LEGALKG_MODEL``, else the model recorded for ``labels``
    (``graph_model``), else the default. ``workers`` > 1 runs the model in that many processes
    (``legalkg.embed.parallel``; a GPU model runs in this process). ``settings.fresh`` ignores vectors
    cached before this run. ``cache``: default the model's cache under ``paths.cache_dir()``.
    """
    started = time.perf_counter()
    embedder, spec, workers = _embedder_for(driver, db, settings, labels, workers)
    for label in labels:
        check_model(driver, db, label, embedder, settings.reembed)
    pending = {label: pending_ids(driver, db, label, laws) for label in labels}
    report = EmbedReport(model=embedder.name, dim=embedder.dim, workers=workers)
    bulk = _open_indexes(driver, db, labels, pending, embedder, report)
    total = sum(len(ids) for ids in pending.values())
    own_cache = cache is None
    store = EmbeddingCache.for_embedder(embedder) if own_cache else cache
    try:
        if total:
            size = int(settings.batch_size or embedder.default_batch_size)
            with embedding.embed_pool(spec, embedder, workers) as pool, tqdm(
                    total=total, unit="text", desc=f"embedding ({embedder.name}, {workers} worker"
                    f"{'s' if workers != 1 else ''})", disable=not progress, smoothing=0.1) as bar:
                pipeline = embedding.PageEmbedder(pool, store, batch_size=size, sort_by_length=embedder.sort_by_length,
                                        fresh=settings.fresh)
                for (label, ids), vectors in pipeline.run(text_pages(driver, db, pending, max(PAGE, 2 * size))):
                    build_finished(driver, db, bulk, labels, label, embedder.dim)
                    bar.update(_write_page(driver, db, label, ids, vectors, report))
            counts = pipeline.counts
            report.n_texts, report.n_distinct = counts.n_texts, counts.n_distinct
            report.n_embedded, report.n_cached, report.batches = counts.n_embedded, counts.n_cached, counts.batches
    finally:
        if own_cache:
            store.close()
    build_finished(driver, db, bulk, labels, None, embedder.dim)
    report.index_wait_s = await_vector_indexes(driver, db)
    report.seconds = time.perf_counter() - started
    return report


def _embedder_for(driver: Driver, db: str, settings: EmbedSettings, labels: tuple[str, ...],
                  workers: int) -> tuple[Embedder, embedding.EmbedderSpec, int]:
    """The run's embedder, the spec worker processes build it from, and the worker count, which is
    1 where the model runs in this process (on a GPU)."""
    # the worker pool's module loads here, on first use (legalkg.embed's face): a search never needs it
    spec = embedding.EmbedderSpec(run_model(driver, db, labels, settings.model), settings.device, settings.batch_size)
    embedder = spec.build(threads=None if spec.is_st else 1)
    if getattr(embedder, "device", "cpu") != "cpu":
        workers = 1  # one process owns the GPU; its batches are large instead
    return embedder, spec, workers


def _open_indexes(driver: Driver, db: str, labels: tuple[str, ...], pending: dict[str, list[str]],
                  embedder: Embedder, report: EmbedReport) -> set[str]:
    """Per level: drop its index where many vectors are pending (the bulk levels, returned; built
    again by ``build_finished``), else create it, and record the run's model for it."""
    bulk = {label for label, ids in pending.items() if len(ids) >= BULK_REBUILD}
    for label in labels:
        if label in bulk:  # searches of this level fail until the index is back ONLINE (awaited below)
            driver.execute_query(labelled("vectors/drop_index", label=label), database_=db)
        else:
            driver.execute_query(labelled("vectors/create_index", label=label), {"dim": embedder.dim},
                                 database_=db)
        driver.execute_query(query("vectors/model_set"), {
            "index": index_name(label), "level": label, "name": embedder.name,
            "version": embedder.version, "dim": embedder.dim}, database_=db)
        report.written[label] = 0
    return bulk


def _write_page(driver: Driver, db: str, label: str, ids: list[str], vectors, report: EmbedReport) -> int:
    """Write one page's vectors; returns how many."""
    rows = [{"id": pid, "vec": vec.tolist()} for pid, vec in zip(ids, vectors, strict=True)]
    if rows:
        driver.execute_query(labelled("vectors/write", label=label), {"rows": rows}, database_=db)
    report.written[label] += len(rows)
    return len(rows)
