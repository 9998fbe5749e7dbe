"""`legalkg eval --mode learned`: the engine of `legalkg search`, never scored on its own training cases."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from legalkg.cases.gold import parse_gold_strings
from legalkg.cli import main
from legalkg.eval import folds as folds_mod, runner
from legalkg.eval.datasets import EvalCase
from legalkg.eval.folds import TRAINED_ON, Folds, Tuning, fold_retrievers, group_of
from legalkg.predict import default_model_path, load_examples, load_model
from legalkg.retrieve import learned as lm
from legalkg.vocab import Mode, RetrievalLevel

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


EXTRA = [
    ("Meine Vermieterin behält die Mietsicherheit nach dem Ende der Miete ein.", "BGB § 551"),
    ("Kann mir der Vermieter kündigen, weil sein Sohn die Wohnung braucht?", "BGB § 573"),
    ("Der neue Fernseher ist kaputt, welche Rechte habe ich gegen den Händler?", "BGB § 437"),
]


def _extra(tmp_path, rows, name="extra.jsonl"):
    path = tmp_path / name
    with path.open("w", encoding="utf-8") as fh:
        for cid, question, gold in rows:
            fh.write(json.dumps({"id": cid, "question": question, "gold": [gold]}, ensure_ascii=False) + "\n")
    return path


def test_train_extra_trains_every_fold_and_is_never_scored(graph, driver, neo4j_cfg, tmp_path):
    cases = [(f"q{i}", q, parse_gold_strings([g]).citations) for i, (q, g) in enumerate(QUESTIONS)]
    extra = load_examples([_extra(tmp_path, [(f"x{i}", q, g) for i, (q, g) in enumerate(EXTRA)])])
    folds = fold_retrievers(driver, neo4j_cfg.database, "lay", cases, Folds(3), extra=extra,
                            weights={"predictor": 1.0, "fulltext": 0.0})
    assert set(folds) == {cid for cid, _, _ in cases}  # the extra cases are not answered
    for cid, retriever in folds.items():
        seen = set(retriever.models.predictor("lay").train_ids)
        assert {"x0", "x1", "x2"} <= seen and cid not in seen
        assert retriever.models.weights == {"predictor": 1.0, "fulltext": 0.0}
    assert len({id(r) for r in folds.values()}) == 3


def test_train_extra_sharing_a_case_or_a_question_is_refused(graph, neo4j_env, tmp_path):
    data = _dataset(tmp_path, [f"fresh-{i:03d}" for i in range(len(QUESTIONS))])
    base = ["eval", "--dataset", str(data), "--mode", "learned", "--level", "§", "--quiet", "--bootstrap", "10",
            "--permutations", "100"]
    same_id = _extra(tmp_path, [("fresh-002", EXTRA[0][0], EXTRA[0][1])], "same_id.jsonl")
    out = CliRunner().invoke(main, [*base, "--cv", "3", "--train-extra", str(same_id)])
    assert out.exit_code == 1 and out.output.count("\n") == 1 and "'fresh-002'" in out.output, out.output
    same_text = _extra(tmp_path, [("other", "  " + QUESTIONS[3][0].upper(), "BGB § 611a")], "same_text.jsonl")
    out = CliRunner().invoke(main, [*base, "--cv", "3", "--train-extra", str(same_text)])
    assert out.exit_code == 1 and "evaluated case 'fresh-003'" in out.output, out.output
    ok = _extra(tmp_path, [(f"x{i}", q, g) for i, (q, g) in enumerate(EXTRA)])
    out = CliRunner().invoke(main, [*base, "--train-extra", str(ok)])
    assert out.exit_code == 1 and "--train-extra needs --cv" in out.output, out.output
    out = CliRunner().invoke(main, [*base, "--cv", "3", "--train-extra", str(ok), "--weights", "vector=0"])
    assert out.exit_code == 0, out.output
    assert "mode learned" in out.output


def test_weights_switch_a_run_off_and_bad_weights_are_one_line(graph, neo4j_env, tmp_path):
    data = _dataset(tmp_path, [f"fresh-{i:03d}" for i in range(len(QUESTIONS))])
    base = ["eval", "--dataset", str(data), "--mode", "learned", "--level", "§", "--quiet", "--bootstrap", "10",
            "--permutations", "100", "--cv", "3"]
    for bad in ("bm25=1", "fulltext=-1", "fulltext", "predictor=0,cited=0,fulltext=0,vector=0"):
        out = CliRunner().invoke(main, [*base, "--weights", bad])
        assert out.exit_code == 1 and out.output.count("\n") == 1 and "weight" in out.output, (bad, out.output)
    on = CliRunner().invoke(main, [*base, "--out", str(tmp_path / "on")])
    off = CliRunner().invoke(main, [*base, "--weights", "predictor=0,cited=0", "--out", str(tmp_path / "off")])
    assert on.exit_code == 0 and off.exit_code == 0, (on.output, off.output)
    meta = json.loads((tmp_path / "off" / "run.json").read_text(encoding="utf-8"))
    assert "--weights predictor=0,cited=0,fulltext=0.5,vector=0.5" in meta["command"]
    # the predictor is what finds these laws' §§ for lay words; full-text alone finds fewer
    assert on.output != off.output


def test_tune_weights_chooses_per_fold_inside_the_cv(graph, neo4j_env, tmp_path):
    data = _dataset(tmp_path, [f"fresh-{i:03d}" for i in range(3 * len(QUESTIONS))])
    base = ["eval", "--dataset", str(data), "--mode", "learned", "--level", "§", "--quiet", "--bootstrap", "10",
            "--permutations", "100", "--tune-weights"]
    out = CliRunner().invoke(main, base)
    assert out.exit_code == 1 and out.output.count("\n") == 1 and "--tune-weights needs --cv" in out.output
    out = CliRunner().invoke(main, [*base, "--cv", "3", "--out", str(tmp_path / "tuned")])
    assert out.exit_code == 0, out.output
    line = next(x for x in out.output.splitlines() if x.startswith("fusion weights of the folds: "))
    chosen = [lm.parse_weights(part) for part in line.split(": ", 1)[1].split("; ")]
    assert 1 <= len(chosen) <= 3 and all(w in lm.weight_grid() for w in chosen)
    meta = json.loads((tmp_path / "tuned" / "run.json").read_text(encoding="utf-8"))
    assert "--tune-weights" in meta["command"] and meta["options"]["fold_weights"] == chosen
    saved = tmp_path / "fusion-weights.json"
    out = CliRunner().invoke(main, [*base[:-1], "--cv", "3", "--save-weights", str(saved)])
    assert out.exit_code == 1 and "--save-weights needs --tune-weights" in out.output, out.output
    out = CliRunner().invoke(main, [*base, "--cv", "3", "--save-weights", str(saved)])
    assert out.exit_code == 0, out.output
    entry = json.loads(saved.read_text(encoding="utf-8"))["lay"]
    assert entry["weights"] in lm.weight_grid() and "--save-weights" in entry["command"]
    assert f"-> {saved}" in out.output


def test_cv_folds_rank_with_rankers_trained_without_their_test_cases(graph, driver, neo4j_cfg, tmp_path):
    cases = [(f"c{i:02d}", q, parse_gold_strings([g]).citations) for i, (q, g) in enumerate(QUESTIONS * 3)]
    folds = fold_retrievers(driver, neo4j_cfg.database, "lay", cases, Folds(3, ranked=True))
    engines = {id(r): r for r in folds.values()}.values()
    assert len(engines) == 3
    for retriever in engines:
        scored = {cid for cid, r in folds.items() if r is retriever}
        ranker = retriever.models.ranker("lay")
        trained = set(ranker.meta[TRAINED_ON])
        assert trained == {cid for cid, _, _ in cases} - scored  # the other folds, never its own
        assert {group_of(c) for c in trained}.isdisjoint({group_of(c) for c in scored})
        assert trained == set(retriever.models.predictor("lay").train_ids)  # stacked on the predictor's cases
    cid, text, _ = cases[0]
    hits = folds[cid].seeds({cid: text}, RetrievalLevel.PARAGRAPH, 5, Mode.LEARNED, task="lay")[cid]
    assert any("predictor.ranker" in h.components for h in hits) and not any(h.ranker for h in hits)
    with lm.explaining():  # the ranker's feature contributions only when asked
        hits = folds[cid].seeds({cid: text}, RetrievalLevel.PARAGRAPH, 5, Mode.LEARNED, task="lay")[cid]
    assert any("predictor.ranker" in h.components and h.ranker for h in hits)  # the ranker's share, its features
    plain = fold_retrievers(driver, neo4j_cfg.database, "lay", cases, Folds(3))
    assert plain[cid].models.ranker("lay") is None
    hits = plain[cid].seeds({cid: text}, RetrievalLevel.PARAGRAPH, 5, Mode.LEARNED, task="lay")[cid]
    assert not any("predictor.ranker" in h.components for h in hits)


def test_tuned_weights_inner_engines_rank_with_rankers_blind_to_inner_and_outer_tests(graph, driver, neo4j_cfg,
                                                                                     monkeypatch):
    cases = [(f"c{i:02d}", q, parse_gold_strings([g]).citations) for i, (q, g) in enumerate(QUESTIONS * 3)]
    real, seen = folds_mod.inner_models, []

    def spy(prep, examples, tune, seed=0):  # records what each inner engine ranks with, runs the real thing
        for model, ranker, test in real(prep, examples, tune, seed):
            seen.append(({e.id for e in examples}, ranker, {e.id for e in test}))
            yield model, ranker, test

    monkeypatch.setattr(folds_mod, "inner_models", spy)
    tune = Tuning(RetrievalLevel.PARAGRAPH, 5)
    out = fold_retrievers(driver, neo4j_cfg.database, "lay", cases, Folds(3, ranked=True), weights=tune)
    everyone = {cid for cid, _, _ in cases}
    outer_tests = [{c for c, r in out.items() if r is e} for e in {id(r): r for r in out.values()}.values()]
    assert len(seen) == 3 * 3 and all(ranker is not None for _, ranker, _ in seen)  # 3 outer x 3 inner
    for outer_train, ranker, inner_test in seen:
        assert everyone - outer_train in outer_tests  # the inner CV runs on one outer fold's training cases
        trained = set(ranker.meta[TRAINED_ON])
        assert trained == outer_train - inner_test and trained.isdisjoint(everyone - outer_train)
    seen.clear()
    fold_retrievers(driver, neo4j_cfg.database, "lay", cases, Folds(3), weights=tune)
    assert len(seen) == 9 and all(ranker is None for _, ranker, _ in seen)  # --fold-ranker none: no inner rankers


def test_eval_cv_reports_the_fold_rankers_and_can_leave_them_out(graph, neo4j_env, tmp_path):
    data = _dataset(tmp_path, [f"fresh-{i:03d}" for i in range(3 * len(QUESTIONS))])
    base = ["eval", "--dataset", str(data), "--mode", "learned", "--level", "§", "--quiet", "--bootstrap", "10",
            "--permutations", "100", "--cv", "3"]
    out = CliRunner().invoke(main, [*base, "--out", str(tmp_path / "ranked")])
    assert out.exit_code == 0, out.output
    assert "rankers of the folds: 3, each stacked on its fold's training cases (trained on / scored: " in out.output
    rankers = json.loads((tmp_path / "ranked" / "run.json").read_text(encoding="utf-8"))["options"]["fold_rankers"]
    assert len(rankers) == 3 and sum(r["scored"] for r in rankers) == 18
    assert all(r["trained_on"] + r["scored"] == 18 for r in rankers)
    off = CliRunner().invoke(main, [*base, "--fold-ranker", "none", "--out", str(tmp_path / "plain")])
    assert off.exit_code == 0 and "folds without a ranker (--fold-ranker none)" in off.output, off.output
    meta = json.loads((tmp_path / "plain" / "run.json").read_text(encoding="utf-8"))
    assert meta["options"]["fold_rankers"] == [] and "--fold-ranker none" in meta["command"]
