"""The CSV that the bulk import reads and the choice of loader (pure: no server)."""

from __future__ import annotations

import csv

import pytest

from legalkg.graph import bulk
from legalkg.graph.load import parsed_unit_ids
from legalkg.parse import iter_laws


def test_fields_quote_strings_and_leave_absent_values_empty():
    assert bulk._field(None) == ""
    assert bulk._field("") == '""'  # an empty string stays a property, unlike a missing one
    assert bulk._field('Satz "1"') == '"Satz ""1"""'
    assert bulk._field(True) == "true" and bulk._field(False) == "false"
    assert bulk._field(12) == "12"
    assert bulk._field(["a", "b"]) == '"a\x1fb"'


def test_an_unknown_property_stops_before_anything_is_written():
    with pytest.raises(bulk.UnknownProperty, match="colour"):
        bulk.CsvLines().node(("Paragraph", "Unit"), {"id": "X/§1", "colour": "red"})


def test_kschg_csv_reads_back_to_its_units(tmp_path, shared_gii):
    """Python's csv reader (RFC 4180 like the importer) gets every unit's text back unchanged."""
    from legalkg.cite import KnownUnits, LawRegistry

    [(_, law)] = list(iter_laws(shared_gii, ["kschg"]))
    ids, repealed = parsed_unit_ids([law])
    lines, nodes, cites, _ = bulk.law_csv(law, LawRegistry.default(), KnownUnits(ids), repealed)
    out = bulk.CsvFolder(tmp_path)
    out.add(lines)
    out.close()
    with (tmp_path / "nodes-Absatz-Unit.csv").open(encoding="utf-8", newline="") as fh:
        rows = {r["id:ID"]: r for r in csv.DictReader(fh)}
    absatz = {u.id: u for u in law.units if u.level.value == "Absatz"}
    assert rows.keys() == absatz.keys()
    assert all(rows[i]["text:string"] == absatz[i].text for i in rows)
    assert rows["KSchG/§1/Abs1"]["order:long"] == str(absatz["KSchG/§1/Abs1"].order)
    with (tmp_path / "nodes-Gesetz.csv").open(encoding="utf-8", newline="") as fh:
        [gesetz] = list(csv.DictReader(fh))
    assert gesetz["id:ID"] == "KSchG" and gesetz["hash:string"] == gesetz["gen:string"]
    assert len(gesetz["cites_hash:string"]) == 24
    with (tmp_path / "rels.csv").open(encoding="utf-8", newline="") as fh:
        rels = list(csv.DictReader(fh))
    assert sum(r[":TYPE"].startswith("CITES_") for r in rels) == cites > 0
    assert nodes == out.nodes  # the Gesetz node and every unit, chunk and Gliederung node
    assert "--relationships=" + str(tmp_path / "rels.csv") in out.import_args()
    assert "--nodes=Absatz:Unit=" + str(tmp_path / "nodes-Absatz-Unit.csv") in out.import_args()


def test_managed_home_matches_the_bolt_port_of_its_conf(tmp_path):
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "neo4j.conf").write_text("server.bolt.listen_address=127.0.0.1:7699\n")
    assert bulk.managed_home("bolt://127.0.0.1:7699", tmp_path) == tmp_path
    assert bulk.managed_home("neo4j://localhost:7699", tmp_path) == tmp_path
    assert bulk.managed_home("bolt://127.0.0.1:7687", tmp_path) is None
    assert bulk.managed_home("bolt://db.example.org:7699", tmp_path) is None
    assert bulk.managed_home("bolt://127.0.0.1:7699", tmp_path / "missing") is None


def test_choose_takes_the_import_only_for_a_running_local_server_or_a_pending_import(tmp_path):
    from legalkg.errors import UserError

    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "neo4j.conf").write_text(
        "server.bolt.listen_address=127.0.0.1:7699\nserver.http.listen_address=127.0.0.1:7498\n")
    uri = "bolt://127.0.0.1:7699"
    # conf matches but no server of this home runs: whatever answers there is someone else's
    assert bulk.choose(uri, "auto", tmp_path) == (None, False)
    with pytest.raises(UserError, match="--method import needs the local server"):
        bulk.choose(uri, "import", tmp_path)
    assert bulk.choose(uri, "cypher", tmp_path) == (None, False)
    (tmp_path / "run").mkdir()
    bulk.marker_path(tmp_path).write_text("{}")
    assert bulk.choose(uri, "auto", tmp_path) == (tmp_path, True)  # an interrupted import: redo it
    with pytest.raises(UserError, match="unknown load method"):
        bulk.choose(uri, "fast", tmp_path)


def test_heap_sizes_of_neo4j_conf_become_jvm_sizes():
    assert bulk._jvm_size("1g") == "1g"
    assert bulk._jvm_size("512m") == "512m"
    assert bulk._jvm_size("2GiB") == "2g"
    assert bulk._jvm_size("1024") == "1024"
    assert bulk._jvm_size(None) is None
    assert bulk._jvm_size("lots") is None


def test_content_hash_keeps_its_definition():
    """Graphs from earlier versions compare their stored hashes with new ones: a changed definition
    would make every unit of every law look changed on the next ingest."""
    import hashlib
    import json

    from legalkg.graph.rows import _hash

    props = {"text": "Die Kündigung „gilt“ als 'wirksam'", "words": 5, "footnotes": ["a", "b"], "level": "Satz"}
    assert _hash(props) == hashlib.sha256(
        json.dumps(props, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:24]
    assert _hash(props) != _hash({**props, "words": 6})


def test_an_admin_cache_that_failed_to_record_is_not_recorded_again(tmp_path, monkeypatch):
    """A recording that produced no usable cache marks it failed; the next import records nothing
    (it would pay the training time again) and a killed recording's old folder is swept."""
    import os

    from legalkg.graph import jvm

    java = tmp_path / "jdk" / "bin" / "java"
    java.parent.mkdir(parents=True)
    java.write_text("#!/bin/sh\nexit 0\n")
    java.chmod(0o755)
    monkeypatch.setattr(jvm, "find", lambda env=None: jvm.Java(path=str(java), major=25))
    archive = tmp_path / "cache" / "lib-fp-admin.aot"
    monkeypatch.setattr(bulk, "admin_archive", lambda lib: archive)
    archive.parent.mkdir()
    killed = archive.parent / "train-admin-killed"
    killed.mkdir()
    os.utime(killed, (0, 0))
    recording = bulk._recording(tmp_path / "lib")
    assert recording is not None and recording.parent.name.startswith("train-admin-")
    assert not killed.exists()
    bulk._keep_recording(tmp_path / "home", tmp_path / "lib", recording)  # the JVM wrote no cache
    assert not recording.parent.exists() and not archive.exists()
    assert "wrote no cache" in jvm.failed_marker(archive).read_text("utf-8")
    assert bulk._recording(tmp_path / "lib") is None
