"""``--expand cocited``: each seed's most co-cited § among the predictor's training cases.

Pure tests of the pair choice and the table built from a predictor's label matrix, and one test on a
live server (``tests/conftest.py``) with a predictor trained here on hand-written questions, so the
expected expansion follows from the training cases and the statute text, not from a shipped model.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from legalkg.eval import grid
from legalkg.predict import Example, TrainingSet, cocite, train
from legalkg.retrieve import Hit, Retriever
from legalkg.retrieve.expand import assemble, cocited_pairs, hops, paragraph_of
from legalkg.vocab import Expansion, Mode

#: Two cases cite § 573 (ordinary notice by the landlord) with § 573c (notice periods); one cites
#: § 573 with § 535 once (below ``cocite.MIN_COUNT``, so no pair); § 433 stands alone.
CASES = [
    ("q1", "Mein Vermieter hat mir wegen Eigenbedarf gekündigt, welche Frist gilt?", ("BGB/§573", "BGB/§573c")),
    ("q2", "Kündigung der Wohnung durch den Vermieter, wann endet das Mietverhältnis?", ("BGB/§573", "BGB/§573c")),
    ("q3", "Der Vermieter will kündigen und die Miete erhöhen", ("BGB/§573", "BGB/§535")),
    ("q4", "Der Verkäufer liefert die Sache nicht", ("BGB/§433",)),
]


def training_set() -> TrainingSet:
    return TrainingSet("lay", [Example(cid, text, labels, (), cid) for cid, text, labels in CASES], ["hand.jsonl"])


def test_paragraph_of_a_unit_id():
    assert paragraph_of("BGB/§573") == "BGB/§573"
    assert paragraph_of("BGB/§573/Abs2/S1") == "BGB/§573"
    assert paragraph_of("BGB") is None


def test_the_table_of_a_label_matrix_is_that_of_its_label_sets():
    ids = ["BGB/§433", "BGB/§535", "BGB/§573", "BGB/§573c", "BGB/§999"]  # § 999: a label no case cites
    rows = [labels for _, _, labels in CASES]
    y = sp.csr_matrix(np.array([[int(u in r) for u in ids] for r in rows], dtype=np.uint8))
    a, b = cocite.of_matrix(ids, y), cocite.fit(rows)
    assert a.ids == b.ids == ids[:4] and a.n_cases == b.n_cases == 4
    assert (a.pairs != b.pairs).nnz == 0
    assert [u for u, _, n in a.neighbours("BGB/§573")] == ["BGB/§573c"]


def test_each_seed_gets_its_strongest_companion_and_a_seed_below_the_section_stands_for_it():
    table = cocite.fit([labels for _, _, labels in CASES])
    pairs = cocited_pairs(table, ["BGB/§573/Abs2", "BGB/§573c", "BGB/§535", "BGB/§433"])
    assert pairs == [{"seed": "BGB/§573/Abs2", "id": "BGB/§573c"}, {"seed": "BGB/§573c", "id": "BGB/§573"}]
    assert cocited_pairs(None, ["BGB/§573"]) == []


def test_assembly_skips_a_companion_that_is_a_seed_already():
    seeds = [Hit(id=u, via=Mode.FULLTEXT) for u in ("BGB/§573", "BGB/§573c", "BGB/§535")]
    ctx = {Expansion.COCITED: {"BGB/§573": [Hit(id="BGB/§573c", via=Expansion.COCITED, seed="BGB/§573")],
                               "BGB/§535": [Hit(id="BGB/§536", via=Expansion.COCITED, seed="BGB/§535")]}}
    assert hops(Expansion.COCITED) == (Expansion.COCITED,)
    assert [(h.id, h.seed) for h in assemble(seeds, ctx, Expansion.COCITED)] == [("BGB/§536", "BGB/§535")]


def test_all_expansions_of_the_grid_are_the_papers():
    assert Expansion.COCITED not in grid.parse_expansions("all")
    assert grid.parse_expansions("cocited,none") == [Expansion.COCITED, Expansion.NONE]


@pytest.fixture(scope="module")
def bgb(load_graph, driver, neo4j_cfg):
    load_graph("BGB,ZPO", model=None)
    return Retriever(driver, neo4j_cfg.database, predictors={"lay": train(training_set())})


def test_cocited_expansion_on_the_graph(bgb):
    seeds = [Hit(id="BGB/§573/Abs2", via=Mode.FULLTEXT), Hit(id="BGB/§535", via=Mode.FULLTEXT)]
    out = bgb.expand(seeds, "cocited", task="lay")
    assert [(h.id, h.seed, h.via) for h in out] == [("BGB/§573c", "BGB/§573/Abs2", Expansion.COCITED)]
    # § 573c Abs. 1 Satz 1 BGB, as the statute reads:
    assert "spätestens am dritten Werktag eines Kalendermonats zum Ablauf des übernächsten Monats" in out[0].text
    res = bgb.search("ordentliche Kündigung des Vermieters berechtigtes Interesse", level="§", k=5,
                     mode="fulltext", expand="cocited", task="lay")
    # full-text finds § 573 by its title ("Ordentliche Kündigung des Vermieters"); of the seeds only it has
    # a companion in the hand-written cases, so the search's expansion is § 573c, reached from § 573
    assert "BGB/§573" in [s.id for s in res.seeds] and "BGB/§573c" not in [s.id for s in res.seeds]
    assert [(h.id, h.seed, h.via) for h in res.expanded] == [("BGB/§573c", "BGB/§573", Expansion.COCITED)]
