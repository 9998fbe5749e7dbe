"""The rows that become ``CO_CITED`` edges (``cocite.edge_rows``): one per pair, smaller id first.

Pure: the tables are built from real § labels, hand-written ones and the shipped lay predictor's
label matrix (the GerLayQA questions citing § 573 BGB); the live write is tested in
tests/retrieve/test_browser_queries.py and tests/graph/test_ingest.py.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse as sp

from legalkg.predict import cocite, default_model_path, load_model

# § 573 with § 573c twice, § 573 with § 574 once (below MIN_COUNT), § 1 alone; 4 cases.
SETS = [["BGB/§573", "BGB/§573c"], ["BGB/§573c", "BGB/§573"], ["BGB/§573", "BGB/§574"], ["BGB/§1"]]


def test_a_pair_is_one_row_with_its_count_and_npmi():
    rows = cocite.edge_rows(cocite.fit(SETS))
    npmi = math.log((2 / 4) / ((3 / 4) * (2 / 4))) / -math.log(2 / 4)
    assert rows == [{"a": "BGB/§573", "b": "BGB/§573c", "count": 2, "npmi": pytest.approx(npmi, abs=1e-6)}]
    single = cocite.fit(SETS, min_count=1)  # the table keeps the single pair, the rows drop it
    assert [r["b"] for r in cocite.edge_rows(single)] == ["BGB/§573c"]
    assert [r["b"] for r in cocite.edge_rows(single, min_count=1)] == ["BGB/§573c", "BGB/§574"]
    assert cocite.edge_rows(None) == []


def test_the_smaller_id_comes_first_whatever_the_table_order():
    """A predictor's label order is not the ids' order: ``of_matrix`` with § 573c before § 573."""
    y = sp.csr_matrix(np.array([[1, 1], [1, 1], [0, 1]], dtype=np.float32))
    rows = cocite.edge_rows(cocite.of_matrix(["BGB/§573c", "BGB/§573"], y))
    assert [(r["a"], r["b"], r["count"]) for r in rows] == [("BGB/§573", "BGB/§573c", 2)]


def test_the_shipped_lay_questions_citing_573_give_its_documented_pairs():
    """The questions of the shipped lay predictor that cite § 573 BGB: every case citing § 573 and
    another § is among them, so their pair counts are the whole table's (docs/retrieval.md: § 573c
    20 questions, § 573a 13, § 574 18)."""
    level = load_model(default_model_path("lay")).levels["Paragraph"]
    col = level.labels.index("BGB/§573")
    cases = np.flatnonzero(level.y[:, col].toarray().ravel() > 0)
    table = cocite.of_matrix(level.labels, level.y[cases])
    rows = cocite.edge_rows(table)
    assert len({(r["a"], r["b"]) for r in rows}) == len(rows) and all(r["a"] < r["b"] for r in rows)
    assert all(r["count"] >= cocite.MIN_COUNT for r in rows)
    with_573 = {r["b"] if r["a"] == "BGB/§573" else r["a"]: r["count"] for r in rows if "BGB/§573" in (r["a"], r["b"])}
    assert (with_573["BGB/§573c"], with_573["BGB/§573a"], with_573["BGB/§574"]) == (20, 13, 18)
    whole = {(r["a"], r["b"]): r for r in cocite.edge_rows(cocite.of_predictor(load_model(default_model_path("lay"))))}
    assert whole[("BGB/§573", "BGB/§573c")]["count"] == 20
    # npmi = log(p(a,b) / (p(a) p(b))) / -log p(a,b) over the model's 9,098 questions (GerLayQA dev and
    # train, lay_beyond, the training questions beyond BGB: 5,691, and eval/lay-beyond-more's 3,407, none
    # about BGB): § 573 in 85, § 573a in 19, both in 13
    n, a, b, ab = 5691 + 3407, 85, 19, 13
    npmi = np.log((ab / n) / ((a / n) * (b / n))) / -np.log(ab / n)
    assert level.y.shape[0] == n and whole[("BGB/§573", "BGB/§573a")]["npmi"] == pytest.approx(npmi, abs=1e-4)
