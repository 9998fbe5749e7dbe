"""The learned mode's CV folds (legalkg.eval.folds): extra training data, each fold's ranker; no server."""

from __future__ import annotations

import pytest

from legalkg.errors import UserError
from legalkg.eval.folds import TRAINED_ON, Prepared, Tuning, check_extra, fold_ranker, inner_models, text_key
from legalkg.predict import Example, StatuteIndex, TrainingSet, load_examples, train
from legalkg.vocab import RetrievalLevel

from ..predict.conftest import LAY, UNITS, write_jsonl

CASES = [("dev-1", "Mein Vermieter gibt die Kaution nicht zurück.", ()),
         ("dev-2", "Darf mein Arbeitgeber mir fristlos kündigen?", ())]


def _extra(*rows: tuple[str, str]) -> TrainingSet:
    return TrainingSet("lay", [Example(cid, text, ("BGB/§551",), (), cid) for cid, text in rows], ["train.jsonl"])


def test_text_key_ignores_spacing_and_case():
    assert text_key("  Mein  Vermieter\n gibt ") == text_key("mein vermieter gibt")


def test_an_extra_set_apart_from_the_cases_passes():
    check_extra(_extra(("train-1", "Mein Vermieter gibt die Kaution erst nach einem Jahr zurück.")), CASES)


@pytest.mark.parametrize(("row", "named"), [
    (("dev-2", "eine ganz andere Frage"), "'dev-2'"),
    (("train-9", "mein vermieter gibt  die Kaution nicht zurück."), "evaluated case 'dev-1'"),
])
def test_a_shared_case_id_or_question_is_a_leak(row, named):
    with pytest.raises(UserError, match=named) as err:
        check_extra(_extra(("train-1", "unverdächtig"), row), CASES)
    assert "\n" not in str(err.value) and "train.jsonl" in str(err.value)


def test_a_fold_ranker_is_stacked_on_its_fold_training_cases_only(tmp_path):
    data = load_examples([write_jsonl(tmp_path / "lay.jsonl", LAY)])
    prep = Prepared("lay", data, TrainingSet("lay", [], []), StatuteIndex.build(UNITS, ["BGB"]), UNITS)
    scored = {"q2", "q5", "q8"}  # the fold's test cases
    fold = TrainingSet("lay", [e for e in data.examples if e.id not in scored], data.sources)
    ranker = fold_ranker(prep, fold)
    assert set(ranker.meta[TRAINED_ON]) == {"q1", "q3", "q4", "q6", "q7"}  # every inner predictor's cases
    assert ranker.cocite.n_cases == 5 and ranker.facts is not None
    ranked = ranker.rank(train(fold, statutes=prep.statutes), ["Der Vermieter behält die Kaution"], 10)
    assert "BGB/§551" in [uid for uid, _ in ranked[0]]  # it orders the fold predictor's § candidates
    no_texts = prep._replace(units={}, statutes=StatuteIndex.build({}, ["BGB"]))
    assert fold_ranker(no_texts, fold) is None  # no bridge texts: no ranker, as for the shipped one


def test_the_inner_cv_of_tuned_weights_ranks_with_rankers_that_never_saw_its_test_cases(tmp_path):
    data = load_examples([write_jsonl(tmp_path / "lay.jsonl", LAY)])
    prep = Prepared("lay", data, TrainingSet("lay", [], []), StatuteIndex.build(UNITS, ["BGB"]), UNITS)
    outer_test = {"q2", "q5", "q8"}  # the outer fold's test cases: never in what tuned_weights gets
    own = [e for e in data.examples if e.id not in outer_test]
    tune = Tuning(RetrievalLevel.PARAGRAPH, 5, ranked=True)
    seen_test: set[str] = set()
    for model, ranker, test in inner_models(prep, own, tune):
        inner_test = {e.id for e in test}
        trained = set(ranker.meta[TRAINED_ON])
        assert trained == {e.id for e in own} - inner_test  # the inner fold's training cases only
        assert trained.isdisjoint(inner_test | outer_test)
        assert trained == set(model.train_ids)  # stacked on the inner predictor's own cases
        seen_test |= inner_test
    assert seen_test == {e.id for e in own}  # every inner case ranked once, by an engine blind to it
    plain = list(inner_models(prep, own, Tuning(RetrievalLevel.PARAGRAPH, 5)))
    assert len(plain) == 3 and all(ranker is None for _, ranker, _ in plain)  # --fold-ranker none


def test_a_fold_rankers_law_router_read_the_fold_training_questions_only(tmp_path):
    from legalkg.predict.corpus import Corpus
    from legalkg.predict.lawrouter import shipped
    from legalkg.predict.rankfeatures import ROUTER_RANKER_FEATURES

    data = load_examples([write_jsonl(tmp_path / "lay.jsonl", LAY)])
    prep = Prepared("lay", data, TrainingSet("lay", [], []), StatuteIndex.build(UNITS, ["BGB"]), UNITS,
                    (UNITS, Corpus.build(UNITS)))
    scored = [e for e in data.examples if e.id in {"q2", "q5", "q8"}]  # the fold's test cases
    fold = TrainingSet("lay", [e for e in data.examples if e not in scored], data.sources)
    router = fold_ranker(prep, fold, features=ROUTER_RANKER_FEATURES).facts.router
    bgb = router.laws.index("BGB")
    read = router.lay[bgb].toarray()[0]
    # BGB's lay row is the centroid of the five training questions alone (all about BGB)
    assert read == pytest.approx(shipped().with_lay([(e.text, ["BGB"]) for e in fold.examples]).lay[bgb].toarray()[0])
    with_scored = shipped().with_lay([(e.text, ["BGB"]) for e in data.examples]).lay[bgb].toarray()[0]
    assert read != pytest.approx(with_scored)  # a router that read the scored questions differs


def test_a_passage_fold_ranker_gets_passages_degrees_outline_and_citations(tmp_path, monkeypatch):
    from legalkg.eval import folds
    from legalkg.predict.corpus import Corpus
    from legalkg.predict.rankfeatures import PASSAGE_RANKER_FEATURES
    from legalkg.predict.units import cites_degrees, cites_pairs, outline_titles

    # the default codes' structure costs half a minute each to parse; BGB's alone holds the UNITS' §§
    monkeypatch.setattr(folds, "default_degrees", lambda: cites_degrees(["bgb"]))
    monkeypatch.setattr(folds, "default_outline", lambda: outline_titles(["bgb"]))
    monkeypatch.setattr(folds, "default_cites", lambda: cites_pairs(["bgb"]))
    monkeypatch.setenv("LEGALKG_CACHE", str(tmp_path))
    data = load_examples([write_jsonl(tmp_path / "lay.jsonl", LAY)])
    prep = Prepared("lay", data, TrainingSet("lay", [], []), StatuteIndex.build(UNITS, ["BGB"]), UNITS,
                    (UNITS, Corpus.build(UNITS)))
    ranker = fold_ranker(prep, data, features=PASSAGE_RANKER_FEATURES)
    assert ranker.features == PASSAGE_RANKER_FEATURES
    assert ranker.facts.passages is not None
    assert ranker.facts.passages.ids == sorted(u for u in UNITS if u.count("/") == 1)
    # BGB § 551 stands in "Mietverhältnisse über Wohnraum"; § 569 (2a) "... mit einer Sicherheitsleistung
    # nach § 551 ... im Verzug" cites it
    assert "Mietverhältnisse über Wohnraum" in ranker.outline["BGB/§551"]
    assert ("BGB/§569", "BGB/§551") in ranker.cites and ranker.degrees["BGB/§551"][0] >= 1
    assert "BGB/§569" in ranker.facts.neighbours["BGB/§551"]
