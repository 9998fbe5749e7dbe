"""The learned mode on a graph without the units asked for: one line, exit 1 (never rc 0 with no hits)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from legalkg.cli import main
from legalkg.errors import UserError
from legalkg.retrieve import Retriever


@pytest.fixture(scope="module")
def jgg(load_graph, driver, neo4j_cfg):
    load_graph("JGG", model=None)  # the JGG has no Doppelbuchstaben and no vectors
    return Retriever(driver, neo4j_cfg.database)


def test_a_level_the_graph_lacks_is_one_line(jgg, neo4j_env):
    with pytest.raises(UserError, match="holds no Doppelbuchstabe units: run `legalkg ingest`"):
        jgg.search("Jugendstrafe", level="Doppelbuchstabe", mode="learned")
    out = CliRunner().invoke(main, ["search", "Jugendstrafe", "--level", "Doppelbuchstabe"])
    assert out.exit_code == 1 and out.output.count("\n") == 1 and "holds no Doppelbuchstabe" in out.output


def test_learned_mode_without_vectors_and_without_the_predictors_laws(jgg):
    # the lay model predicts BGB §§ only: none is in this graph, full-text still answers
    res = jgg.search("Wann wird eine Jugendstrafe verhängt?", level="§", k=3, mode="learned")
    assert len(res.seeds) == 3 and all(h.id.startswith("JGG/") for h in res.seeds)
    assert res.model == "predictor lay" and all("vector" not in h.components for h in res.seeds)
