"""The law router and ``search --law auto`` against the live test graph (BGB + ZPO, full-text only)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from legalkg.cli import main
from legalkg.retrieve import Retriever, laws


@pytest.fixture(scope="module")
def retriever(load_graph, driver, neo4j_cfg):
    load_graph("BGB,ZPO", model=None)
    return Retriever(driver, neo4j_cfg.database)


def test_fulltext_signal_ranks_the_law_whose_sections_match(retriever):
    runs = laws.law_runs(retriever,
                         "Berufung gegen das Urteil des Amtsgerichts, Berufungsfrist und Berufungsbegründung")
    assert runs["fulltext"][0] == "ZPO"
    runs = laws.law_runs(retriever, "Mietsicherheit Kaution Vermieter Mieter Wohnraum")
    assert runs["fulltext"][0] == "BGB"


def test_a_law_the_query_names_is_routed_first(retriever):
    text = "Berufung gegen das Urteil, Berufungsfrist, Berufungsbegründung, geregelt im BGB?"
    assert laws.law_runs(retriever, text)["cited"] == ["BGB"]
    assert laws.route_laws(retriever, text, 2)[0] == "BGB"


def test_search_law_auto_searches_inside_the_routed_law(retriever):
    # the named ZPO, its text and the corpus router outweigh whatever law the lay predictor puts first
    res = retriever.search("Berufungsfrist und Berufungsbegründung nach der ZPO", level="Paragraph", k=5,
                           mode="fulltext", law="auto")
    assert res.law == "ZPO"
    assert res.seeds and all(h.id.startswith("ZPO/") for h in res.seeds)


def test_cli_search_law_auto_names_the_routed_law(retriever, neo4j_env):
    out = CliRunner().invoke(main, ["search", "Mietsicherheit Kaution Vermieter", "--law", "auto",
                                    "--mode", "fulltext", "--level", "§", "-k", "2"])
    assert out.exit_code == 0, out.output
    assert out.output.strip().splitlines()[-1].endswith("law BGB")


def test_learned_signal_ranks_the_laws_of_the_graph_by_lay_words(retriever):
    # the shipped learned router knows every law of gii; the graph holds BGB and ZPO only
    runs = laws.law_runs(retriever, "Mein Vermieter gibt mir die Kaution nach dem Auszug nicht zurück.")
    assert runs["laws"][0] == "BGB"
    assert set(runs["laws"]) <= {"BGB", "ZPO"}
    runs = laws.law_runs(retriever, "Das Amtsgericht hat gegen mich entschieden. Wie lange kann ich noch Berufung "
                                    "einlegen?")
    assert runs["laws"][0] == "ZPO"
