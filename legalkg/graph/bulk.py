"""First load of an empty database through ``neo4j-admin database import full`` (offline CSV import).

Why: a Cypher load is bound by the server's transactional writes (about 1,300 nodes/s on two cores,
docs/benchmarks/ingest.md); the offline importer writes the store files directly and then only the
indexes are built. It needs the database stopped and its files at hand, so it serves the server that
``legalkg neo4j start`` runs (its home is known) and only an empty database: nothing can be lost.

The graph is the one the Cypher load writes (same labels, properties, relationship types and the
``hash`` / ``cites_hash`` markers), so every later ``legalkg ingest`` runs the usual idempotent
Cypher path over it (``tests/graph/test_bulk.py`` compares both graphs property by property).

Resumability: a marker file in the server's ``run/`` folder is written before the server stops and
removed only after the restarted server has its schema. A run killed in between leaves the marker;
the next ingest sees it and imports again (``--overwrite-destination``), so the graph converges.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from urllib.parse import urlparse

from ..errors import UserError
from ..model import TEXT_LEVELS, Law, Level
from ..paths import cache_dir
from ..procs import die_with_parent
from . import jvm, server
from .rows import LawRows, edge_rows, law_rows

MARKER = "legalkg-import.json"
ARRAY_DELIMITER = "\x1f"  # ASCII unit separator: never part of a statute text or an id

#: Every node property the load writes, with its import type. A property outside this list stops
#: the import before anything is touched (``UnknownProperty``), so the two loaders cannot drift.
NODE_COLUMNS: dict[str, str] = {
    "id": "ID", "law": "string", "level": "string", "order": "long", "label": "string",
    "kind": "string", "title": "string", "text": "string", "words": "long", "citation": "string",
    "para": "string", "absatz": "string", "satz": "string", "nummer": "string",
    "buchstabe": "string", "doppelbuchstabe": "string", "repealed": "boolean",
    "footnotes": "string[]", "builddate": "string", "covers": "string[]", "hash": "string",
    "gen": "string", "cites_hash": "string", "jurabk": "string", "amtabk": "string",
    "stand": "string", "doknr": "string", "slug": "string", "name": "string", "source": "string",
}
REL_COLUMNS: dict[str, str] = {"gen": "string", "kind": "string", "text": "string"}
_COLUMN_NAMES = NODE_COLUMNS.keys()
_REL_NAMES = tuple(REL_COLUMNS)


class UnknownProperty(ValueError):
    pass


def _header(columns: dict[str, str], rel: bool = False) -> str:
    if rel:
        return ",".join([":START_ID", ":END_ID", ":TYPE"] + [f"{k}:{t}" for k, t in columns.items()])
    return ",".join("id:ID" if t == "ID" else f"{k}:{t}" for k, t in columns.items())


def _field(value: object) -> str:
    """One CSV field: strings always quoted (so "" stays an empty string), absent values empty."""
    if value is None:
        return ""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, (list, tuple)):
        value = ARRAY_DELIMITER.join(value)
    return '"' + str(value).replace('"', '""') + '"'


def _fields(values) -> list[str]:
    """``_field`` of each value; absent values and strings (nearly all of the 30 columns of ~185k
    nodes) are formatted inline instead of by one call each."""
    return ["" if v is None else ('"' + v.replace('"', '""') + '"' if v.__class__ is str else _field(v))
            for v in values]


class CsvLines:
    """The CSV lines of one law per file, built in a worker process (pickles as plain strings).

    Node files are per label set, relationships share one file; every file of a kind has the same
    columns (an absent value is an empty field), so lines of many laws concatenate.
    """

    def __init__(self) -> None:
        self.lines: dict[str, list[str]] = defaultdict(list)
        self.nodes = 0
        self.rels = 0
        self.multiline = False

    def _add(self, name: str, fields: list[str]) -> None:
        line = ",".join(fields)
        if not self.multiline and ("\n" in line or "\r" in line):
            self.multiline = True
        self.lines[name].append(line)

    def node(self, labels: tuple[str, ...], props: dict) -> None:
        unknown = props.keys() - _COLUMN_NAMES
        if unknown:
            raise UnknownProperty(f"node property {sorted(unknown)} has no import column")
        self._add("nodes-" + "-".join(labels), _fields(map(props.get, _COLUMN_NAMES)))
        self.nodes += 1

    def rel(self, source: str, target: str, rtype: str, props: dict) -> None:
        self._add("rels", [_field(source), _field(target), rtype, *_fields(map(props.get, _REL_NAMES))])
        self.rels += 1


class CsvFolder:
    """The import files: the lines of every law appended to one file per name.

    Some statute texts hold line breaks, so the import runs with ``--multiline-fields`` when any
    field has one. Leaving those values out of the CSV (to set
    them through Cypher afterwards) was tried ad hoc: the node import gained too little for a
    second write path.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.files: dict[str, object] = {}
        self.nodes = 0
        self.rels = 0
        self.multiline = False

    def add(self, part: CsvLines) -> None:
        for name, lines in part.lines.items():
            fh = self.files.get(name)
            if fh is None:
                fh = (self.folder / f"{name}.csv").open("w", encoding="utf-8", newline="")
                fh.write(_header(REL_COLUMNS, rel=True) if name == "rels" else _header(NODE_COLUMNS))
                fh.write("\n")
                self.files[name] = fh
            fh.write("\n".join(lines))
            fh.write("\n")
        self.nodes += part.nodes
        self.rels += part.rels
        self.multiline = self.multiline or part.multiline

    def close(self) -> None:
        for fh in self.files.values():
            fh.close()

    def import_args(self) -> list[str]:
        args = []
        for name in self.files:
            path = self.folder / f"{name}.csv"
            args.append(f"--relationships={path}" if name == "rels"
                        else f"--nodes={':'.join(name.split('-')[1:])}={path}")
        return args + (["--multiline-fields=true"] if self.multiline else [])


def write_structure(out: CsvLines, rows: LawRows) -> None:
    """Nodes and CONTAINS edges of one law, as ``create_nodes``/``create_chunks`` write them."""
    out.rel("ROOT", rows.law, "CONTAINS_GESETZ", {"gen": rows.hash})
    for (_, _, _parent, level), group in rows.groups.items():
        labels = (level.value, "Unit") if level in TEXT_LEVELS else (level.value,)
        rtype = f"CONTAINS_{level.value.upper()}"
        for row in group:
            out.node(labels, {**row["props"], "id": row["id"], "gen": rows.hash})
            out.rel(row["parent"], row["id"], rtype, {"gen": rows.hash})
    for row in rows.chunks:
        out.node(("Chunk",), {**row["props"], "id": row["id"], "gen": rows.hash})


def write_cites(out: CsvLines, edges: list) -> str:
    """CITES_<level> edges of one law; returns their digest (the law's ``cites_hash``)."""
    grouped, digest = edge_rows(edges)
    for level, group in grouped.items():
        rtype = f"CITES_{level.value.upper()}"
        for r in group:
            out.rel(r["source"], r["target"], rtype, {"gen": digest, "kind": r["kind"], "text": r["text"]})
    return digest


def write_gesetz(out: CsvLines, rows: LawRows, cites_hash: str) -> None:
    out.node((Level.GESETZ.value,), {**rows.gesetz, "id": rows.law, "gen": rows.hash, "hash": rows.hash,
                                     "cites_hash": cites_hash})


def law_csv(law: Law, registry, known, repealed: set[str]) -> tuple[CsvLines, int, int, object]:
    """Everything one law puts into the import: its CSV lines, node count, citation edge count and
    extraction statistics (the Gesetz node carries the citation digest, so it is written last)."""
    from ..cite import statute_edges

    rows = law_rows(law)
    out = CsvLines()
    write_structure(out, rows)
    edges, stats = statute_edges(law, registry, known, repealed)
    before = out.rels
    digest = write_cites(out, edges)
    cites = out.rels - before
    write_gesetz(out, rows, digest)
    return out, rows.node_count, cites, stats


def _law_csv_work(ref: int | tuple) -> tuple[CsvLines, int, int, object]:
    """Worker side (state from ``load._cite_init``)."""
    from . import load

    registry, known, repealed = load._CITE_STATE
    return law_csv(load.worker_law(ref), registry, known, repealed)


# --------------------------------------------------------------------------- the local server

def _conf(home: Path) -> dict[str, str]:
    """The settings of the neo4j.conf that ``legalkg neo4j start`` wrote into ``home``."""
    lines = (home / "conf" / "neo4j.conf").read_text("utf-8").splitlines()
    return dict(ln.split("=", 1) for ln in lines if "=" in ln and not ln.startswith("#"))


def managed_home(uri: str, home: Path | None = None) -> Path | None:
    """The home of the ``legalkg neo4j`` server that listens at ``uri``, or None (Docker, remote)."""
    home = home or server.default_home()
    parsed = urlparse(uri)
    if parsed.scheme not in ("bolt", "neo4j") or parsed.hostname not in ("127.0.0.1", "localhost"):
        return None
    try:
        listen = _conf(home).get("server.bolt.listen_address")
    except OSError:
        return None
    return home if listen is not None and listen.rsplit(":", 1)[-1] == str(parsed.port or 7687) else None


def marker_path(home: Path) -> Path:
    return home / "run" / MARKER


def import_pending(home: Path | None) -> bool:
    """True when a bulk import into ``home`` was started and not finished (rerun it)."""
    return home is not None and marker_path(home).exists()


def _settings(home: Path) -> server.ServerSettings:
    conf = _conf(home)
    return server.ServerSettings(home=home, bolt_port=int(conf["server.bolt.listen_address"].rsplit(":", 1)[1]),
                                 http_port=int(conf["server.http.listen_address"].rsplit(":", 1)[1]),
                                 auth=conf.get("dbms.security.auth_enabled") == "true")


def configured_lib(home: Path) -> Path:
    """The jar folder the home's neo4j.conf names (OSError or KeyError without one)."""
    return Path(_conf(home)["server.directories.lib"])


def stop_server(home: Path) -> None:
    server.stop(_settings(home))


def _jvm_size(value: str | None) -> str | None:
    """A neo4j.conf memory size ("1g", "512m", "2GiB") as a JVM size ("1g"), or None."""
    m = re.fullmatch(r"\s*(\d+)\s*([kmgt])?(?:i?b)?\s*", (value or "").lower())
    return f"{m.group(1)}{m.group(2) or ''}" if m else None


def import_command(home: Path, out: CsvFolder, database: str = "neo4j", record: Path | None = None,
                   jit: tuple[str, ...] = ()) -> list[str]:
    """The ``neo4j-admin database import full`` command over ``out``.

    The admin tool's own JVM runs directly, with the command line Neo4j's admin launcher builds
    for it (class path with conf/, file encoding, the server's heap): the launcher is a JVM of its
    own (the import took 25.1 s instead of 28.2 s with it, median of 4 rounds, fifth session).
    On a JDK with an AOT cache the JVM maps :func:`admin_archive`, or records it into ``record``
    when given. ``jit`` adds JIT options, for the comparison in benchmarks/bulk_parts.py (the
    defaults stay: with fewer compilations the import took 1.06x and 0.92x as long in two runs,
    docs/benchmarks/ingest.md, "tenth session").
    """
    args = ["database", "import", "full", database, "--overwrite-destination=true",
            f"--array-delimiter=U+{ord(ARRAY_DELIMITER):04X}", f"--report-file={out.folder / 'import.report'}",
            *out.import_args()]
    conf = _conf(home)
    lib = conf["server.directories.lib"]
    java = jvm.find()
    heap = _jvm_size(conf.get("server.memory.heap.max_size"))
    archive = admin_archive(Path(lib))
    cache = (java.record_cache(record) if record is not None
             else java.use_cache(archive) if java.aot and archive.exists() else [])
    return [java.path, *java.flags, *jit, *cache, "-cp", f"{home / 'conf'}/*:{lib}/*", "-Dfile.encoding=UTF-8",
            *([f"-Xmx{heap}"] if heap else []), server.ADMIN_TOOL, *args]


def admin_archive(lib: Path) -> Path:
    """The admin tool's AOT cache for this jar set and JVM (JDK 25 only: with JDK 17's class-data
    archive the import was not faster; docs/benchmarks/ingest.md, fifth session).

    Recorded by the first bulk import that runs without one: that import is the training run, so the
    cache holds the classes and method profiles of a real import (docs/benchmarks/ingest.md,
    "eighth session").
    """
    java = jvm.find()
    return cache_dir() / "neo4j-cds" / f"{lib.name}-{java.fingerprint}-admin{java.suffix}"


def _recording(lib: Path) -> Path | None:
    """A fresh file to record the admin cache into, or None (cache there, no AOT, unwritable cache)."""
    archive = admin_archive(lib)
    if not jvm.find().aot or not jvm.wants_recording(archive):
        return None
    try:
        archive.parent.mkdir(parents=True, exist_ok=True)
        jvm.sweep_training(archive.parent)
        return Path(tempfile.mkdtemp(prefix="train-admin-", dir=archive.parent)) / f"admin{archive.suffix}"
    except OSError:
        return None


def _keep_recording(home: Path, lib: Path, recorded: Path) -> None:
    """Move a recorded admin cache into place once a JVM has started on it, and clean up."""
    try:
        jvm.find().keep(recorded, admin_archive(lib), f"{home / 'conf'}/*:{lib}/*")
    except OSError:
        pass
    finally:
        shutil.rmtree(recorded.parent, ignore_errors=True)


def import_csv(home: Path, out: CsvFolder, database: str = "neo4j") -> None:
    """``neo4j-admin database import full`` over the (stopped) database."""
    s = _settings(home)
    lib = configured_lib(home)
    record = _recording(lib)
    cmd = import_command(home, out, database, record=record)
    proc = subprocess.run(cmd, env=server._env(s), capture_output=True, text=True, cwd=home,
                          preexec_fn=die_with_parent)  # a killed run leaves no import writing on
    if record is not None:
        if proc.returncode == 0:
            _keep_recording(home, lib, record)
        else:
            shutil.rmtree(record.parent, ignore_errors=True)
    if proc.returncode != 0:
        lines = [ln for ln in (proc.stdout + proc.stderr).strip().splitlines() if ln.strip()]
        cause = next((ln for ln in lines if "Exception:" in ln), lines[-1] if lines else "no output")
        raise UserError(f"neo4j-admin import failed ({cause.strip()[:300]}); the server is stopped and "
                        f"the database incomplete: fix the cause and rerun `legalkg ingest` (it imports again)")


def start_server(home: Path, command: list[str] | None = None, timeout: float = 180.0) -> None:
    """Start the server with its existing neo4j.conf (``server.start`` would rewrite it): with the
    JVM command line it ran with before the import when known, else through the launcher."""
    s = _settings(home)
    if server.read_pid(s) is not None:
        server.wait_for_bolt(s, timeout)
    elif command and Path(command[0]).exists():
        server.relaunch(s, command, timeout)
    else:
        server.launch(s, configured_lib(home), timeout)


# --------------------------------------------------------------------------- the whole first load

def bulk_load(driver, db: str, home: Path, loaded: list[Law], report, registry, workers: int,
              progress: bool) -> None:
    """Write every law as CSV (in worker processes), import it, start the server, build the schema.

    The server stops in a background thread while the CSV is written (a graceful stop mostly
    waits). Fills ``report`` like the Cypher load does; every law counts as loaded
    and fresh; ``report.phases`` has the seconds of each step.
    """
    from concurrent.futures import ThreadPoolExecutor

    from tqdm import tqdm

    from ..cite import KnownUnits
    from .load import LawResult, _Extraction, parsed_unit_ids
    from .schema import ensure_schema

    clock = time.perf_counter()

    def lap(name: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        report.phases[name] = round(now - clock, 2)
        clock = now

    _forget_previous(home)
    marker = marker_path(home)
    command = server.running_command(_settings(home))
    if command is None:  # an interrupted import left the server down: its command is in the marker
        command = _marker_command(marker)
    marker.parent.mkdir(parents=True, exist_ok=True)
    partial = marker.with_suffix(".tmp")
    partial.write_text(json.dumps({"laws": len(loaded), "pid": os.getpid(), "started": time.time(),
                                   "command": command}), "utf-8")
    partial.replace(marker)
    stopper = ThreadPoolExecutor(max_workers=1, thread_name_prefix="legalkg-stop-neo4j")
    stopped = stopper.submit(stop_server, home)
    stopper.shutdown(wait=False)
    ids, repealed = parsed_unit_ids(loaded)
    known = KnownUnits(ids)
    folder = Path(tempfile.mkdtemp(prefix="legalkg-import-", dir=_import_dir(home)))
    out = CsvFolder(folder)
    extraction = (_Extraction(loaded, registry, known, repealed, workers, work=_law_csv_work)
                  if workers > 1 and loaded else None)
    try:
        root = CsvLines()
        root.node((Level.ROOT.value,), {"id": "ROOT", "name": "Bundesrecht", "source": "gesetze-im-internet.de"})
        out.add(root)
        stats = None
        first = len(report.laws)
        parts = extraction.as_completed() if extraction is not None else (
            (law, law_csv(law, registry, known, repealed)) for law in loaded)
        for law, (lines, nodes, cites, law_stats) in tqdm(parts, total=len(loaded), unit="law",
                                                          disable=not progress, desc="csv"):
            out.add(lines)
            report.cites_written += cites
            report.laws.append(LawResult(law=law.key, status="loaded", nodes=nodes))
            stats = law_stats if stats is None else stats.merge(law_stats)
        position = {law.key: i for i, law in enumerate(loaded)}
        report.laws[first:] = sorted(report.laws[first:], key=lambda r: position[r.law])  # any finish order
        if stats is not None:
            report.cite_stats = stats.model_dump(exclude={"examples"})
        out.close()
        lap("csv")
        stopped.result()  # re-raises what the stop raised
        lap("stop_wait")
        import_csv(home, out, db)
        lap("import")
    finally:
        if extraction is not None:
            extraction.close()
        out.close()
        shutil.rmtree(folder, ignore_errors=True)
    start_server(home, command)
    _forget_bookmarks(driver, db)
    lap("start")
    report.nodes_written = out.nodes
    report.fresh.update(law.key for law in loaded)
    ensure_schema(driver, db)  # waits until every index is online and the full-text ones caught up
    lap("schema")
    marker.unlink(missing_ok=True)


def _marker_command(marker: Path) -> list[str] | None:
    try:
        command = json.loads(marker.read_text("utf-8")).get("command")
    except (OSError, ValueError, AttributeError):
        return None
    return command if isinstance(command, list) and all(isinstance(a, str) for a in command) else None


def _forget_bookmarks(driver, db: str) -> None:
    """The driver's bookmarks name transactions of the replaced database (a higher id than the
    imported one has), and a query would wait for them until BookmarkTimeout: replace them with a
    bookmark of the new database (the manager ignores an update without new bookmarks)."""
    from .cypher import query

    with driver.session(database=db) as session:  # a plain session sends no bookmarks
        session.run(query("ping")).consume()
        fresh = session.last_bookmarks().raw_values
    manager = driver.execute_query_bookmark_manager
    manager.update_bookmarks(manager.get_bookmarks(), fresh)


def _import_dir(home: Path) -> Path:
    path = home / "import"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _forget_previous(home: Path) -> None:
    """CSV folders of earlier interrupted imports are rewritten from the parse, never reused."""
    for old in _import_dir(home).glob("legalkg-import-*"):
        shutil.rmtree(old, ignore_errors=True)


# --------------------------------------------------------------------------- choosing the loader

METHODS = ("auto", "cypher", "import")


def choose(uri: str, method: str, home: Path | None = None) -> tuple[Path | None, bool]:
    """The server home for a bulk import (or None) and whether an interrupted import is pending.

    Decided before connecting, because after an interrupted import the server may be down. Whether
    the database is empty is the caller's second question (:func:`graph_is_empty`).
    """
    if method not in METHODS:
        raise UserError(f"unknown load method {method!r}: choose one of {', '.join(METHODS)}")
    if method == "cypher":
        return None, False
    found = managed_home(uri, home)
    pending = import_pending(found)
    if found is not None and not pending and server.read_pid(_settings(found)) is None:
        found = None  # its conf names the port, but what answers there is another server (Docker?)
    if found is None:
        if method == "import":
            raise UserError(f"--method import needs the local server of `legalkg neo4j start` at {uri} "
                            f"(home {home or server.default_home()}); for Docker or remote servers use "
                            "--method cypher")
        return None, False
    return found, pending


def graph_is_empty(driver, db: str) -> bool:
    from .cypher import query

    return driver.execute_query(query("load/node_count"), database_=db).records[0]["n"] == 0
