"""Batched, idempotent, resumable loading of parsed laws and their citation edges into Neo4j.

Order: schema first; then the structure of laws in chunks (Gesetz nodes, then nodes with their
``CONTAINS_*`` edge in ``UNWIND`` batches, top-down so parents exist first; rows of many small laws
share a batch because each query has a fixed cost); citation edges only after every law's nodes exist
(so cross-code edges find their targets).

Idempotence and resumability: every node and edge carries ``gen`` = its law's content hash. After a
changed law is written, anything of that law with another ``gen`` vanished from the newer Stand and is
deleted. ``Gesetz.hash`` is written last, so a killed run leaves the law marked unfinished and the next
run loads it again; a law whose hash is already there is skipped (running twice changes nothing).
``Gesetz.cites_hash`` does the same for citation edges.
"""

from __future__ import annotations

import time
from collections import defaultdict
from pathlib import Path
from typing import Callable, Iterable, Iterator

from neo4j import Driver
from pydantic import BaseModel, Field
from tqdm import tqdm

from ..gcpolicy import relaxed, worker_init
from ..model import TEXT_LEVELS, Law, Level
from .cypher import labelled, query
from .rows import LawRows, edge_rows, law_rows
from .schema import await_indexes, ensure_schema

BATCH = 5000
CHUNK_NODES = 40_000


class LawResult(BaseModel):
    law: str
    status: str  # loaded | unchanged | failed
    nodes: int = 0
    message: str | None = None


class IngestReport(BaseModel):
    laws: list[LawResult] = Field(default_factory=list)
    failures: list[tuple[str, str]] = Field(default_factory=list)
    nodes_written: int = 0
    cites_written: int = 0
    cite_stats: dict = Field(default_factory=dict)
    seconds: float = 0.0
    structure_seconds: float = 0.0
    phases: dict[str, float] = Field(default_factory=dict, description="seconds per step of a bulk import")
    fresh: set[str] = Field(default_factory=set, exclude=True, description="laws created from nothing in this run")

    @property
    def ok(self) -> bool:
        return not self.failures


def _batches(rows: list, size: int) -> Iterator[list]:
    for i in range(0, len(rows), size):
        yield rows[i:i + size]


def _write(driver: Driver, db: str, text: str, params: dict) -> int:
    recs = driver.execute_query(text, params, database_=db).records
    return recs[0]["n"] if recs and "n" in recs[0].keys() else 0


def law_states(driver: Driver, db: str, keys: list[str]) -> dict[str, dict]:
    recs = driver.execute_query(query("load/law_state"), {"laws": keys}, database_=db).records
    return {r["law"]: r.data() for r in recs}


def load_structure(driver: Driver, db: str, chunk: list[LawRows], existing: set[str],
                   batch: int = BATCH) -> int:
    """Write the nodes and CONTAINS edges of several laws; returns nodes written.

    ``existing``: laws that already had a Gesetz node (only they can hold stale units to delete).
    """
    laws = [{"law": r.law, "props": r.gesetz, "gen": r.hash} for r in chunk]
    driver.execute_query(query("load/upsert_gesetz"), {"laws": laws}, database_=db)
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for rows in chunk:
        fresh = rows.law not in existing  # no node of a law without a Gesetz node can exist: CREATE
        for key, group in rows.groups.items():
            groups[(*key, fresh)].extend({**row, "gen": rows.hash} for row in group)
    written = len(chunk)
    for key in sorted(groups, key=lambda k: (k[0], k[1])):
        _, _, parent, level, fresh = key
        q = labelled("load/create_nodes" if fresh else "load/upsert_nodes", label=level, parent=parent)
        unit = level in TEXT_LEVELS
        for part in _batches(groups[key], batch):
            written += _write(driver, db, q, {"rows": part, "unit": unit})
    for fresh in (True, False):
        chunk_rows = [{**row, "gen": r.hash} for r in chunk if (r.law not in existing) == fresh
                      for row in r.chunks]
        q = query("load/create_chunks" if fresh else "load/upsert_chunks")
        for part in _batches(chunk_rows, batch):
            written += _write(driver, db, q, {"rows": part})
    stale = [{"law": r.law, "gen": r.hash} for r in chunk if r.law in existing]
    if stale:
        driver.execute_query(query("load/delete_stale_nodes"), {"laws": stale}, database_=db)
        driver.execute_query(query("load/delete_stale_contains"), {"laws": stale}, database_=db)
    driver.execute_query(query("load/finish_law"), {"laws": [{"law": r.law, "gen": r.hash} for r in chunk]},
                         database_=db)
    return written


def load_cites(driver: Driver, db: str, per_law: dict[str, list], batch: int = BATCH,
               force: bool = False, fresh: set[str] | frozenset[str] = frozenset()) -> int:
    """Write the citation edges of laws whose edge set changed; returns edges written.

    ``fresh``: laws whose nodes were all created in this run, so none of their edges exists yet and
    theirs are CREATEd instead of MERGEd.
    """
    states = law_states(driver, db, list(per_law))
    todo: dict[tuple[Level, bool], list[dict]] = defaultdict(list)
    finished: list[dict] = []
    for law, edges in per_law.items():
        grouped, digest = edge_rows(edges)
        if states.get(law, {}).get("cites_hash") == digest and not force:
            continue
        finished.append({"law": law, "gen": digest})
        for level, rows in grouped.items():
            todo[(level, law in fresh)].extend({**row, "gen": digest} for row in rows)
    written = 0
    for (level, is_fresh), rows in todo.items():
        q = labelled("load/create_cites" if is_fresh else "load/upsert_cites", target=level)
        for part in _batches(rows, batch):
            written += _write(driver, db, q, {"rows": part})
    if finished:
        driver.execute_query(query("load/delete_stale_cites"), {"laws": finished}, database_=db)
        driver.execute_query(query("load/finish_cites"), {"laws": finished}, database_=db)
    return written


_CITE_STATE: tuple = ()
_LAWS: list[Law] | None = None  # the run's laws, in workers forked from the loading process


def _cite_init(registry, known, repealed: set[str], laws: list[Law] | None = None) -> None:
    """Worker initializer: the registry and one ``KnownUnits`` shared by every law of the run, and
    the laws themselves where the worker was forked (then each task names a law by its index)."""
    global _CITE_STATE, _LAWS
    _CITE_STATE = (registry, known, repealed)
    _LAWS = laws
    worker_init()


def worker_law(ref: int | tuple) -> Law:
    """Worker side: the law a task names, by its index into the inherited laws or packed."""
    if isinstance(ref, int):
        return _LAWS[ref]
    from ..parse.sources import _unpack

    return _unpack(ref)


def _cite_work(ref: int | tuple) -> tuple[list[tuple], object]:
    """Worker side: edges of one law as plain tuples (pickling 80k pydantic Edges is slow)."""
    from ..cite import statute_edges

    registry, known, repealed = _CITE_STATE
    edges, stats = statute_edges(worker_law(ref), registry, known, repealed)
    return [(e.source_id, e.target_id, e.kind, e.target_level.value, e.text) for e in edges], stats


def _fork_context():
    """The fork start method where it is the platform's safe default (Linux), else None."""
    import multiprocessing
    import sys

    if sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return None


class _Extraction:
    """Per-law work of every law in ``workers`` processes (citation extraction by default), all
    submitted at once: the Cypher load starts it before writing the structure, which waits on the
    server while the extraction (pure Python, the slowest client-side step) uses the CPU. The bulk
    import runs ``bulk._law_csv_work`` through it. Results come back in law order.

    Forked workers inherit the parsed laws, so a task is a law's index; elsewhere (spawn) each law
    travels packed (``parse.sources._pack``), which costs CPU time on both sides: packing and
    pickling in the loading process, unpickling and rebuilding in the worker."""

    def __init__(self, laws: list[Law], registry, known, repealed: set[str], workers: int,
                 work: Callable[[int | tuple], object] = _cite_work) -> None:
        from ..parse.sources import _pack
        from ..procs import process_pool

        fork = _fork_context()
        self.pool = process_pool(workers, _cite_init, (registry, known, repealed, laws if fork else None),
                                 mp_context=fork)
        # Largest laws first: submitted in law order, a big law near the end (SGB V, ZPO) kept
        # one worker busy while the other had nothing left to do.
        futures = {}
        try:
            for i in sorted(range(len(laws)), key=lambda i: len(laws[i].units), reverse=True):
                futures[i] = self.pool.submit(work, i if fork else _pack(laws[i]))
        except BaseException:
            self.close()
            raise
        self.futures = [(law, futures[i]) for i, law in enumerate(laws)]

    def raw(self) -> Iterator[tuple[Law, object]]:
        """Results in law order."""
        for law, future in self.futures:
            yield law, future.result()

    def as_completed(self) -> Iterator[tuple[Law, object]]:
        """Results as the workers finish them (for consumers that need no order)."""
        from concurrent.futures import as_completed

        law_of = {future: law for law, future in self.futures}
        for future in as_completed(law_of):
            yield law_of[future], future.result()

    def results(self) -> Iterator[tuple[Law, list, object]]:
        """Citation edges and statistics per law (for the default ``work``)."""
        from ..cite.statute import Edge

        levels = {lvl.value: lvl for lvl in Level}
        for law, (rows, stats) in self.raw():
            yield law, [Edge.model_construct(source_id=a, target_id=b, kind=c, target_level=levels[d], text=t)
                        for a, b, c, d, t in rows], stats

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


def parsed_unit_ids(laws: Iterable[Law]) -> tuple[set[str], set[str]]:
    """Text unit ids (and the repealed ones) of parsed laws, exactly as the load writes them."""
    ids, repealed = set(), set()
    for law in laws:
        for u in law.units:
            if u.level in TEXT_LEVELS:
                ids.add(u.id)
                if u.repealed:
                    repealed.add(u.id)
    return ids, repealed


def graph_unit_ids(driver: Driver, db: str, loaded: Iterable[Law] = ()) -> tuple[set[str], set[str]]:
    """Every text unit id in the graph (and the repealed ones). The units of ``loaded`` laws are
    in the graph exactly as parsed, so they are taken from the parse and only the other laws' ids
    travel over the wire (184k rows for the default codes otherwise)."""
    loaded = list(loaded)
    ids, repealed = parsed_unit_ids(loaded)
    skip = [law.key for law in loaded]
    for rec in driver.execute_query(query("load/all_unit_ids"), {"skip": skip}, database_=db).records:
        ids.add(rec["id"])
        if rec["repealed"]:
            repealed.add(rec["id"])
    return ids, repealed


def _load_all_structure(driver: Driver, db: str, loaded: list[Law], report: IngestReport, batch: int,
                        chunk_nodes: int, progress: bool, started: float) -> None:
    """Nodes and CONTAINS edges of every law, in chunks of about ``chunk_nodes`` nodes (rows of
    many small laws share a query); laws whose hash is in the graph already are skipped."""
    pending: list[LawRows] = []
    pending_nodes = 0
    bar = tqdm(loaded, unit="law", disable=not progress, desc="structure")

    def flush() -> None:
        nonlocal pending, pending_nodes
        if not pending:
            return
        states = law_states(driver, db, [r.law for r in pending])
        todo = [r for r in pending if states[r.law]["hash"] != r.hash]
        for r in pending:
            if r not in todo:
                report.laws.append(LawResult(law=r.law, status="unchanged"))
        if todo:
            existing = {r.law for r in todo if states[r.law]["exists"]}
            report.fresh.update(r.law for r in todo if r.law not in existing)
            report.nodes_written += load_structure(driver, db, todo, existing, batch)
            report.laws.extend(LawResult(law=r.law, status="loaded", nodes=r.node_count) for r in todo)
        pending, pending_nodes = [], 0
        elapsed = time.perf_counter() - started
        bar.set_postfix(nodes=f"{report.nodes_written:,}", nodes_s=f"{report.nodes_written / elapsed:,.0f}")

    for law in bar:
        rows = law_rows(law)
        pending.append(rows)
        pending_nodes += rows.node_count
        if pending_nodes >= chunk_nodes:
            flush()
    flush()
    bar.close()


@relaxed()
def ingest(
    driver: Driver,
    db: str,
    laws: Iterable[tuple[str, "Law | Exception"]],
    registry=None,
    total: int | None = None,
    progress: bool = True,
    batch: int = BATCH,
    chunk_nodes: int = CHUNK_NODES,
    after_structure: Callable[[list[Law]], None] | None = None,
    workers: int = 1,
    bulk_home: Path | None = None,
) -> IngestReport:
    """Load laws (structure, then citations). Parse failures are reported; good laws still load.

    ``bulk_home``: the home of a local ``legalkg neo4j`` server whose database is empty (or holds an
    interrupted bulk import): the laws go in by ``neo4j-admin database import`` (legalkg.graph.bulk).
    """
    from ..cite import KnownUnits, LawRegistry, statute_edges

    started = time.perf_counter()
    report = IngestReport()
    loaded: list[Law] = []
    for name, law in tqdm(laws, total=total, unit="law", disable=not progress, desc="parse"):
        if isinstance(law, Exception):
            report.failures.append((name, str(law)))
            report.laws.append(LawResult(law=name, status="failed", message=str(law)))
        else:
            loaded.append(law)
    registry = registry or LawRegistry.default()
    if bulk_home is not None and not loaded:
        from .bulk import import_pending

        if not import_pending(bulk_home):
            bulk_home = None  # nothing parsed: leave the empty database as it is
    if bulk_home is not None:
        from .bulk import bulk_load

        bulk_load(driver, db, bulk_home, loaded, report, registry, workers, progress)
        if after_structure:
            after_structure(loaded)
        report.seconds = time.perf_counter() - started
        return report
    ensure_schema(driver, db)  # constraints and indexes before any node (idempotent)
    # The units of the parsed laws are known now (and the graph's other laws do not change here),
    # so citations can be extracted while the structure is written.
    ids, repealed = graph_unit_ids(driver, db, loaded)
    known = KnownUnits(ids)
    extraction = _Extraction(loaded, registry, known, repealed, workers) if workers > 1 and loaded else None
    try:
        _load_all_structure(driver, db, loaded, report, batch, chunk_nodes, progress, started)
        report.structure_seconds = time.perf_counter() - started
        if after_structure:
            after_structure(loaded)
        stats = None
        per_law: dict[str, list] = {}
        extracted = extraction.results() if extraction is not None else (
            (law, *statute_edges(law, registry, known, repealed)) for law in loaded)
        for law, edges, law_stats in tqdm(extracted, total=len(loaded), unit="law", disable=not progress,
                                          desc="citations"):
            stats = law_stats if stats is None else stats.merge(law_stats)
            per_law[law.key] = edges
            if sum(len(v) for v in per_law.values()) >= chunk_nodes:
                report.cites_written += load_cites(driver, db, per_law, batch, fresh=report.fresh)
                per_law = {}
        if per_law:
            report.cites_written += load_cites(driver, db, per_law, batch, fresh=report.fresh)
    finally:
        if extraction is not None:
            extraction.close()
    if stats is not None:
        report.cite_stats = stats.model_dump(exclude={"examples"})
    await_indexes(driver, db)
    report.seconds = time.perf_counter() - started
    return report
