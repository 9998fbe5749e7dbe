"""The CSV that the bulk import reads and the choice of loader (pure: no server)."""

from __future__ import annotations

import csv
import hashlib
import json

import pytest

from legalkg.cite import KnownUnits, LawRegistry
from legalkg.errors import UserError
from legalkg.graph import import_files
from legalkg.graph.extraction import parsed_unit_ids
from legalkg.graph.ingest import Plan, plan_load
from legalkg.graph.rows import content_hash
from legalkg.parse import iter_laws
from legalkg.server.offline_import import marker_path


def test_fields_quote_strings_and_leave_absent_values_empty():
    assert import_files.csv_field(None) == ""
    assert import_files.csv_field("") == '""'  # an empty string stays a property, unlike a missing one
    assert import_files.csv_field('Satz "1"') == '"Satz ""1"""'
    assert import_files.csv_field(True) == "true" and import_files.csv_field(False) == "false"
    assert import_files.csv_field(12) == "12"
    assert import_files.csv_field(["a", "b"]) == '"a\x1fb"'


def test_an_unknown_property_stops_before_anything_is_written():
    with pytest.raises(import_files.UnknownProperty, match="colour"):
        import_files.CsvLines().node(("Paragraph", "Unit"), {"id": "X/§1", "colour": "red"})


def test_kschg_csv_reads_back_to_its_units(tmp_path, shared_gii):
    """Python's csv reader (RFC 4180 like the importer) gets every unit's text back unchanged."""
    [(_, law)] = list(iter_laws(shared_gii, ["kschg"]))
    ids, repealed = parsed_unit_ids([law])
    lines, nodes, cites, _ = import_files.law_csv(law, LawRegistry.default(), KnownUnits(ids), repealed)
    out = import_files.CsvFolder(tmp_path)
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
    with (tmp_path / "nodes-Term.csv").open(encoding="utf-8", newline="") as fh:
        terms = list(csv.DictReader(fh))
    # KSchG defines one term: § 20 Abs. 1 S. 1
    # "... trifft deren Geschäftsführung oder ein Ausschuß (Entscheidungsträger)."
    assert [t["term:string"] for t in terms] == ["Entscheidungsträger"]
    # the reported count is the law's structure: the Gesetz node and every unit, chunk and Gliederung node
    assert nodes == out.nodes - len(terms)
    assert "--relationships=" + str(tmp_path / "rels.csv") in out.import_args()
    assert "--nodes=Absatz:Unit=" + str(tmp_path / "nodes-Absatz-Unit.csv") in out.import_args()


def test_the_plan_takes_the_import_only_for_a_running_local_server_or_a_pending_import(tmp_path):
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "neo4j.conf").write_text(
        "server.bolt.listen_address=127.0.0.1:7699\nserver.http.listen_address=127.0.0.1:7498\n")
    uri = "bolt://127.0.0.1:7699"
    # conf matches but no server of this home runs: whatever answers there is someone else's
    assert plan_load(uri, "auto", tmp_path) == Plan("auto", uri)
    with pytest.raises(UserError, match="--method import needs the local server"):
        plan_load(uri, "import", tmp_path)
    assert plan_load(uri, "cypher", tmp_path) == Plan("cypher", uri)
    (tmp_path / "run").mkdir()
    marker_path(tmp_path).write_text("{}")
    assert plan_load(uri, "auto", tmp_path) == Plan("auto", uri, tmp_path, True)  # an interrupted import: redo it
    assert plan_load(uri, "cypher", tmp_path).home is None  # forced Cypher ignores the marker
    with pytest.raises(UserError, match="unknown load method"):
        plan_load(uri, "fast", tmp_path)


def test_content_hash_keeps_its_definition():
    """Graphs from earlier versions compare their stored hashes with new ones: a changed definition
    would make every unit of every law look changed on the next ingest."""
    props = {"text": "Die Kündigung „gilt“ als 'wirksam'", "words": 5, "footnotes": ["a", "b"], "level": "Satz"}
    assert content_hash(props) == hashlib.sha256(
        json.dumps(props, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:24]
    assert content_hash(props) != content_hash({**props, "words": 6})


