"""The Cypher loader: batched, idempotent, resumable loading of parsed laws and their citation edges
into any Neo4j (``legalkg.graph.ingest`` chooses it or the bulk import).

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
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from neo4j import Driver
from tqdm import tqdm

from ..cite import KnownUnits
from ..model import TEXT_LEVELS, Law, Level
from .broken import law_citations, load_broken
from .cypher import labelled, query
from .enabling import enabling_counts, enabling_rows, load_enabling
from .extraction import Extraction, parsed_unit_ids
from .report import IngestReport, LawResult
from .rows import LawRows, edge_rows, law_rows
from .schema import await_indexes, ensure_schema
from .terms import load_terms, term_rows

BATCH = 5000
CHUNK_NODES = 40_000


@dataclass(frozen=True)
class LoadSettings:
    """How one ingest writes and what it tells: rows per UNWIND batch, nodes per structure chunk,
    processes for citation extraction, the progress bars and ``notice`` (one line when the bulk
    import is chosen). One value from the command line to ``ingest_laws`` and ``cypher_load``."""

    batch: int = BATCH
    chunk_nodes: int = CHUNK_NODES
    workers: int = 1
    progress: bool = True
    notice: Callable[[str], None] | None = None


#: the settings of callers that name none (tests, benchmarks)
LOAD = LoadSettings()


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


def cypher_load(driver: Driver, db: str, loaded: list[Law], report: IngestReport, registry, *,
                settings: LoadSettings = LOAD, after_structure: Callable[[list[Law]], None] | None = None,
                started: float | None = None) -> None:
    """Load parsed laws through Cypher (structure, then citations) into ``report``; any database.

    ``started``: the run's start (``time.perf_counter``), for the nodes/s on the progress bar and
    ``report.structure_seconds``.
    """
    batch, chunk_nodes, progress, workers = settings.batch, settings.chunk_nodes, settings.progress, settings.workers
    started = time.perf_counter() if started is None else started
    ensure_schema(driver, db)  # constraints and indexes before any node (idempotent)
    # The units of the parsed laws are known now (and the graph's other laws do not change here),
    # so citations can be extracted while the structure is written.
    ids, repealed = graph_unit_ids(driver, db, loaded)
    known = KnownUnits(ids)
    extraction = Extraction(loaded, registry, known, repealed, workers) if workers > 1 and loaded else None
    try:
        _load_all_structure(driver, db, loaded, report, batch, chunk_nodes, progress, started)
        report.structure_seconds = time.perf_counter() - started
        if after_structure:
            after_structure(loaded)
        stats = None
        per_law: dict[str, list] = {}
        broken: dict[str, tuple[list[dict], str]] = {}
        extracted = extraction.results() if extraction is not None else (
            (law, *law_citations(law, registry, known, repealed)) for law in loaded)
        for law, edges, law_stats, law_broken in tqdm(extracted, total=len(loaded), unit="law",
                                                      disable=not progress, desc="citations"):
            stats = law_stats if stats is None else stats.merge(law_stats)
            per_law[law.key] = edges
            broken[law.key] = law_broken
            if sum(len(v) for v in per_law.values()) >= chunk_nodes:
                report.cites_written += load_cites(driver, db, per_law, batch, fresh=report.fresh)
                per_law = {}
        if per_law:
            report.cites_written += load_cites(driver, db, per_law, batch, fresh=report.fresh)
    finally:
        if extraction is not None:
            extraction.close()
    load_all_enabling(driver, db, loaded, report, registry, known, repealed, batch)
    report.broken_references = sum(len(rows) for rows, _ in broken.values())
    load_broken(driver, db, broken, law_states(driver, db, list(broken)), batch)
    if stats is not None:
        report.cite_stats = stats.model_dump(exclude={"examples"})
    await_indexes(driver, db)


def load_all_enabling(driver: Driver, db: str, loaded: list[Law], report: IngestReport, registry,
                      known: KnownUnits, repealed: set[str], batch: int = BATCH) -> None:
    """The ``AUTHORIZED_BY`` edges (``graph.enabling``) and the definitions (``graph.terms``) of every
    loaded law, after all units exist: preambles are few and short, and definitions need no other
    law, so both are read here rather than in the extraction workers."""
    started = time.perf_counter()
    per_law = {law.key: enabling_rows(law, registry, known, repealed) for law in loaded}
    states = law_states(driver, db, list(per_law))
    load_enabling(driver, db, per_law, states, batch)
    report.enabling = enabling_counts(loaded, per_law.values())
    report.enabling_seconds = time.perf_counter() - started
    started = time.perf_counter()
    terms = {law.key: term_rows(law) for law in loaded}
    load_terms(driver, db, terms, states, batch)
    report.definitions = sum(len(rows) for rows, _ in terms.values())
    report.definitions_seconds = time.perf_counter() - started

