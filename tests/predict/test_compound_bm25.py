"""The graph BM25 over the compound parts of a lay query's unknown words (``textmatch.query_terms``) and
the ranker design that reads it (``COMPOUND_RANKER_FEATURES``, eval/ranker/compound-bm25/): pure, no
server; real statute texts of the shared gii XML (BUrlG, StGB, StVG, TzBfG).

Checked by reading the texts:
* StGB § 242 "Diebstahl": "(1) Wer eine fremde bewegliche Sache einem anderen in der Absicht
  wegnimmt, die Sache sich oder einem Dritten rechtswidrig zuzueignen, wird mit Freiheitsstrafe bis
  zu fünf Jahren oder mit Geldstrafe bestraft. (2) Der Versuch ist strafbar." No § of the four laws
  says "Ladendiebstahl"; "Diebstahl" stands in §§ 242 ff. "Strafe" and "droht" are not in § 242
  ("Freiheitsstrafe", "Geldstrafe", "bestraft", "strafbar" stem otherwise), so the question
  "Was für eine Strafe droht für einen Ladendiebstahl?" shares no token with § 242 as typed.
* BUrlG § 3 "Dauer des Urlaubs": "(1) Der Urlaub beträgt jährlich mindestens 24 Werktage."; the
  question "Wie viele Werktage Urlaub stehen mir mindestens zu?" has the tokens viel, werktag,
  urlaub, steh, mindest, each of which the four laws' texts use, so it has no unknown word to split.
"""

from __future__ import annotations

import numpy as np
import pytest

from legalkg.eval.folds import Prepared, fold_ranker
from legalkg.predict import StatuteIndex, TrainingSet, load_examples, rankfile, train
from legalkg.predict.corpus import Corpus
from legalkg.predict.ranker import RANKER_FEATURES, Ranker, candidates, fit_stacked, graph_facts, uses_compounds
from legalkg.predict.rankfeatures import (
    COMPOUND_FEATURES,
    COMPOUND_RANKER_FEATURES,
    FEATURES,
    ROUTER_RANKER_FEATURES,
)
from legalkg.predict.text import tokens
from legalkg.predict.textmatch import compound_parts, part_terms, query_terms
from legalkg.predict.units import unit_texts
from legalkg.vocab import RankerFeatures

from .conftest import LAY, UNITS, write_jsonl

THEFT = "Was für eine Strafe droht für einen Ladendiebstahl?"
HOLIDAY = "Wie viele Werktage Urlaub stehen mir mindestens zu?"
LAWS = ["burlg", "stgb", "stvg", "tzbfg"]


@pytest.fixture(scope="module")
def units() -> dict[str, str]:
    return unit_texts(LAWS)


@pytest.fixture(scope="module")
def corpus(units) -> Corpus:
    return Corpus.build(units)


def rank_of(scores: np.ndarray, ids: list[str], uid: str) -> int:
    return list(np.argsort(-scores, kind="stable")).index(ids.index(uid)) + 1


def test_an_unknown_compound_adds_its_parts_tokens(corpus):
    assert tokens(THEFT) == ["straf", "droht", "ladendiebstahl"]
    assert "ladendiebstahl" not in corpus.vocab  # no § of the four laws says it
    assert compound_parts(THEFT, corpus.vocab) == {"lad", "diebstahl"}  # Laden, Diebstahl
    # of the parts only "diebstahl" is a token of the texts; "lad" is not, so it adds no column
    assert part_terms(THEFT, corpus.vocab) == {corpus.vocab["diebstahl"]}
    assert query_terms(THEFT, corpus.vocab, True) == query_terms(THEFT, corpus.vocab) | {corpus.vocab["diebstahl"]}


def test_theft_gains_bm25_only_with_the_parts(corpus):
    at = corpus.ids.index("StGB/§242")
    plain, parts = corpus.bm25([THEFT])[0], corpus.bm25([THEFT], compounds=True)[0]
    assert plain[at] == 0  # none of the question's own tokens is in § 242
    assert parts[at] > 0 and parts[at] == pytest.approx(corpus.part_bm25([THEFT])[0, at])
    assert rank_of(parts, corpus.ids, "StGB/§242") <= 10 < rank_of(plain, corpus.ids, "StGB/§242")


def test_a_query_of_known_words_scores_exactly_as_before(corpus):
    assert compound_parts(HOLIDAY, corpus.vocab) == set()
    assert np.array_equal(corpus.bm25([HOLIDAY]), corpus.bm25([HOLIDAY], compounds=True))
    assert not corpus.part_bm25([HOLIDAY]).any()
    assert rank_of(corpus.bm25([HOLIDAY])[0], corpus.ids, "BUrlG/§3") <= 3


def test_only_the_compound_design_reads_the_parts(lay_set, units, corpus):
    assert RANKER_FEATURES[RankerFeatures.COMPOUNDS] == COMPOUND_RANKER_FEATURES
    assert set(COMPOUND_RANKER_FEATURES) - set(ROUTER_RANKER_FEATURES) == set(COMPOUND_FEATURES)
    assert not uses_compounds(ROUTER_RANKER_FEATURES) and uses_compounds(COMPOUND_RANKER_FEATURES)
    model = train(lay_set, UNITS)
    old = Ranker("lay", None, None, features=ROUTER_RANKER_FEATURES).attach_units(units, [], corpus)
    new = Ranker("lay", None, None, features=COMPOUND_RANKER_FEATURES).attach_units(units, [], corpus)
    assert not old.facts.compounds and new.facts.compounds
    score, parts = FEATURES.index("gbm25_score"), FEATURES.index(COMPOUND_FEATURES[0])
    before = candidates(model, [THEFT], None, old.facts)[0]
    after = candidates(model, [THEFT], None, new.facts)[0]
    at = after.ids.index("StGB/§242")
    assert "bm25" in after.found[at]  # the parts' BM25 proposes it
    assert after.x[at, score] == pytest.approx(after.x[at, parts]) and after.x[at, score] > 0
    if "StGB/§242" in before.ids:  # another source may still propose it, but BM25 gives it nothing
        assert np.isnan(before.x[before.ids.index("StGB/§242"), score])
    assert np.isnan(before.x[:, parts]).all()
    # a question of known words: the same candidates and BM25 features, its parts' feature 0
    same_old = candidates(model, [HOLIDAY], None, old.facts)[0]
    same_new = candidates(model, [HOLIDAY], None, new.facts)[0]
    assert same_old.ids == same_new.ids
    assert np.array_equal(same_old.x[:, score], same_new.x[:, score], equal_nan=True)
    assert (same_new.x[np.isfinite(same_new.x[:, parts]), parts] == 0).all()


def test_the_ranker_file_keeps_the_design(lay_set, units, corpus, tmp_path):
    facts = graph_facts(units, corpus, features=COMPOUND_RANKER_FEATURES)
    rk = fit_stacked(lay_set, lambda ts: train(ts, UNITS), facts, n_folds=2, features=COMPOUND_RANKER_FEATURES)
    loaded = rankfile.load(rankfile.save(rk, tmp_path / "c.npz")).attach_units(units, [], corpus)
    assert loaded.features == COMPOUND_RANKER_FEATURES and loaded.facts.compounds


def test_a_compound_fold_ranker_reads_the_parts(tmp_path):
    data = load_examples([write_jsonl(tmp_path / "lay.jsonl", LAY)])
    prep = Prepared("lay", data, TrainingSet("lay", [], []), StatuteIndex.build(UNITS, ["BGB"]), UNITS,
                    (UNITS, Corpus.build(UNITS)))
    fold = TrainingSet("lay", [e for e in data.examples if e.id not in {"q2", "q5", "q8"}], data.sources)
    ranker = fold_ranker(prep, fold, features=COMPOUND_RANKER_FEATURES)
    assert ranker.features == COMPOUND_RANKER_FEATURES and ranker.facts.compounds
    assert not fold_ranker(prep, fold, features=ROUTER_RANKER_FEATURES).facts.compounds
