"""`legalkg ingest-cases` against the live server (issue 46): Decision nodes, CITES_* edges to the
deepest unit, CITES_DECISION by file number, idempotent re-ingest, bad records counted and skipped.

The decisions are short constructed Open Legal Data records (the shared data holds no case dump);
their cited units were checked by hand against BGB and ZPO (see tests/cases/test_decisions.py).
"""

from __future__ import annotations

import gzip
import json

import pytest
from click.testing import CliRunner

from legalkg.cli import main
from legalkg.graph.inspect import graph_checksum, relationship_counts
from legalkg.paths import eval_dir

EIGENBEDARF = ("<h2>Tatbestand</h2><p>Die Vermieterin kündigte wegen Eigenbedarfs.</p><h2>Entscheidungsgründe</h2>"
               "<p>Die Kündigung ist nach § 573 Abs. 2 Nr. 2 BGB wirksam (BGH, Urteil vom 22. Mai 2019 – VIII ZR "
               "180/18). § 573 Abs. 2 Nr. 2 BGB verlangt keinen Nachweis; die Kosten trägt sie nach § 91 Abs. 1 "
               "ZPO.</p>")
HAERTE = "<p>Der Mieter beruft sich auf § 574 Abs. 1 Satz 1 BGB; die Revision ist nach § 543 Abs. 2 ZPO zuzulassen.</p>"


def case(id_: int, file_number: str, day: str, content: str, court: str = "Bundesgerichtshof") -> dict:
    return {"id": id_, "court": {"name": court}, "file_number": file_number, "date": day, "type": "Urteil",
            "content": content}


@pytest.fixture(scope="module")
def graph(load_graph, driver, neo4j_cfg):
    """BGB and ZPO without vectors; the decisions are removed again afterwards (other modules share
    the session graph)."""
    load_graph("BGB,ZPO", model=None)
    remove_decisions(driver, neo4j_cfg.database)
    yield driver
    remove_decisions(driver, neo4j_cfg.database)


def remove_decisions(driver, db: str) -> None:
    driver.execute_query("MATCH (d:Decision) DETACH DELETE d", database_=db)


def run(*args: str):
    return CliRunner().invoke(main, ["ingest-cases", "--quiet", "--workers", "1", *args])


def write(path, rows: list, raw: list[str] = ()) -> str:
    lines = [json.dumps(r, ensure_ascii=False) for r in rows] + list(raw)
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "wt", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")
    return str(path)


def edges(driver, db: str, id_: str) -> list[tuple]:
    recs = driver.execute_query("MATCH (d:Decision {id: $id})-[e]->(t) RETURN type(e) AS type, t.id AS target, "
                                "e.text AS text, e.count AS count ORDER BY type, target", {"id": id_},
                                database_=db).records
    return [tuple(r.values()) for r in recs]


def test_decisions_cite_the_deepest_unit_and_each_other(graph, neo4j_cfg, neo4j_env, tmp_path):
    db = neo4j_cfg.database
    path = write(tmp_path / "cases.jsonl.gz", [case(1, "VIII ZR 1/20", "2020-06-10", EIGENBEDARF),
                                               case(2, "VIII ZR 180/18", "2019-05-22", HAERTE)],
                 ['{"id": 3, "content": ', json.dumps({"id": 4, "court": "BGH", "date": "22.05.2019", "text": "x"})])
    res = run(path)
    assert res.exit_code == 1, res.output
    assert f"bad record: {path}:3: not valid JSON" in res.output
    assert f"bad record: {path}:4: 'date' '22.05.2019' is not a date" in res.output
    assert "2 new, 0 changed, 0 unchanged, 2 bad records" in res.output
    assert edges(graph, db, "oldp:1") == [
        ("CITES_ABSATZ", "ZPO/§91/Abs1", "§ 91 Abs. 1 ZPO", 1),
        ("CITES_DECISION", "oldp:2", None, None),
        ("CITES_NUMMER", "BGB/§573/Abs2/S1/Nr2", "§ 573 Abs. 2 Nr. 2 BGB", 2)]
    assert edges(graph, db, "oldp:2") == [("CITES_ABSATZ", "ZPO/§543/Abs2", "§ 543 Abs. 2 ZPO", 1),
                                          ("CITES_SATZ", "BGB/§574/Abs1/S1", "§ 574 Abs. 1 Satz 1 BGB", 1)]
    node = graph.execute_query("MATCH (d:Decision {id: 'oldp:1'}) RETURN d", database_=db).records[0]["d"]
    assert node["court"] == "BGH" and node["file_number"] == "VIII ZR 1/20" and str(node["date"]) == "2020-06-10"
    assert "text" not in node and node["lead"].startswith("Tatbestand Die Vermieterin")


def test_a_second_run_changes_nothing_and_a_changed_decision_replaces_its_edges(graph, neo4j_cfg, neo4j_env,
                                                                              tmp_path):
    db = neo4j_cfg.database
    rows = [case(1, "VIII ZR 1/20", "2020-06-10", EIGENBEDARF), case(2, "VIII ZR 180/18", "2019-05-22", HAERTE)]
    assert run(write(tmp_path / "a.jsonl", rows)).exit_code == 0
    before, rels = graph_checksum(graph, db), relationship_counts(graph, db)
    again = run(write(tmp_path / "a.jsonl", rows))
    assert again.exit_code == 0 and "0 new, 0 changed, 2 unchanged" in again.output
    assert graph_checksum(graph, db) == before and relationship_counts(graph, db) == rels
    changed = [case(1, "VIII ZR 1/20", "2020-06-10", "<p>Ordentlich gekündigt nach § 573 Abs. 1 Satz 1 BGB.</p>"),
               rows[1]]
    res = run(write(tmp_path / "b.jsonl", changed))
    assert "0 new, 1 changed, 1 unchanged" in res.output
    assert edges(graph, db, "oldp:1") == [("CITES_SATZ", "BGB/§573/Abs1/S1", "§ 573 Abs. 1 Satz 1 BGB", 1)]
    assert len(edges(graph, db, "oldp:2")) == 2


def test_with_text_stores_the_text_and_a_later_cited_decision_is_linked(graph, neo4j_cfg, neo4j_env, tmp_path):
    db = neo4j_cfg.database
    remove_decisions(graph, db)
    assert run("--with-text", write(tmp_path / "a.jsonl", [case(1, "VIII ZR 1/20", "2020-06-10", EIGENBEDARF)])
               ).exit_code == 0
    text = graph.execute_query("MATCH (d:Decision {id: 'oldp:1'}) RETURN d.text AS t", database_=db).records[0]["t"]
    assert text.startswith("Tatbestand\nDie Vermieterin") and "§ 91 Abs. 1 ZPO" in text
    assert ("CITES_DECISION", "oldp:2", None, None) not in edges(graph, db, "oldp:1")
    # the cited decision arrives in a later run: the earlier one now cites it
    assert run(write(tmp_path / "b.jsonl", [case(2, "VIII ZR 180/18", "2019-05-22", HAERTE)])).exit_code == 0
    assert ("CITES_DECISION", "oldp:2", None, None) in edges(graph, db, "oldp:1")
    # a file number of another court does not link: 'BAG ... 9 AZR 98/17' is no BGH decision
    assert run(write(tmp_path / "c.jsonl", [case(3, "9 AZR 98/17", "2018-02-01", HAERTE, "Bundesarbeitsgericht"),
                                            case(4, "I ZR 5/20", "2021-01-01",
                                                 "<p>Anders BGH, Urt. v. 1.2.2018 - 9 AZR 98/17.</p>")])
               ).exit_code == 0
    assert [e for e in edges(graph, db, "oldp:4") if e[0] == "CITES_DECISION"] == []


def test_a_missing_file_is_one_line_and_writes_nothing(graph, neo4j_cfg, neo4j_env, tmp_path):
    db = neo4j_cfg.database
    remove_decisions(graph, db)
    good = write(tmp_path / "a.jsonl", [case(1, "VIII ZR 1/20", "2020-06-10", EIGENBEDARF)])
    res = run(good, str(tmp_path / "missing.jsonl"))
    assert res.exit_code == 1
    assert res.output.strip().splitlines()[-1].startswith("error: decision file not found:")
    assert graph.execute_query("MATCH (d:Decision) RETURN count(d) AS n", database_=db).records[0]["n"] == 0


def test_ler_decisions_load_with_workers(graph, neo4j_cfg, neo4j_env, tmp_path):
    """The LER BGH decisions (shared data) cite the ZPO: with two workers the graph equals one worker's."""
    db = neo4j_cfg.database
    remove_decisions(graph, db)
    path = str(eval_dir() / "ler_bgh" / "bgh_documents.jsonl")
    one = run(path)
    assert one.exit_code == 0 and "115 new" in one.output
    serial = graph_checksum(graph, db)
    remove_decisions(graph, db)
    two = CliRunner().invoke(main, ["ingest-cases", "--quiet", "--workers", "2", path])
    assert two.exit_code == 0 and graph_checksum(graph, db) == serial
    n = graph.execute_query("MATCH (:Decision {court: 'BGH'})-[e]->(:Unit {law: 'ZPO'}) RETURN count(e) AS n",
                            database_=db).records[0]["n"]
    assert n > 20
