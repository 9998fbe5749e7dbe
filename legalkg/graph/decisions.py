"""``legalkg ingest-cases``: court decisions as ``Decision`` nodes with ``CITES_*`` edges to the deepest
statute unit they cite and ``CITES_DECISION`` edges to the decisions they cite by file number.

Why this shape: the first question a lawyer asks of a § after its text is who cites it. The edge
ends at the deepest unit the citation names (Absatz, Satz, Nummer), as the statutes' own ``CITES_*``
edges do, so the backlinks of a unit look inside it the same way for both.

Idempotence (like ``legalkg ingest``): each decision's content hash covers its properties and its
edges; an unchanged decision is skipped, a changed one loses every outgoing edge and gets the new
ones, and the hash is written last, so a killed load writes the unfinished batch again next time.
The hash includes the resolved edges, so a re-ingest after more laws were loaded adds the edges to
them. Decisions no longer in a dump are kept (a dump may be one of several).

Why UNWIND batches and not ``neo4j-admin import``: the bulk import only fills an empty database,
and decisions join a graph whose statutes are already there; new decisions are CREATEd (no MERGE
look-up), and the citation grammar runs in worker processes beside the writes, which a thread of
their own does (one batch in flight: its counts are the writer's, the read counts the reader's).
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from neo4j import Driver
from tqdm import tqdm

from .. import jsonl
from ..cases.decisions import BadRecord, Decision, read_decision
from ..cases.spans import SpanReader
from ..cite import KnownUnits, LawRegistry
from ..cite.caselaw import file_key
from ..errors import UserError
from ..model import level_of_id
from ..procs import process_pool
from .cypher import labelled, query, statements
from .extraction import fork_context
from .load import graph_unit_ids
from .rows import content_hash

BATCH = 1000
#: records per task of a worker process (a task's pickling cost is per call)
TASK = 64


@dataclass(frozen=True)
class CaseSettings:
    """How one ``ingest-cases`` run reads and writes: full text or not, decisions per write batch,
    worker processes for the citation grammar, the progress bar, and where bad-record lines go."""

    with_text: bool = False
    batch: int = BATCH
    workers: int = 1
    progress: bool = True
    on_bad: Callable[[str], None] | None = None


@dataclass
class CaseReport:
    read: int = 0
    new: int = 0
    changed: int = 0
    unchanged: int = 0
    bad: int = 0
    cites_written: int = 0
    unresolved: int = 0
    decision_links: int = 0
    seconds: float = 0.0
    #: the graph's totals after the run: decisions, their CITES_* edges, CITES_DECISION edges
    in_graph: dict[str, int] = field(default_factory=dict)
    bad_lines: list[str] = field(default_factory=list)

    @property
    def written(self) -> int:
        return self.new + self.changed

    def summary_lines(self) -> list[str]:
        rate = self.read / self.seconds if self.seconds else 0.0
        return [f"decisions: {self.read:,} read ({rate:,.0f}/s), {self.new:,} new, {self.changed:,} changed, "
                f"{self.unchanged:,} unchanged, {self.bad:,} bad records",
                f"edges: {self.cites_written:,} CITES_* written, {self.unresolved:,} statute citations "
                f"without a unit in the graph, {self.decision_links:,} CITES_DECISION edges written",
                f"graph: {self.in_graph.get('decisions', 0):,} decisions, {self.in_graph.get('cites', 0):,} "
                f"CITES_* edges from decisions, {self.in_graph.get('decision_links', 0):,} CITES_DECISION edges"]


def decision_rows(d: Decision, with_text: bool) -> tuple[dict, list[dict]]:
    """(node row, edge rows) of one decision; the node row's hash covers both."""
    props = {"source": d.source, "court": d.court, "file_number": d.file_number,
             "file_key": file_key(d.file_number) if d.file_number else None, "ecli": d.ecli, "type": d.type,
             "lead": d.lead, "text": d.text if with_text else None, "cites_files": d.cites_files or None,
             "units": len(d.cites), "citations": sum(c.count for c in d.cites), "unresolved": d.unresolved}
    props = {k: v for k, v in props.items() if v is not None}
    edges = [{"source": d.id, "target": c.target, "text": c.text, "count": c.count} for c in d.cites]
    digest = content_hash([d.id, d.date, props, edges])
    return {"id": d.id, "date": d.date, "props": props, "hash": digest}, edges


@dataclass
class _Context:
    known: KnownUnits
    registry: LawRegistry
    with_text: bool
    #: the grammar's readings remembered per citation span (cases.spans), one per process, made there
    reader: SpanReader | None = None


_worker: _Context | None = None


def _init(context: _Context) -> None:
    global _worker
    _worker = context


def read_batch(items: Sequence[tuple[str, dict]], context: _Context | None = None) -> list[tuple[str, object]]:
    """(where, rows) or (where, problem) per record; runs in a worker (its context inherited)."""
    ctx = context or _worker
    if ctx.reader is None:
        ctx.reader = SpanReader(ctx.known, ctx.registry)
    out: list[tuple[str, object]] = []
    for where, rec in items:
        try:
            out.append((where, decision_rows(read_decision(rec, ctx.known, ctx.registry, ctx.reader),
                                             ctx.with_text)))
        except BadRecord as err:
            out.append((where, str(err)))
    return out


def records(files: Iterable[Path]) -> Iterator[tuple[str, dict | None, str | None]]:
    """("FILE:LINE", record, problem) over every file in turn."""
    for path in files:
        for lineno, rec, problem in jsonl.each_record(path, "decision file",
                                                     "pass a JSONL file of decisions (.jsonl or .jsonl.gz)"):
            yield f"{path}:{lineno}", rec, problem


def _tasks(stream, report: CaseReport, settings: CaseSettings) -> Iterator[list[tuple[str, dict]]]:
    """Good records in tasks of ``TASK``; bad lines reported on the way."""
    task: list[tuple[str, dict]] = []
    for where, rec, problem in stream:
        if problem is not None:
            _bad(report, settings, where, problem)
            continue
        task.append((where, rec))
        if len(task) >= TASK:
            yield task
            task = []
    if task:
        yield task


def _bad(report: CaseReport, settings: CaseSettings, where: str, problem: str) -> None:
    report.bad += 1
    line = f"{where}: {problem}"
    if len(report.bad_lines) < 100:
        report.bad_lines.append(line)
    if settings.on_bad is not None:
        settings.on_bad(line)


def _read_all(tasks: Iterator[list], context: _Context, workers: int) -> Iterator[list[tuple[str, object]]]:
    """Results per task, in order; in ``workers`` processes (a bounded number of tasks in flight)."""
    if workers <= 1:
        for task in tasks:
            yield read_batch(task, context)
        return
    with process_pool(workers, _init, (context,), mp_context=fork_context()) as pool:
        pending = []
        for task in tasks:
            pending.append(pool.submit(read_batch, task))
            if len(pending) >= workers * 4:
                yield pending.pop(0).result()
        for future in pending:
            yield future.result()


def write_batch(driver: Driver, db: str, rows: list[tuple[dict, list[dict]]], report: CaseReport) -> None:
    """Write one batch: new decisions created, changed ones replaced, unchanged ones skipped."""
    states = {r["id"]: r for r in driver.execute_query(query("cases/state"), {"ids": [n["id"] for n, _ in rows]},
                                                       database_=db).records}
    seen: set[str] = set()
    fresh, changed, edges = [], [], defaultdict(list)
    for node, node_edges in rows:
        state = states[node["id"]]
        if node["id"] in seen or state["hash"] == node["hash"]:
            report.unchanged += 1
            continue
        seen.add(node["id"])
        (changed if state["exists"] else fresh).append(node)
        for e in node_edges:
            edges[level_of_id(e["target"])].append(e)
    if changed:
        driver.execute_query(query("cases/replace"), {"rows": changed}, database_=db)
    if fresh:
        driver.execute_query(query("cases/create"), {"rows": fresh}, database_=db)
    for level, level_rows in edges.items():
        recs = driver.execute_query(labelled("cases/create_cites", target=level), {"rows": level_rows},
                                    database_=db).records
        report.cites_written += recs[0]["n"]
    done = [{"id": n["id"], "hash": n["hash"]} for n in fresh + changed]
    if done:
        driver.execute_query(query("cases/finish"), {"rows": done}, database_=db)
    report.new += len(fresh)
    report.changed += len(changed)


def link_decisions(driver: Driver, db: str, batch: int = BATCH * 5) -> int:
    """``CITES_DECISION`` edges of every citing decision, written anew; returns the edges."""
    ids = [r["id"] for r in driver.execute_query(query("cases/citing_ids"), database_=db).records]
    total = 0
    for i in range(0, len(ids), batch):
        total += driver.execute_query(query("cases/link_decisions"), {"ids": ids[i:i + batch]},
                                      database_=db).records[0]["n"]
    return total


def known_units(driver: Driver, db: str) -> KnownUnits:
    """The graph's unit ids; a graph without statutes is refused (its decisions would cite nothing)."""
    ids, _ = graph_unit_ids(driver, db)
    if not ids:
        raise UserError("the graph holds no statutes, so no decision citation can find its unit: load them "
                        "first (legalkg ingest), then run legalkg ingest-cases")
    return KnownUnits(ids)


def _collect(results: list[tuple[str, object]], report: CaseReport, settings: CaseSettings,
             pending: list[tuple[dict, list[dict]]]) -> None:
    """A task's results: rows to ``pending``, problems reported."""
    for where, result in results:
        if isinstance(result, str):
            _bad(report, settings, where, result)
            continue
        report.read += 1
        report.unresolved += result[0]["props"]["unresolved"]
        pending.append(result)


def ingest_cases(driver: Driver, db: str, files: Sequence[Path], settings: CaseSettings = CaseSettings()
                 ) -> CaseReport:
    """Load decision files (LER form or Open Legal Data case dumps, ``.gz`` allowed) into the graph."""
    started = time.perf_counter()
    for path in files:
        if not path.is_file():
            raise UserError(f"decision file not found: {path}; pass JSONL files of decisions (.jsonl or .jsonl.gz)")
    for stmt in statements("cases/schema"):
        driver.execute_query(stmt, database_=db)
    context = _Context(known_units(driver, db), LawRegistry.default(), settings.with_text)
    report = CaseReport()
    bar = tqdm(unit="decision", disable=not settings.progress, desc="decisions")
    pending: list[tuple[dict, list[dict]]] = []
    with ThreadPoolExecutor(max_workers=1) as writer:
        writing: Future | None = None
        for results in _read_all(_tasks(records(files), report, settings), context, settings.workers):
            _collect(results, report, settings, pending)
            bar.update(len(results))
            if len(pending) >= settings.batch:
                if writing is not None:
                    writing.result()  # one batch in flight: the grammar reads the next while it is written
                    bar.set_postfix(written=f"{report.written:,}", edges=f"{report.cites_written:,}")
                writing = writer.submit(write_batch, driver, db, pending, report)
                pending = []
        if writing is not None:
            writing.result()
    if pending:
        write_batch(driver, db, pending, report)
    bar.close()
    if report.written:
        report.decision_links = link_decisions(driver, db)
    report.in_graph = driver.execute_query(query("cases/count"), database_=db).records[0].data()
    report.seconds = time.perf_counter() - started
    return report
