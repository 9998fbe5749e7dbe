"""`legalkg eval --mode learned`: the engine of `legalkg search`, never scored on its own training cases."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from legalkg.cli import main
from legalkg.eval import runner
from legalkg.eval.datasets import EvalCase
from legalkg.predict import default_model_path, load_model
from legalkg.retrieve.folds import group_of

QUESTIONS = [
    ("Mein Vermieter gibt die Kaution nach dem Auszug nicht zurück.", "BGB § 551"),
    ("Der Vermieter hat mir wegen Eigenbedarf gekündigt, darf er das?", "BGB § 573"),
    ("Die gekaufte Waschmaschine ist defekt, kann ich vom Kauf zurücktreten?", "BGB § 437"),
    ("Mein Arbeitgeber zahlt den Lohn nicht, was kann ich tun?", "BGB § 611a"),
    ("Ich habe im Internet bestellt und will den Vertrag widerrufen.", "BGB § 355"),
    ("Der Nachbar hat mein Auto beschädigt und will nicht zahlen.", "BGB § 823"),
]


@pytest.fixture(scope="module")
def graph(load_graph):
    load_graph("BGB", model=None)


def _dataset(tmp_path, ids):
    path = tmp_path / "lay.jsonl"
    with path.open("w", encoding="utf-8") as fh:
        for cid, (question, gold) in zip(ids, QUESTIONS * 3):
            fh.write(json.dumps({"id": cid, "question": question, "gold": [gold]}, ensure_ascii=False) + "\n")
    return path


def test_task_of_a_dataset_and_cv_groups():
    assert runner.case_task([EvalCase(id="q1", query="x", gold=[])]) == "lay"
    assert runner.case_task([EvalCase(id="c1", query="x", gold=[], meta={"court": "BGH"})]) == "case"
    assert group_of("ler-bverwg-chunk0126") == group_of("ler-bverwg-chunk0129") != group_of("ler-bverwg-chunk0130")
    assert group_of("ler-bgh-0001") == "ler-bgh-0001"


def test_eval_refuses_the_shipped_model_on_its_training_cases(graph, neo4j_env, tmp_path):
    seen = load_model(default_model_path("lay")).train_ids[:len(QUESTIONS)]
    out = CliRunner().invoke(main, ["eval", "--dataset", str(_dataset(tmp_path, seen)), "--mode", "learned",
                                    "--level", "§", "--quiet"])
    assert out.exit_code == 1, out.output
    assert out.output.count("\n") == 1 and "trained on 6 of these 6 cases" in out.output and "--cv" in out.output
    ranked = CliRunner().invoke(main, ["eval", "--dataset", str(_dataset(tmp_path, seen)), "--mode", "ranked",
                                       "--level", "§", "--quiet"])
    assert ranked.exit_code == 1 and "trained on" in ranked.output  # the old name, the same engine


def test_eval_learned_runs_on_unseen_cases_and_cross_validates(graph, neo4j_env, tmp_path):
    fresh = [f"fresh-{i:03d}" for i in range(len(QUESTIONS))]
    out = CliRunner().invoke(main, ["eval", "--dataset", str(_dataset(tmp_path, fresh)), "--mode", "learned",
                                    "--level", "§,Absatz", "--quiet", "--bootstrap", "10", "--permutations", "100"])
    assert out.exit_code == 0, out.output
    assert "level Paragraph, expansion none, mode learned" in out.output and "level Absatz" in out.output
    seen = load_model(default_model_path("lay")).train_ids[:3 * len(QUESTIONS)]
    cv = CliRunner().invoke(main, ["eval", "--dataset", str(_dataset(tmp_path, seen)), "--mode", "learned",
                                   "--level", "§", "--cv", "3", "--quiet", "--bootstrap", "10",
                                   "--permutations", "100"])
    assert cv.exit_code == 0, cv.output
    assert "mode learned" in cv.output
