"""An ingest from parsed laws to a loaded graph, and the one place that chooses its loader.

Two loaders write the same graph: the Cypher load (``graph.load``: any server, updates in place)
and the bulk import (``graph.bulk``: ``neo4j-admin database import`` into the empty database of
the local server that ``legalkg neo4j start`` runs, much faster for a first load). The choice
needs facts from three moments, so it is taken in steps here, in this order:

1. before connecting (:func:`plan_load`): is the URI that local server, and did a bulk import into it
   stop halfway (then its server may be down, and the import runs again);
2. after connecting (:func:`bulk_home`): is the database empty (the importer only fills an empty one);
3. after parsing (:func:`ingest_laws`): was any law parsed (else an empty database stays as it is).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from neo4j import Driver
from tqdm import tqdm

from ..cite import LawRegistry
from ..errors import UserError
from ..gcpolicy import relaxed
from ..model import Law
from ..server import offline_import
from ..server.conf import default_home
from .bulk import bulk_load
from .cocited import write_cocited
from .config import Neo4jConfig, masked_uri
from .connection import session_driver
from .cypher import query
from .extraction import PackedLaws
from .load import LOAD, LoadSettings, cypher_load
from .report import IngestReport, LawResult

#: ``--method``: ``auto`` imports when that is possible, else loads through Cypher
METHODS = ("auto", "cypher", "import")


@dataclass(frozen=True)
class Plan:
    """The loader as far as it is known before connecting (:func:`plan_load`)."""

    method: str = "cypher"
    uri: str = ""
    #: the local server's home, into whose database a bulk import may go (None: Cypher)
    home: Path | None = None
    #: a bulk import into ``home`` was interrupted: import again (its server may be down)
    pending: bool = False


def plan_load(uri: str, method: str, home: Path | None = None) -> Plan:
    """Step 1 of the choice, before connecting, because after an interrupted import the server
    may be down. ``home``: the local server's home (default ``LEGALKG_NEO4J_HOME`` or the cache's)."""
    if method not in METHODS:
        raise UserError(f"unknown load method {method!r}: choose one of {', '.join(METHODS)}")
    if method == "cypher":
        return Plan(method, uri)
    found = offline_import.managed_home(uri, home)
    pending = offline_import.import_pending(found)
    if found is not None and not pending and not offline_import.is_running(found):
        found = None  # its conf names the port, but what answers there is another server (Docker?)
    if found is None:
        if method == "import":
            raise UserError(f"--method import needs the local server of `legalkg neo4j start` at {uri} "
                            f"(home {home or default_home()}); for Docker or remote servers use "
                            "--method cypher")
        return Plan(method, uri)
    return Plan(method, uri, found, pending)


#: the plan of callers that hold a driver and load through Cypher (tests, benchmarks)
CYPHER = Plan()


def graph_is_empty(driver: Driver, db: str) -> bool:
    return driver.execute_query(query("load/node_count"), database_=db).records[0]["n"] == 0


def bulk_home(p: Plan, driver: Driver, db: str) -> Path | None:
    """Step 2 of the choice, once connected: the home to bulk-import into, or None (Cypher)."""
    if p.home is None or p.pending or graph_is_empty(driver, db):
        return p.home
    if p.method == "import":
        raise UserError(f"the database '{db}' at {masked_uri(p.uri)} is not empty; the bulk import "
                        "only fills an empty one: use --method cypher (updates in place)")
    return None


def _parsed(laws: Iterable[tuple[str, Law | Exception]], report: IngestReport, total: int | None,
            progress: bool, packed: bool = False) -> list[Law] | PackedLaws:
    """The parsed laws; parse failures go into ``report`` (the good laws still load). ``packed``
    (the bulk import, which holds every law until its CSV is written): as ``PackedLaws``, each
    law's objects let go as soon as it is packed."""
    loaded: list[Law] | PackedLaws = PackedLaws() if packed else []
    for name, law in tqdm(laws, total=total, unit="law", disable=not progress, desc="parse"):
        if isinstance(law, Exception):
            report.failures.append((name, str(law)))
            report.laws.append(LawResult(law=name, status="failed", message=str(law)))
        else:
            loaded.append(law)
    return loaded


@relaxed()
def ingest_laws(
    driver: Driver,
    db: str,
    laws: Iterable[tuple[str, Law | Exception]],
    *,
    plan: Plan = CYPHER,
    registry: LawRegistry | None = None,
    total: int | None = None,
    settings: LoadSettings = LOAD,
    after_structure: Callable[[list[Law]], None] | None = None,
) -> IngestReport:
    """Parse ``laws`` (an iterator of ``(name, Law | ParseError)``) and load them by the loader the
    plan allows (default: Cypher). ``settings.notice`` gets one line when the bulk import is chosen."""
    progress, workers = settings.progress, settings.workers
    home = bulk_home(plan, driver, db)
    if home is not None and settings.notice is not None:
        settings.notice(f"bulk import into the empty database of the local server ({home}); it restarts")
    started = time.perf_counter()
    report = IngestReport()
    loaded = _parsed(laws, report, total, progress, packed=home is not None)
    registry = registry or LawRegistry.default()
    if home is not None and not loaded and not offline_import.import_pending(home):
        home = None  # step 3: nothing parsed, leave the empty database as it is
        loaded = []
    if home is not None:
        bulk_load(driver, db, home, loaded, report, registry, workers, progress)
        if after_structure:
            after_structure(loaded)
    else:
        cypher_load(driver, db, loaded, report, registry, settings=settings, after_structure=after_structure,
                    started=started)
    report.seconds = time.perf_counter() - started
    return report


def add_cocited(driver: Driver, db: str, report: IngestReport, cocited: Callable[[], Mapping[str, Sequence[dict]]],
                batch: int) -> None:
    """Write the ``CO_CITED`` edges after either loader (``graph.cocited``), once every unit is in:
    ``cocited`` makes the rows (``predict.cocite.shipped_rows``; loading the predictors is most of
    the cost). Both loaders leave the server up, so one Cypher write serves both."""
    started = time.perf_counter()
    rows = cocited()
    report.cocited_rows_seconds = time.perf_counter() - started
    report.cocited = write_cocited(driver, db, rows, batch)
    report.cocited_seconds = time.perf_counter() - started


@contextmanager
def ingest(cfg: Neo4jConfig, laws: Iterable[tuple[str, Law | Exception]], *, method: str = "auto",
           home: Path | None = None, total: int | None = None, settings: LoadSettings = LOAD,
           cocited: Callable[[], Mapping[str, Sequence[dict]]] | None = None) -> Iterator[tuple[Driver, IngestReport]]:
    """``legalkg ingest``: plan, connect, load, then the ``CO_CITED`` edges of ``cocited``'s rows
    (per task; None: none written); yields the open driver (for the embedding that follows) and the
    report. Without the server's round trip when an interrupted import left it down."""
    p = plan_load(cfg.uri, method, home)
    with session_driver(cfg, verify=not p.pending) as driver:
        report = ingest_laws(driver, cfg.database, laws, plan=p, total=total, settings=settings)
        if cocited is not None:
            add_cocited(driver, cfg.database, report, cocited, settings.batch)
        yield driver, report
