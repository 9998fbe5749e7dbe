"""`legalkg eval` on the command line: argument errors (one line, non-zero exit, before any server is
contacted), the documented defaults, and the design card's bare command against the live test graph."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from legalkg.cli import main


@pytest.fixture
def nowhere(monkeypatch):
    # a port nothing listens on: the errors below must come before any connection attempt
    monkeypatch.setenv("NEO4J_URI", "bolt://127.0.0.1:9")
    monkeypatch.setenv("NEO4J_PASSWORD", "x")


@pytest.mark.parametrize("args, needle", [
    (["--dataset", "gerlayqa", "--level", "Kapitel"], "unknown level 'Kapitel'"),
    (["--dataset", "gerlayqa", "--expand", "children"], "unknown expansion 'children'"),
    (["--dataset", "gerlayqa", "--mode", "bm25"], "unknown mode 'bm25'"),
    (["--dataset", "gerlayqa", "-k", "0"], "-k must be between 1 and 1000"),
    (["--dataset", "no_such_set"], "unknown dataset 'no_such_set'"),
    (["--dataset", "bgh_strafsachen"], "dataset 'bgh_strafsachen' is not in the shared data"),
    (["--level", "Satz", "--expand", "hybrid", "--mode", "hybrid"], "unknown mode 'hybrid'"),
    (["--level", "Satz", "--expand", "sideways"], "unknown expansion 'sideways'"),
])
def test_bad_arguments_give_one_line_and_exit_1(nowhere, args, needle):
    res = CliRunner().invoke(main, ["eval", *args])
    assert res.exit_code == 1, res.output
    out = res.output.strip()
    assert out.startswith("error: ") and "\n" not in out and needle in out
    assert "Traceback" not in out


def test_unreachable_server_exits_2_with_one_line(nowhere, tmp_path):
    data = tmp_path / "one.jsonl"
    data.write_text('{"id": "a", "question": "Urlaub", "gold": ["§ 1 BUrlG"]}\n', encoding="utf-8")
    res = CliRunner().invoke(main, ["eval", "--dataset", str(data), "--quiet"])
    assert res.exit_code == 2
    assert res.output.strip().count("\n") == 0 and "cannot reach Neo4j at bolt://127.0.0.1:9" in res.output


def test_help_names_the_grid():
    res = CliRunner().invoke(main, ["eval", "--help"])
    assert res.exit_code == 0
    for word in ("--level", "--expand", "--mode", "--bootstrap", "--seed", "--limit", "--out", "all"):
        assert word in res.output


def test_help_documents_the_defaults():
    res = CliRunner().invoke(main, ["eval", "--help"])
    flat = " ".join(res.output.split())
    assert "[default: ler_bgh]" in flat and "[default: fulltext]" in flat and "[default: 5]" in flat
    assert "docs/evaluation.md" in flat  # where the default mode's figure comes from


@pytest.fixture(scope="module")
def jgg_graph(load_graph):
    # JGG: a small law that LER BGH cites (18 gold citations); fulltext, the default mode, needs no vectors
    load_graph("JGG", model=None)


@pytest.mark.neo4j
def test_design_card_command_runs_verbatim(jgg_graph, neo4j_env):
    """`legalkg eval --level Satz --expand hybrid`, exactly as the design card writes it."""
    res = CliRunner().invoke(main, ["eval", "--level", "Satz", "--expand", "hybrid"])
    assert res.exit_code == 0, res.output
    head = next(line for line in res.output.splitlines() if line.startswith("dataset "))
    assert head.startswith("dataset ler_bgh: ") and "model none (fulltext)" in head
    kept = int(head.split(": ")[1].split(" of ")[0])
    assert 0 < kept < 115  # only the decisions citing JGG keep gold in this graph
    assert "level Satz, expansion hybrid, mode fulltext, k 5:" in res.output
    for depth in ("Code", "§", "Absatz", "Satz"):
        assert any(line.startswith(depth + " ") for line in res.output.splitlines()), depth
