"""First load of an empty database through ``neo4j-admin database import full`` (offline CSV import).

Why: a Cypher load is bound by the server's transactional writes; the offline importer writes the
store files directly and then only the indexes are built (docs/benchmarks/ingest.md). It needs the
database stopped and its files at hand, so it serves the server that ``legalkg neo4j start`` runs
and only an empty database: nothing can be lost. ``legalkg.graph.ingest`` decides when it runs;
the server's steps (marker, stop, import, restart) are ``legalkg.server.offline_import``'s.

The graph is the one the Cypher load writes (``legalkg.graph.import_files``), so every later
``legalkg ingest`` runs the usual idempotent Cypher path over it.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from neo4j import Driver
from tqdm import tqdm

from ..cite import KnownUnits
from ..errors import UserError
from ..model import Law
from ..server import offline_import
from .broken import BROKEN_REFERENCE
from .cypher import query
from .enabling import merge_counts
from .extraction import Extraction, law_keys, parsed_unit_ids, worker_context, worker_law
from .import_files import CsvFolder, CsvLines, law_csv, root_lines
from .report import IngestReport, LawResult
from .schema import ensure_schema


def law_csv_work(ref: int | tuple | bytes) -> tuple[CsvLines, int, int, object]:
    """Worker side of :class:`legalkg.graph.extraction.Extraction`: one law's import lines."""
    ctx = worker_context()
    return law_csv(worker_law(ref), ctx.registry, ctx.known, ctx.repealed)


def bulk_load(driver: Driver, db: str, home: Path, loaded: Sequence[Law], report: IngestReport, registry,
              workers: int, progress: bool) -> None:
    """Write every law as CSV (in worker processes), import it, start the server, build the schema.

    The server stops in a background thread while the CSV is written (a graceful stop mostly
    waits). Fills ``report`` like the Cypher load does; every law counts as loaded
    and fresh; ``report.phases`` has the seconds of each step. ``loaded``: best a
    ``graph.extraction.PackedLaws`` (what ``graph.ingest`` passes), which holds all laws in a
    fifth of the memory; each law's CSV lines are written and let go as they arrive.
    """
    clock = time.perf_counter()

    def lap(name: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        report.phases[name] = round(now - clock, 2)
        clock = now

    offline_import.forget_previous(home)
    command = offline_import.begin(home, len(loaded))
    stopper = ThreadPoolExecutor(max_workers=1, thread_name_prefix="legalkg-stop-neo4j")
    stopped = stopper.submit(offline_import.stop_server, home)
    stopper.shutdown(wait=False)
    ids, repealed = parsed_unit_ids(loaded)
    known = KnownUnits(ids)
    folder = Path(tempfile.mkdtemp(prefix="legalkg-import-", dir=offline_import.import_dir(home)))
    out = CsvFolder(folder)
    extraction = (Extraction(loaded, registry, known, repealed, workers, work=law_csv_work)
                  if workers > 1 and loaded else None)
    try:
        out.add(root_lines())
        keys = law_keys(loaded)
        parts = extraction.as_completed() if extraction is not None else (
            (i, law_csv(loaded[i], registry, known, repealed)) for i in range(len(loaded)))
        _write_laws(out, parts, keys, len(loaded), report, progress)
        out.close()
        lap("csv")
        stopped.result()  # re-raises what the stop raised
        lap("stop_wait")
        offline_import.run_import(home, out.import_args(), db)
        lap("import")
    except OSError as err:  # a full disk or a file-size limit under the CSV folder: one line, no traceback
        raise UserError(f"cannot write the import files in {folder} ({err.strerror or err}): free space there "
                        "and rerun `legalkg ingest` (the server is stopped; the rerun imports again and "
                        "starts it)") from None
    finally:
        if extraction is not None:
            extraction.close()
        with contextlib.suppress(OSError):  # buffered lines that could not be written fail again here
            out.close()
        shutil.rmtree(folder, ignore_errors=True)
    offline_import.start_server(home, command)
    forget_bookmarks(driver, db)
    lap("start")
    report.nodes_written = out.nodes
    report.fresh.update(keys)
    ensure_schema(driver, db)  # waits until every index is online and the full-text ones caught up
    lap("schema")
    offline_import.finish(home)


def forget_bookmarks(driver: Driver, db: str) -> None:
    """The driver's bookmarks name transactions of the replaced database (a higher id than the
    imported one has), and a query would wait for them until BookmarkTimeout: replace them with a
    bookmark of the new database (the manager ignores an update without new bookmarks)."""
    with driver.session(database=db) as session:  # a plain session sends no bookmarks
        session.run(query("ping")).consume()
        fresh = session.last_bookmarks().raw_values
    manager = driver.execute_query_bookmark_manager
    manager.update_bookmarks(manager.get_bookmarks(), fresh)


def _write_laws(out: CsvFolder, parts: Iterable[tuple[int, tuple]], keys: list[str], total: int,
                report: IngestReport, progress: bool) -> None:
    """Add each law's CSV lines to ``out`` as ``parts`` yields them (``(index, law_csv(...))`` in any
    order) and its result, citation count and statistics to ``report``, in ``keys`` order."""
    stats = None
    first = len(report.laws)
    for i, (lines, nodes, cites, (law_stats, enabling)) in tqdm(parts, total=total, unit="law",
                                                                disable=not progress, desc="csv"):
        report.enabling = merge_counts(report.enabling, enabling)
        report.broken_references += len(lines.lines.get(f"nodes-{BROKEN_REFERENCE}", ()))
        out.add(lines)
        del lines  # the largest object of a law: gone before the next one arrives
        report.cites_written += cites
        report.laws.append(LawResult(law=keys[i], status="loaded", nodes=nodes))
        stats = law_stats if stats is None else stats.merge(law_stats)
    position = {key: i for i, key in enumerate(keys)}
    report.laws[first:] = sorted(report.laws[first:], key=lambda r: position[r.law])  # any finish order
    if stats is not None:
        report.cite_stats = stats.model_dump(exclude={"examples"})
