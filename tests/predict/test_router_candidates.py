"""The learned law router in the lay ranker's candidate stage (issue 42): its laws' §§ become
candidates, its score of a candidate's law is a feature, and a router that read a question never
scores it (pure, no server; real statute texts of the shared gii XML and real lay questions).

Checked by reading the texts: BUrlG § 3 "Dauer des Urlaubs": "(1) Der Urlaub beträgt jährlich
mindestens 24 Werktage." Question laytrain-a-0001 of eval/lay-beyond-train/train.jsonl (a
Minijobber's paid holiday) cites § 1 BUrlG ("Jeder Arbeitnehmer hat in jedem Kalenderjahr
Anspruch auf bezahlten Erholungsurlaub.").
"""

from __future__ import annotations

from dataclasses import fields

import numpy as np
import pytest

from legalkg import paths
from legalkg.predict import load_examples, train
from legalkg.predict.corpus import Corpus
from legalkg.predict.lawrouter import LawRouter, shipped
from legalkg.predict.ranker import Ranker, candidates, fit_stacked, fold_router, graph_facts, lay_questions
from legalkg.predict.rankfeatures import (
    FEATURES,
    GRAPH_RANKER_FEATURES,
    LAWROUTER_FEATURES,
    ROUTER_RANKER_FEATURES,
    SOURCES,
)
from legalkg.predict.units import unit_texts

from .conftest import UNITS

HOLIDAY = "Wie viele Tage Urlaub stehen mir gesetzlich zu?"
TRAIN = paths.REPO_ROOT / "eval" / "lay-beyond-train" / "train.jsonl"


@pytest.fixture(scope="module")
def units() -> dict[str, str]:
    return unit_texts(["burlg", "stgb", "stvg", "tzbfg"])


@pytest.fixture(scope="module")
def corpus(units) -> Corpus:
    return Corpus.build(units)


@pytest.fixture(scope="module")
def lay_beyond_train():
    return load_examples([TRAIN], "lay")


def test_a_fold_router_scores_a_question_it_never_read_lower(lay_beyond_train):
    questions = lay_questions(lay_beyond_train)
    x = next(i for i, e in enumerate(lay_beyond_train.examples) if e.id == "laytrain-a-0001")
    text, gold = questions[x]
    assert gold == ["BUrlG"]
    with_x = shipped().with_lay(questions)
    without_x = shipped().with_lay(questions[:x] + questions[x + 1:])
    law = with_x.laws.index("BUrlG")
    assert without_x.scores([text])[0, law] < with_x.scores([text])[0, law]
    # the fold router keeps the shipped vocabulary, idf and statute rows; only its lay rows are new
    assert without_x.vocab is shipped().vocab and without_x.idf is shipped().idf
    assert without_x.statute is shipped().statute
    # a router that read X alone: BUrlG's lay row is X's own vector, every other law's is empty
    alone = shipped().with_lay([questions[x]])
    _, lay = alone.cosines([text])
    assert lay[0, law] == pytest.approx(1.0, abs=1e-5)
    assert np.count_nonzero(lay[0]) == 1


class Spy(LawRouter):
    """A law router that records which questions it read and which texts it scored."""

    read: frozenset = frozenset()
    log: list | None = None

    def with_lay(self, questions):
        made = super().with_lay(questions)
        spy = Spy(**{f.name: getattr(made, f.name) for f in fields(made)})
        spy.read, spy.log = frozenset(t for t, _ in questions), self.log
        return spy

    def over(self, texts, laws):
        self.log.append((self.read, tuple(texts)))
        return super().over(texts, laws)


def test_stacking_never_scores_a_question_with_a_router_that_read_it(lay_set, units, corpus):
    base = shipped()
    spy = Spy(**{f.name: getattr(base, f.name) for f in fields(base)})
    spy.log = []
    fit_stacked(lay_set, lambda ts: train(ts, UNITS), graph_facts(units, corpus, router=spy), n_folds=2,
                features=ROUTER_RANKER_FEATURES)
    texts = {e.text for e in lay_set.examples}
    assert len(spy.log) == 2  # one router per inner fold, each scoring that fold's questions
    assert {t for _, scored in spy.log for t in scored} == texts
    for read, scored in spy.log:
        assert read and not read & set(scored)
        assert read | set(scored) == texts  # it read the other fold's questions, all of them


def test_candidates_hold_the_learned_routers_top_law_sections(lay_set, units, corpus):
    model = train(lay_set, UNITS)  # the predictor knows a few BGB §§ only
    assert shipped().top_laws(HOLIDAY, 1, corpus.laws)[0][0] == "BUrlG"
    cand = candidates(model, [HOLIDAY], None, graph_facts(units, corpus, router=shipped()))[0]
    at = cand.ids.index("BUrlG/§3")
    assert SOURCES["learned_routed"] in cand.found[at]
    cols = [FEATURES.index(f) for f in LAWROUTER_FEATURES]
    score, rank, gap = cand.x[at, cols]
    assert rank == 1 and gap == 0 and score > 0
    # without a learned router: no such source, the features missing
    plain = candidates(model, [HOLIDAY], None, graph_facts(units, corpus))[0]
    assert not any(SOURCES["learned_routed"] in f for f in plain.found)
    assert np.isnan(plain.x[:, cols]).all()


def test_only_a_ranker_that_reads_the_router_gets_it(units, corpus):
    old = tuple(f for f in GRAPH_RANKER_FEATURES if f not in LAWROUTER_FEATURES)
    assert Ranker("lay", None, None, features=old).attach_units(units, [], corpus).facts.router is None
    new = Ranker("lay", None, None, features=ROUTER_RANKER_FEATURES).attach_units(units, [], corpus)
    assert new.facts.router is shipped()


def test_fold_router_reads_the_laws_of_the_training_labels(lay_set):
    assert lay_questions(lay_set)[0] == (lay_set.examples[0].text, ["BGB"])
    assert fold_router(None, lay_set) is None
