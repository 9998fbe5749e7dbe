"""Searches on a graph that is not (fully) loaded: one line naming the fix, exit 1, never rc 0.

Issue 26 points 4 and 7: a fresh server, or one whose ingest was interrupted, has no schema (so no
full-text or vector index) or no finished law. The server here is started without loading; each
test writes the state it needs with plain Cypher.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from legalkg.cli import main
from legalkg.errors import UserError
from legalkg.graph.connection import open_driver
from legalkg.retrieve import Retriever
from legalkg.retrieve.graphfacts import missing_index

from ..conftest import started_server


@pytest.fixture(scope="module")
def bare(tmp_path_factory):
    """(settings, cfg) of a server nobody ingested into: no constraints, no indexes."""
    yield from started_server(tmp_path_factory.mktemp("bare-home"))


@pytest.fixture
def bare_env(bare, monkeypatch):
    _, cfg = bare
    monkeypatch.setenv("NEO4J_URI", cfg.uri)
    monkeypatch.setenv("NEO4J_USER", cfg.user)
    monkeypatch.setenv("NEO4J_PASSWORD", cfg.password)
    driver = open_driver(cfg)
    driver.execute_query("MATCH (n) DETACH DELETE n")
    yield driver
    driver.close()


def _fragment(driver, finished: bool) -> None:
    """One law with one § and one chunk, as an interrupted load leaves them (``hash`` unset) or as
    an import that stopped before the schema was built (``hash`` set, no index)."""
    driver.execute_query(
        "CREATE (g:Gesetz {id: 'BGB', hash: $hash})-[:CONTAINS_PARAGRAPH]->"
        "(:Paragraph:Unit {id: 'BGB/§551', law: 'BGB', level: 'Paragraph', citation: '§ 551 BGB', "
        " title: 'Begrenzung und Anlage von Mietsicherheiten', words: 9, "
        " text: 'Der Vermieter hat eine ihm als Sicherheit überlassene Geldsumme anzulegen.'}), "
        "(:Chunk {id: 'chunk:BGB:0', law: 'BGB', text: 'Der Vermieter hat eine Sicherheit', "
        " covers: ['BGB/§551'], words: 5})",
        {"hash": "h1" if finished else None})


def _one_line(args: list[str]) -> str:
    out = CliRunner().invoke(main, ["search", *args])
    assert out.exception is None or isinstance(out.exception, SystemExit), out.exception
    assert out.exit_code == 1 and out.output.count("\n") == 1, out.output
    return out.output


def test_the_default_search_on_an_empty_graph_is_one_line(bare_env):
    text = _one_line(["Mein Vermieter gibt die Kaution nicht zurück"])
    assert "holds no finished law" in text and "legalkg ingest" in text
    for mode in ("fulltext", "vector", "fusion"):
        assert "holds no finished law" in _one_line(["Kaution", "--mode", mode])


def test_an_interrupted_ingest_is_not_answered_from_its_fragments(bare_env):
    _fragment(bare_env, finished=False)
    for args in (["Vermieter Sicherheit"], ["Vermieter Sicherheit", "--mode", "fulltext"]):
        text = _one_line(args)
        assert "holds no finished law" in text and "resumes an interrupted load" in text
    with pytest.raises(UserError, match="holds no finished law"):
        Retriever(bare_env).search("Vermieter Sicherheit", level="§", mode="learned")


@pytest.mark.parametrize("args, index", [
    (["--mode", "fulltext"], "fulltext_Paragraph"),
    (["--mode", "fulltext", "--level", "Satz", "--expand", "parent"], "fulltext_Satz"),
    # the default (learned) mode's full-text run: at § level the shipped lay and case weights
    # read no index, at Chunk level it is the only run
    (["--level", "Chunk"], "fulltext_Chunk"),
])
def test_a_graph_without_its_schema_is_one_line_naming_the_index(bare_env, args, index):
    _fragment(bare_env, finished=True)
    text = _one_line(["Vermieter Sicherheit", *args])
    assert f"has no full-text index {index}" in text and "legalkg ingest" in text


def test_only_the_missing_index_failure_becomes_a_user_error():
    err = missing_index("Failed to invoke procedure `db.index.vector.queryNodes`: Caused by: "
                        "java.lang.IllegalArgumentException: There is no such vector schema index: vector_Satz",
                        "neo4j")
    assert err is not None and "has no vector index vector_Satz" in str(err)
    assert missing_index("Invalid input 'MATCH'", "neo4j") is None
