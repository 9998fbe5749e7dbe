"""The parts of a bulk ingest, each against the way it was done before, in the same run.

Five comparisons, interleaved and repeated (``--repeat``), medians and ratios reported:

1. server stop: Bolt's Netty quiet period at its default (5 s) vs 0 (what ``conf.write_conf`` sets);
2. server start until Bolt answers: Neo4j's launcher without the class-data archive, the launcher
   with it, and the recorded JVM command with it (what the bulk import's restart does);
3. the offline importer on the 58 codes' CSV: its JVM with the JIT defaults (what ingest runs) vs
   with ``-XX:CompileThresholdScaling=4`` (fewer compilations; tried, not kept);
4. the CSV phase of the 58 codes (citation extraction + CSV lines, 2 worker processes): every unit's
   text tokenized and scanned on its own (``unitscan.scan_each``) vs each top unit tokenized once and
   the units below scanned over its slices (``unitscan.unit_chains``, what ingest does);
5. the schema step on the imported 58 codes (``schema.ensure_schema``), each time on a freshly
   started server with no schema, whose start-up cache was recorded by ``training.TRAINING`` (as
   shipped) vs by :data:`STORE_TRAINING`, a store first and then its schema (tried, not kept).

Earlier versions of this script compared other parts; the git history of docs/benchmarks/ingest.md keeps
their results (docs/benchmarks/changelog.md).

Appends a section to docs/benchmarks/ingest-runs.md.

    .venv/bin/python benchmarks/bulk_parts.py --repeat 3
"""

from __future__ import annotations

import argparse
import datetime as dt
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from neo4j import GraphDatabase

from legalkg import codes as codes_mod
from legalkg.cite import KnownUnits, LawRegistry, statute, unitscan
from legalkg.graph import import_files
from legalkg.graph.bulk import law_csv_work
from legalkg.graph.cypher import statements
from legalkg.graph.extraction import Extraction, parsed_unit_ids
from legalkg.graph.schema import ensure_schema
from legalkg.parse import iter_laws
from legalkg.paths import REPO_ROOT
from legalkg.server import caches, jvm, offline_import, process, startup
from legalkg.server.conf import ServerSettings, environment, settings_of, write_conf
from legalkg.server.jars import ensure_jars
from legalkg.server.process import free_port
from legalkg.server.training import record_class_archive

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # research/ is not installed
from research.machine import calibration_ms, children_cpu, cpu_model, cpu_times, steal_text  # noqa: E402

QUIET = "internal.dbms.bolt.netty_server_shutdown_quiet_period"


def timed(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


#: CPU seconds per part (finished child processes): less shaken by a VM whose speed changes than wall time
CPU: dict[str, list[float]] = {}


def server_parts(home: Path, repeat: int) -> dict[str, list[float]]:
    base = ServerSettings(home=home, bolt_port=free_port(), http_port=free_port(), auth=False,
                          heap="2g", pagecache="1g")
    lib = ensure_jars()
    if not caches.class_archive(lib).exists():
        print("recording the class-data archive first:", record_class_archive(lib), flush=True)
    res: dict[str, list[float]] = {k: [] for k in (
        "stop, quiet period 5 s (default)", "stop, quiet period 0",
        "start, launcher, no archive", "start, launcher, archive", "start, recorded command, archive")}
    for i in range(repeat):
        for quiet in ("default", "0"):
            s = base.model_copy(update={"extra": {QUIET: None} if quiet == "default" else {}})
            startup.start(s, timeout=300)
            res[f"stop, quiet period {'5 s (default)' if quiet == 'default' else '0'}"].append(
                timed(lambda s=s: process.stop(s)))
        no_archive = base.model_copy(update={"class_archive": False})
        res["start, launcher, no archive"].append(timed(lambda s=no_archive: startup.start(s, timeout=300)))
        process.stop(no_archive)
        res["start, launcher, archive"].append(timed(lambda: startup.start(base, timeout=300)))
        command = process.running_command(base)
        process.stop(base)
        res["start, recorded command, archive"].append(timed(lambda cmd=command: process.relaunch(base, cmd, 300)))
        process.stop(base)
        print(f"round {i + 1}:", {k: round(v[-1], 2) for k, v in res.items()}, flush=True)
    return res


def csv_parts(home: Path, laws, repeat: int) -> tuple[dict[str, list[float]], import_files.CsvFolder]:
    ids, repealed = parsed_unit_ids(laws)
    known, registry = KnownUnits(ids), LawRegistry.default()
    variants = {"CSV phase, every text scanned on its own": unitscan.scan_each,
                "CSV phase, top units tokenized once": unitscan.unit_chains}
    res: dict[str, list[float]] = {name: [] for name in variants}
    folder = None
    for i in range(repeat):
        for name, chains in variants.items():
            statute.unit_chains = chains  # the extraction workers fork from here and scan with it
            folder = Path(tempfile.mkdtemp(prefix="csv-", dir=home))
            out = import_files.CsvFolder(folder)
            t, c = time.perf_counter(), children_cpu()
            out.add(import_files.root_lines())
            ex = Extraction(laws, registry, known, repealed, 2, work=law_csv_work)
            for _law, (lines, *_rest) in ex.as_completed():
                out.add(lines)
            ex.close()
            out.close()
            res[name].append(time.perf_counter() - t)
            CPU.setdefault(name, []).append(children_cpu() - c)
            if i < repeat - 1 or name != "CSV phase, top units tokenized once":
                shutil.rmtree(folder)
        print(f"round {i + 1}:", {k: round(v[-1], 2) for k, v in res.items()}, flush=True)
    statute.unit_chains = unitscan.unit_chains
    return res, out


IMPORT_VARIANTS = {"import, JIT defaults (as shipped)": (),
                   "import, CompileThresholdScaling=4 (tried, not kept)": ("-XX:CompileThresholdScaling=4",)}


def import_parts(home: Path, out: import_files.CsvFolder, repeat: int) -> dict[str, list[float]]:
    s = settings_of(home)
    res: dict[str, list[float]] = {name: [] for name in IMPORT_VARIANTS}
    for i in range(repeat):
        for name, jit in IMPORT_VARIANTS.items():
            cmd = offline_import.import_command(home, out.import_args(), jit=jit)
            t, c = time.perf_counter(), children_cpu()
            proc = subprocess.run(cmd, env=environment(s), capture_output=True, text=True, cwd=home)
            res[name].append(time.perf_counter() - t)
            CPU.setdefault(name, []).append(children_cpu() - c)
            assert proc.returncode == 0, proc.stdout[-500:] + proc.stderr[-500:]
        print(f"round {i + 1}:", {k: round(v[-1], 2) for k, v in res.items()}, flush=True)
    return res


#: A training closer to a bulk load (tried 2026-11-30, not kept): two labels of
#: 40,000 stored nodes each, then constraints, a range index and full-text indexes (one over two
#: properties) populated from the store, then writes under them, a full-text query, a traversal.
STORE_TRAINING = [
    "UNWIND range(1, $n) AS i CREATE (:T:U {id: 'T/' + i, law: 'L' + (i % 50), title: 'Titel ' + i, "
    "text: $text + ' ' + i})",
    "UNWIND range(1, $n) AS i CREATE (:S:U {id: 'S/' + i, law: 'L' + (i % 50), text: $text + ' Satz ' + i})",
    "MATCH (a:T), (b:S) WHERE a.id = 'T/' + substring(b.id, 2) CREATE (a)-[:CONTAINS_S]->(b)",
    "CREATE CONSTRAINT t_id IF NOT EXISTS FOR (n:T) REQUIRE n.id IS UNIQUE",
    "CREATE CONSTRAINT s_id IF NOT EXISTS FOR (n:S) REQUIRE n.id IS UNIQUE",
    "CREATE CONSTRAINT u_id IF NOT EXISTS FOR (n:U) REQUIRE n.id IS UNIQUE",
    "CREATE INDEX u_law IF NOT EXISTS FOR (n:U) ON (n.law)",
    "CREATE FULLTEXT INDEX t_text IF NOT EXISTS FOR (n:T) ON EACH [n.text, n.title] "
    "OPTIONS {indexConfig: {`fulltext.analyzer`: 'german', `fulltext.eventually_consistent`: true}}",
    "CREATE FULLTEXT INDEX s_text IF NOT EXISTS FOR (n:S) ON EACH [n.text] "
    "OPTIONS {indexConfig: {`fulltext.analyzer`: 'german', `fulltext.eventually_consistent`: true}}",
    "CALL db.awaitIndexes(300)",
    "CALL db.index.fulltext.awaitEventuallyConsistentIndexRefresh()",
    "UNWIND range(1, 200) AS i MERGE (n:T {id: 'T/x' + i}) SET n.text = 'Der Käufer zahlt ' + i "
    "WITH n MATCH (r:T {id: 'T/1'}) MERGE (r)-[:CONTAINS_T]->(n)",
    "CALL db.index.fulltext.awaitEventuallyConsistentIndexRefresh()",
    "CALL db.index.fulltext.queryNodes('t_text', 'Käufer') YIELD node, score RETURN node.id, score LIMIT 5",
    "MATCH (n:T)-[:CONTAINS_T|CONTAINS_S]->(m) RETURN count(m)",
]
STORE_TRAINING_PARAMS = {"n": 40_000, "text": (
    "Der Verkäufer ist verpflichtet, dem Käufer die Sache frei von Sach- und Rechtsmängeln zu verschaffen. "
    "Die Sache ist frei von Sachmängeln, wenn sie bei Gefahrübergang die vereinbarte Beschaffenheit hat; "
    "Ansprüche aus § 437 BGB verjähren in zwei Jahren.")}


def schema_parts(settings: ServerSettings, repeat: int) -> dict[str, list[float]]:
    """``schema.ensure_schema`` on the imported store, on a freshly started server without schema
    whose start-up cache was recorded by ``training.TRAINING`` (as shipped) vs :data:`STORE_TRAINING`."""
    lib = ensure_jars()
    java = jvm.find()
    shipped = caches.class_archive(lib)
    if not shipped.exists():
        print("recording the server cache first:", record_class_archive(lib), flush=True)
    tried = settings.home / f"store-training{java.suffix}"
    assert record_class_archive(lib, training=STORE_TRAINING, target=tried,
                                       params=STORE_TRAINING_PARAMS), "recording failed"
    variants = {"schema, server cache from the shipped training": shipped,
                "schema, server cache from a store, then its schema (tried, not kept)": tried}
    res: dict[str, list[float]] = {k: [] for k in variants}
    for i in range(repeat):
        for name, cache in variants.items():
            s = settings.model_copy(update={"class_archive": False, "extra": {
                "server.jvm.additional": " ".join([*java.flags, *java.use_cache(cache)])}})
            write_conf(s, lib)
            process.launch(s, lib)
            with GraphDatabase.driver(s.bolt_uri, auth=None) as drv:
                for r in drv.execute_query("SHOW CONSTRAINTS YIELD name").records:
                    drv.execute_query("DROP CONSTRAINT $name", {"name": r["name"]})
                for r in drv.execute_query("SHOW INDEXES YIELD name, type WHERE type <> 'LOOKUP'").records:
                    drv.execute_query("DROP INDEX $name", {"name": r["name"]})
            process.stop(s)
            process.launch(s, lib)
            with GraphDatabase.driver(s.bolt_uri, auth=None) as drv:
                res[name].append(timed(lambda: ensure_schema(drv, "neo4j")))
                online = drv.execute_query("SHOW INDEXES YIELD state WHERE state = 'ONLINE' "
                                           "RETURN count(*) AS n").records[0]["n"]
                assert online == 2 + len(statements("schema")), online  # one index per statement + 2 lookups
            process.stop(s)
        print(f"round {i + 1}:", {k: round(v[-1], 2) for k, v in res.items()}, flush=True)
    return res


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--codes", default="default")
    ap.add_argument("--parts", default="server,csv,import,schema",
                    help="comma-separated subset of server,csv,import,schema")
    args = ap.parse_args()
    parts = set(args.parts.split(","))
    cpu_start, calibration = cpu_times(), calibration_ms()
    home = Path(tempfile.mkdtemp(prefix="legalkg-parts-"))
    try:
        results = server_parts(home, args.repeat) if "server" in parts else {}
        if parts & {"csv", "import", "schema"}:
            laws = [law for _, law in iter_laws(None, codes_mod.resolve_codes(args.codes), workers=2)]
            csv_res, out = csv_parts(home, laws, args.repeat if "csv" in parts else 1)
            if "csv" in parts:
                results.update(csv_res)
            settings = ServerSettings(home=home, bolt_port=free_port(), http_port=free_port(),
                                      auth=False, heap="2g", pagecache="1g")
            write_conf(settings, ensure_jars())
            if parts & {"import", "schema"}:
                imported = import_parts(home, out, args.repeat if "import" in parts else 1)
                if "import" in parts:
                    results.update(imported)
            if "schema" in parts:
                results.update(schema_parts(settings, args.repeat))
    finally:
        shutil.rmtree(home, ignore_errors=True)
    med = {k: statistics.median(v) for k, v in results.items()}
    pairs = [("stop, quiet period 5 s (default)", "stop, quiet period 0"),
             ("start, launcher, no archive", "start, launcher, archive"),
             ("start, launcher, no archive", "start, recorded command, archive"),
             ("CSV phase, every text scanned on its own", "CSV phase, top units tokenized once"),
             ("import, JIT defaults (as shipped)", "import, CompileThresholdScaling=4 (tried, not kept)"),
             ("schema, server cache from the shipped training",
              "schema, server cache from a store, then its schema (tried, not kept)")]
    pairs = [(a, b) for a, b in pairs if a in med and b in med]
    lines = [f"\n### {dt.date.today()}: parts of the bulk ingest, before vs now "
             f"(`python benchmarks/bulk_parts.py --repeat {args.repeat} --parts {args.parts}`, "
             f"{args.codes} codes)\n",
             f"Median of {args.repeat} interleaved rounds, seconds (all values in brackets). {cpu_model()}; CPU steal "
             f"{steal_text(cpu_start)}, calibration loop {calibration:.1f} ms at the start, "
             f"{calibration_ms():.1f} ms at the end.\n",
             "| part | before | now | before / now | CPU s of child processes, before -> now |",
             "|---|---:|---:|---:|---|"]
    for before, now in pairs:
        cpu = (f"{statistics.median(CPU[before]):.1f} -> {statistics.median(CPU[now]):.1f} "
               f"({statistics.median(CPU[before]) / statistics.median(CPU[now]):.2f}x)" if before in CPU else "-")
        lines.append(f"| {before} -> {now.split(', ', 1)[1]} | {med[before]:.2f} "
                     f"({', '.join(f'{x:.1f}' for x in results[before])}) | {med[now]:.2f} "
                     f"({', '.join(f'{x:.1f}' for x in results[now])}) | {med[before] / med[now]:.2f}x | {cpu} |")
    text = "\n".join(lines) + "\n"
    print(text)
    with (REPO_ROOT / "docs" / "benchmarks" / "ingest-runs.md").open("a", encoding="utf-8") as fh:
        fh.write(text)


if __name__ == "__main__":
    main()
