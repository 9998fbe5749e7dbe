"""`legalkg ingest` against the live server: idempotent, resumable, Stand updates, bad files (issue 5)."""

from __future__ import annotations

import gc
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner, Result

from legalkg import gcpolicy
from legalkg.cli import main
from legalkg.codes import resolve_codes
from legalkg.graph.admin import wipe
from legalkg.graph.ingest import ingest_laws
from legalkg.graph.inspect import graph_checksum, label_counts, relationship_counts
from legalkg.graph.load import LoadSettings, graph_unit_ids
from legalkg.parse import iter_laws

from ..processes import children, orphans_after

SMALL = "BUrlG,KSchG,TzBfG,AGG"


def _ingest(*args: str) -> Result:
    return CliRunner().invoke(main, ["ingest", "--no-embed", "--quiet", *args])


@pytest.fixture
def clean(driver, neo4j_cfg, neo4j_env):
    wipe(driver, neo4j_cfg.database)
    return driver


def test_ingest_twice_changes_nothing(clean, neo4j_cfg):
    first = _ingest("--codes", SMALL)
    assert first.exit_code == 0, first.output
    assert "4 loaded" in first.output
    db = neo4j_cfg.database
    counts, rels, checksum = label_counts(clean, db), relationship_counts(clean, db), graph_checksum(clean, db)
    assert counts["Gesetz"] == 4 and counts["Paragraph"] > 100 and counts["Satz"] > counts["Paragraph"]
    assert rels["CONTAINS_PARAGRAPH"] == counts["Paragraph"]
    assert rels.get("CITES_PARAGRAPH", 0) + rels.get("CITES_ABSATZ", 0) > 0
    # the shipped case predictor's LER decisions cite 4 pairs of these laws' §§ at least twice
    # (e.g. § 7 KSchG with § 17 TzBfG, 3 decisions); the lay questions one: § 3 AGG (harassment, a
    # less favourable treatment) with § 7 AGG (its ban at work), in 2 training questions beyond BGB
    # (eval/lay-beyond-train: laytrain-a-0074, a-0287)
    assert rels["CO_CITED"] == 5 and "co-citations: 1 lay, 4 case CO_CITED edges" in first.output
    second = _ingest("--codes", SMALL)
    assert second.exit_code == 0, second.output
    assert "0 loaded, 4 unchanged" in second.output and "0 citation edges written" in second.output
    assert "4 case CO_CITED edges" in second.output
    assert label_counts(clean, db) == counts
    assert relationship_counts(clean, db) == rels
    assert graph_checksum(clean, db) == checksum


def test_unit_ids_from_the_parse_equal_the_graphs(clean, neo4j_cfg):
    """Citation resolution takes the loaded laws' unit ids from their parse, not the wire: both
    must be the same sets (a law outside the run still comes from the graph)."""
    assert _ingest("--codes", SMALL).exit_code == 0
    db = neo4j_cfg.database
    laws = [law for _, law in iter_laws(None, ["kschg", "burlg"])]
    from_graph = graph_unit_ids(clean, db)
    mixed = graph_unit_ids(clean, db, laws)
    assert mixed == from_graph
    assert any(i.startswith("AGG/") for i in from_graph[0]) and any(i.startswith("KSchG/") for i in mixed[0])


def test_workers_give_the_same_graph(clean, neo4j_cfg):
    """--workers 2 parses and extracts citations in processes; the graph must be identical."""
    db = neo4j_cfg.database
    assert _ingest("--codes", SMALL).exit_code == 0
    serial = (label_counts(clean, db), relationship_counts(clean, db), graph_checksum(clean, db))
    wipe(clean, db)
    res = _ingest("--codes", SMALL, "--workers", "2")
    assert res.exit_code == 0, res.output
    assert (label_counts(clean, db), relationship_counts(clean, db), graph_checksum(clean, db)) == serial
    assert serial[1].get("CITES_PARAGRAPH", 0) > 0


def test_kschg_paragraph_1_is_in_the_graph(clean, neo4j_cfg):
    assert _ingest("--codes", "KSchG").exit_code == 0
    rec = clean.execute_query(
        "MATCH (g:Gesetz {id: 'KSchG'})-[:CONTAINS_GLIEDERUNG|CONTAINS_PARAGRAPH*1..4]->(p:Paragraph {id: 'KSchG/§1'})"
        "-[:CONTAINS_ABSATZ]->(a:Absatz {id: 'KSchG/§1/Abs1'}) RETURN p.citation AS c, a.text AS t, a:Unit AS unit",
        database_=neo4j_cfg.database).records
    assert rec, "§ 1 KSchG with its Absatz 1 under the Gesetz"
    assert rec[0]["c"] == "§ 1 KSchG" and rec[0]["unit"]
    assert rec[0]["t"].startswith("Die Kündigung des Arbeitsverhältnisses gegenüber einem Arbeitnehmer")


def test_chunks_list_the_units_they_cover_without_edges(clean, neo4j_cfg):
    """A Chunk names the units it overlaps in ``covers`` (ids of existing units, in document order:
    the first window of the KSchG starts with § 1 Abs. 1); no relationship touches a Chunk."""
    assert _ingest("--codes", "KSchG").exit_code == 0
    db = neo4j_cfg.database
    rec = clean.execute_query(
        "MATCH (c:Chunk {law: 'KSchG'}) WITH c ORDER BY c.order "
        "RETURN collect(c.covers)[0] AS first, count(c) AS chunks, sum(COUNT { (c)--() }) AS edges, "
        "sum(size([id IN c.covers WHERE NOT EXISTS { MATCH (:Unit {id: id}) }])) AS dangling",
        database_=db).records[0]
    assert rec["chunks"] > 10 and rec["edges"] == 0 and rec["dangling"] == 0
    assert rec["first"][0].startswith("KSchG/§1/Abs1")


@pytest.mark.slow  # a killed ingest and its rerun (docs/benchmarks/tests.md)
def test_sigkill_mid_ingest_then_rerun_equals_clean_ingest(clean, neo4j_cfg, tmp_path):
    db = neo4j_cfg.database
    assert _ingest("--codes", SMALL).exit_code == 0
    reference = graph_checksum(clean, db)
    wipe(clean, db)
    proc = subprocess.Popen([sys.executable, "-m", "legalkg.cli", "ingest", "--no-embed", "--quiet",
                             "--codes", SMALL, "--batch", "100", "--workers", "2"], env=os.environ.copy(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if label_counts(clean, db).get("Satz", 0) > 50:
            break
        time.sleep(0.05)
    assert proc.poll() is None, "ingest finished before it could be killed; use more laws"
    workers = children(proc.pid)
    assert workers, "the ingest runs citation extraction workers beside the structure load"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    # an orphaned worker would keep the killed run's connection, transaction and locks open
    assert orphans_after(workers) == []
    partial = graph_checksum(clean, db)
    assert partial != reference
    rerun = _ingest("--codes", SMALL)
    assert rerun.exit_code == 0, rerun.output
    assert graph_checksum(clean, db) == reference


def test_newer_stand_replaces_changed_and_removes_vanished_units(clean, neo4j_cfg, shared_gii, tmp_path):
    db = neo4j_cfg.database
    src = tmp_path / "v1"
    src.mkdir()
    shutil.copy(shared_gii / "burlg.xml", src / "burlg.xml")
    assert _ingest("--codes", "BUrlG", "--source", str(src)).exit_code == 0
    xml = (src / "burlg.xml").read_text("utf-8")
    # § 1 BUrlG: "Jeder Arbeitnehmer hat in jedem Kalenderjahr Anspruch auf bezahlten Erholungsurlaub."
    assert "Anspruch auf bezahlten Erholungsurlaub." in xml
    newer = xml.replace("Anspruch auf bezahlten Erholungsurlaub.", "Anspruch auf bezahlten Urlaub.")
    start = newer.index('<enbez>§ 15a</enbez>')
    norm_start = newer.rindex("<norm ", 0, start)
    norm_end = newer.index("</norm>", start) + len("</norm>")
    newer = newer[:norm_start] + newer[norm_end:]
    v2 = tmp_path / "v2"
    v2.mkdir()
    (v2 / "burlg.xml").write_text(newer, "utf-8")
    result = _ingest("--codes", "BUrlG", "--source", str(v2))
    assert result.exit_code == 0 and "1 loaded" in result.output
    text = clean.execute_query("MATCH (s:Satz {id: 'BUrlG/§1/S1'}) RETURN s.text AS t", database_=db).records
    assert text[0]["t"].endswith("Anspruch auf bezahlten Urlaub.")
    gone = clean.execute_query("MATCH (n) WHERE n.id STARTS WITH 'BUrlG/§15a' RETURN count(n) AS c",
                               database_=db).records[0]["c"]
    assert gone == 0
    updated = graph_checksum(clean, db)
    wipe(clean, db)
    assert _ingest("--codes", "BUrlG", "--source", str(v2)).exit_code == 0
    assert graph_checksum(clean, db) == updated


def test_malformed_file_is_reported_and_good_ones_load(clean, neo4j_cfg, shared_gii, tmp_path):
    for slug in ("burlg", "kschg"):
        shutil.copy(shared_gii / f"{slug}.xml", tmp_path / f"{slug}.xml")
    (tmp_path / "broken.xml").write_text((shared_gii / "tzbfg.xml").read_text("utf-8")[:5000], "utf-8")
    result = CliRunner().invoke(main, ["ingest", "--no-embed", "--quiet", "--codes", "all",
                                       "--source", str(tmp_path)])
    assert result.exit_code == 1
    errors = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert any("broken" in line for line in errors), result.output
    assert "Traceback" not in result.output
    laws = {r["id"] for r in clean.execute_query("MATCH (g:Gesetz) RETURN g.id AS id",
                                                 database_=neo4j_cfg.database).records}
    assert laws == {"BUrlG", "KSchG"}


def test_unknown_code_is_reported(clean):
    result = _ingest("--codes", "BUrlG,NOSUCHLAW")
    assert result.exit_code == 1
    assert "nosuchlaw" in result.output.lower()


@pytest.mark.parametrize("env", [{"NEO4J_URI": "bolt://127.0.0.1:1"}, {"NEO4J_PASSWORD": "definitely-wrong"}])
def test_server_down_or_wrong_password_exit_2(neo4j_env, monkeypatch, env):
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    result = _ingest("--codes", "BUrlG")
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:"), result.output


def test_ingest_runs_with_the_relaxed_collector(clean, neo4j_cfg):
    """The load sets the bulk thresholds (legalkg.gcpolicy) while it runs and restores them."""
    seen = []
    before = gc.get_threshold()
    report = ingest_laws(clean, neo4j_cfg.database, iter_laws(None, resolve_codes("KSchG")),
                         settings=LoadSettings(progress=False),
                         after_structure=lambda laws: seen.append(gc.get_threshold()))
    assert report.failures == [] and seen and set(seen) == {gcpolicy.THRESHOLDS}
    assert gc.get_threshold() == before
