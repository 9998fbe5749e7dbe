"""Folds, metrics, input checks and the nested popularity prior."""

import json

import numpy as np
import pytest

from legalkg.errors import UserError
from legalkg.rank.learn import evaluate_ranking, fold_of, gold_id, load_questions, popularity_baseline


def test_gold_id():
    assert gold_id("BGB § 573b") == "BGB/§573b"


def test_folds_are_balanced_and_seeded():
    f = fold_of(11)
    assert sorted(np.bincount(f).tolist()) == [2, 2, 2, 2, 3]
    assert (fold_of(11) == f).all()


def test_recall_hit_and_recall100():
    assert evaluate_ranking(["a", "b", "c"], ["b", "z"]) == (0.5, 1.0, 0.5)
    assert evaluate_ranking([f"x{i}" for i in range(10)] + ["z"], ["z"]) == (0.0, 0.0, 1.0)


def test_popularity_baseline_never_sees_the_test_fold():
    # every question has its own unique gold §: no training fold can know it
    golds = [[f"BGB/§{i}"] for i in range(20)]
    ranked = popularity_baseline(golds)
    assert all(g[0] not in r for g, r in zip(golds, ranked))


def test_bad_questions_file_is_one_clear_error(tmp_path):
    p = tmp_path / "q.jsonl"
    p.write_text(json.dumps({"id": "1", "question": "x"}) + "\n")
    with pytest.raises(UserError, match=r"q.jsonl:1: not a \{id, question, gold\}"):
        load_questions(p)
    with pytest.raises(UserError, match="not found"):
        load_questions(tmp_path / "missing.jsonl")
