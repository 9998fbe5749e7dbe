import math

import numpy as np
import pytest

from legalkg.eval import ir
from legalkg.model import Citation


def test_units_of_one_para_collapse_to_its_first_rank():
    run = ir.run_from_hits({"q": ["BGB/§433/Abs1", "BGB/§434", "BGB/§433/Abs2/S1", "BGB/Gl01"]})
    assert ir._ranked(run["q"]) == ["BGB/§433", "BGB/§434"]


def test_qrels_drop_cases_without_a_para():
    q = ir.qrels_from_gold({"a": [Citation("BGB", "§433", "1"), Citation("BGB", "§433")], "b": [Citation("BGB")]})
    assert q == {"a": {"BGB/§433": 1}}


def test_recall_and_ndcg_by_hand():
    qrels = {"q": {"BGB/§433": 1, "BGB/§437": 1}}
    run = ir.run_from_hits({"q": ["BGB/§1/Abs1", "BGB/§437/S1/Nr1", "BGB/§2"]})
    res = ir.evaluate(qrels, run, k=3)
    assert res["recall@3"] == pytest.approx(0.5)
    assert res["hit@3"] == 1.0 and ir.evaluate(qrels, run, k=1)["hit@1"] == 0.0  # § 437 is second
    # DCG = 1/log2(3); IDCG = 1 + 1/log2(3)
    assert res["ndcg@3"] == pytest.approx((1 / math.log2(3)) / (1 + 1 / math.log2(3)))
    # a query missing from the run scores 0
    assert ir.evaluate({"x": {"BGB/§1": 1}}, {}, k=5)["recall@5"] == 0.0


def _random_case(rng, n_queries=40, k=10):
    paras = [f"BGB/§{i}" for i in range(1, 60)]
    qrels, hits = {}, {}
    for j in range(n_queries):
        gold = rng.choice(paras, size=rng.integers(1, 4), replace=False)
        qrels[f"q{j}"] = {g: 1 for g in gold}
        ranked = rng.choice(paras, size=k + 5, replace=False)
        hits[f"q{j}"] = [f"{p}/Abs1" for p in ranked]
    return qrels, ir.run_from_hits(hits)


@pytest.mark.timeout(600)
def test_numpy_backend_agrees_with_ranx():
    pytest.importorskip("ranx")
    rng = np.random.default_rng(0)
    qrels, run = _random_case(rng)
    for k in (5, 10):
        ours = ir.evaluate(qrels, run, k)
        ref = ir.evaluate(qrels, run, k, backend="ranx")
        assert ours[f"recall@{k}"] == pytest.approx(ref[f"recall@{k}"], abs=1e-9)
        assert ours[f"ndcg@{k}"] == pytest.approx(ref[f"ndcg@{k}"], abs=1e-9)
        assert ours[f"hit@{k}"] == pytest.approx(ref[f"hit@{k}"], abs=1e-9)
    assert ir.evaluate(qrels, run, 10)["recall@10"] > 0  # the random run hits something
