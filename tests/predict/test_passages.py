"""Each § scored by its best Absatz (``passages.py``) and the passage design of the lay ranker
(``PASSAGE_RANKER_FEATURES``, issue 42 item 1): pure, no server; real statute texts of the shared gii XML.

Checked by reading the texts:
* BUrlG § 3 "Dauer des Urlaubs": "(1) Der Urlaub beträgt jährlich mindestens 24 Werktage." and
  "(2) Als Werktage gelten alle Kalendertage, die nicht Sonn- oder gesetzliche Feiertage sind.":
  "Kalendertage" and "Feiertage" are in Abs. 2 only.
* BUrlG § 4 "Wartezeit" has no Absätze: one line of text.
* BUrlG § 13 (1) "Von den vorstehenden Vorschriften mit Ausnahme der §§ 1, 2 und 3 Abs. 1 kann ...
  abgewichen werden. ... abgesehen von § 7 Abs. 2 Satz 2 ...": it cites four other §§ of BUrlG
  (§§ 1, 2, 3, 7), and none of BUrlG's §§ cites § 13.
* StGB § 242 (Diebstahl) stands in "Besonderer Teil", "Neunzehnter Abschnitt: Diebstahl und
  Unterschlagung"; the question "Was droht mir bei Diebstahl im Laden?" has three stems (droht,
  diebstahl, lad), one of which (diebstahl) is in those titles.
"""

from __future__ import annotations

import numpy as np
import pytest

from legalkg.predict import graphpairs, ranker as rankermod, rankfile, train
from legalkg.predict.corpus import Corpus, query_matrix
from legalkg.predict.passages import Passages, split
from legalkg.predict.ranker import RANKER_FEATURES, Ranker, candidates, fit_stacked, graph_facts
from legalkg.predict.rankfeatures import (
    FEATURES,
    PASSAGE_FEATURES,
    PASSAGE_RANKER_FEATURES,
    ROUTER_RANKER_FEATURES,
    SOURCES,
    STRUCTURE_FEATURES,
)
from legalkg.predict.textmatch import bm25_matrix
from legalkg.predict.units import cites_degrees, cites_pairs, outline_titles, unit_texts
from legalkg.vocab import RankerFeatures

from .conftest import UNITS

LAWS = ["burlg", "stgb", "stvg", "tzbfg"]
QUERY = "Zählen Feiertage und Kalendertage beim Urlaub mit?"


@pytest.fixture(scope="module")
def units() -> dict[str, str]:
    return unit_texts(LAWS)


@pytest.fixture(scope="module")
def corpus(units) -> Corpus:
    return Corpus.build(units)


@pytest.fixture(scope="module")
def passages(units, corpus) -> Passages:
    return Passages.build(units, corpus.ids)


def test_a_section_splits_into_its_absaetze_each_under_the_title(units):
    assert split(units["BUrlG/§3"]) == [
        "Dauer des Urlaubs\n(1) Der Urlaub beträgt jährlich mindestens 24 Werktage.",
        "Dauer des Urlaubs\n(2) Als Werktage gelten alle Kalendertage, die nicht Sonn- oder gesetzliche "
        "Feiertage sind.",
    ]
    assert split(units["BUrlG/§4"]) == [units["BUrlG/§4"]]  # no Absatz: the whole text
    assert split("Ohne Titel") == ["Ohne Titel"]


def test_a_sections_passage_score_is_its_best_absatz_bm25(units, corpus, passages):
    # BM25 over every passage of the corpus, built here from the passages themselves
    texts = [p for u in corpus.ids for p in split(units[u])]
    weights, vocab = bm25_matrix(texts)
    first = sum(len(split(units[u])) for u in corpus.ids[:corpus.ids.index("BUrlG/§3")])
    per_passage = np.asarray((query_matrix([QUERY], vocab) @ weights.T).toarray())[0]
    abs1, abs2 = per_passage[first], per_passage[first + 1]
    assert abs2 > abs1 > 0  # Abs. 1 has "Urlaub" only; Abs. 2 adds "Kalendertage", "Feiertage"
    col = corpus.ids.index("BUrlG/§3")
    assert passages.bm25([QUERY])[0, col] == pytest.approx(abs2, rel=1e-5)
    # the vectors: the § scores its best passage's cosine, at least each one's
    vec = passages.cosines([QUERY])[0, col]
    assert np.isfinite(vec) and vec > 0
    assert passages.cosines([""])[0].tolist() == [0.0] * len(corpus.ids)


def test_the_passage_design_finds_and_features_a_section_by_its_absatz(lay_set, units, corpus):
    model = train(lay_set, UNITS)  # the predictor knows a few BGB §§ only
    degrees = cites_degrees(LAWS)
    assert degrees["BUrlG/§13"] == (0, 4)
    facts = graph_facts(units, corpus, degrees, features=PASSAGE_RANKER_FEATURES)
    cand = candidates(model, [QUERY, "Von welchen Vorschriften kann im Tarifvertrag abgewichen werden?"],
                      None, facts)
    at = cand[0].ids.index("BUrlG/§3")
    assert SOURCES["pbm25"] in cand[0].found[at]
    cols = [FEATURES.index(f) for f in PASSAGE_FEATURES]
    pbm25_score, pbm25_rank, pbm25_gap = cand[0].x[at, cols[:3]]
    assert pbm25_score == pytest.approx(facts.passages.bm25([QUERY])[0, corpus.ids.index("BUrlG/§3")], rel=1e-5)
    assert pbm25_rank >= 1 and pbm25_gap <= 0
    at13 = cand[1].ids.index("BUrlG/§13")
    assert cand[1].x[at13, [FEATURES.index("cites_in"), FEATURES.index("cites_out")]].tolist() == [0, 4]
    # without passages: no such source, the features missing
    plain = candidates(model, [QUERY], None, graph_facts(units, corpus))[0]
    assert not any(SOURCES["pbm25"] in f or SOURCES["pvec"] in f for f in plain.found)
    assert np.isnan(plain.x[:, cols]).all()


def test_only_a_ranker_that_reads_passages_gets_them(units, corpus, tmp_path, monkeypatch):
    monkeypatch.setenv("LEGALKG_CACHE", str(tmp_path))
    old = Ranker("lay", None, None, features=ROUTER_RANKER_FEATURES).attach_units(units, [], corpus)
    assert old.facts.passages is None
    new = Ranker("lay", None, None, features=PASSAGE_RANKER_FEATURES).attach_units(units, [], corpus)
    assert new.facts.passages is not None and new.facts.passages.ids == corpus.ids
    assert list((tmp_path / "passages").glob("*.npz"))  # cached for the next start
    assert RANKER_FEATURES[RankerFeatures.PASSAGE] == PASSAGE_RANKER_FEATURES
    assert set(PASSAGE_RANKER_FEATURES) >= set(ROUTER_RANKER_FEATURES) | {"cites_in", "cites_out"}


def test_the_gliederung_match_is_the_share_of_query_stems_in_the_sections_outline(lay_set, units, corpus):
    outline = outline_titles(LAWS)
    assert outline["StGB/§242"] == "Besonderer Teil / Diebstahl und Unterschlagung"
    model = train(lay_set, UNITS)
    question = "Was droht mir bei Diebstahl im Laden?"
    cand = candidates(model, [question], None, graph_facts(units, corpus, outline=outline))[0]
    at = cand.ids.index("StGB/§242")
    assert cand.x[at, FEATURES.index("outline_match")] == pytest.approx(1 / 3)
    plain = candidates(model, [question], None, graph_facts(units, corpus))[0]
    assert np.isnan(plain.x[:, FEATURES.index("outline_match")]).all()


def test_the_citation_neighbours_of_a_strong_candidate_become_candidates(lay_set, units, corpus):
    cites = cites_pairs(LAWS)
    assert {b for a, b in cites if a == "BUrlG/§13"} == {"BUrlG/§1", "BUrlG/§2", "BUrlG/§3", "BUrlG/§7"}
    model = train(lay_set, UNITS)
    question = "Unabdingbarkeit des Urlaubs: wann darf ein Tarifvertrag abweichen?"
    cand = candidates(model, [question], None, graph_facts(units, corpus, cites=cites))[0]
    col = FEATURES.index("neighbour_anchor")
    anchor = cand.x[cand.ids.index("BUrlG/§7"), col]
    assert 1 <= anchor <= 5  # § 13 is among the strongest, § 7 is cited by it
    for cited in ("BUrlG/§1", "BUrlG/§2", "BUrlG/§3", "BUrlG/§7"):
        at = cand.ids.index(cited)
        assert SOURCES["neighbour"] in cand.found[at]
        assert cand.x[at, col] <= anchor  # its best anchor: § 13 or a stronger one
    plain = candidates(model, [question], None, graph_facts(units, corpus))[0]
    assert not any(SOURCES["neighbour"] in f for f in plain.found)
    assert np.isnan(plain.x[:, col]).all()
    assert set(STRUCTURE_FEATURES) <= set(PASSAGE_RANKER_FEATURES)


def test_the_ranker_file_keeps_the_degrees_outline_and_citations(lay_set, units, corpus, tmp_path, monkeypatch):
    monkeypatch.setenv("LEGALKG_CACHE", str(tmp_path))
    outline, cites, degrees = outline_titles(LAWS), cites_pairs(LAWS), cites_degrees(LAWS)
    facts = graph_facts(units, corpus, degrees, features=PASSAGE_RANKER_FEATURES, outline=outline, cites=cites)
    rk = fit_stacked(lay_set, lambda ts: train(ts, UNITS), facts, n_folds=2, features=PASSAGE_RANKER_FEATURES)
    assert rk.outline == outline and list(rk.cites) == cites and rk.degrees == degrees
    loaded = rankfile.load(rankfile.save(rk, tmp_path / "p.npz")).attach_units(units, [], corpus)
    assert loaded.features == PASSAGE_RANKER_FEATURES
    assert loaded.outline == outline and loaded.cites == cites and loaded.degrees == degrees
    assert loaded.facts.neighbours == facts.neighbours
    assert loaded.facts.outline["StGB/§242"] == facts.outline["StGB/§242"]
    assert loaded.facts.passages is not None


def test_the_statutes_own_pairs_leave_the_neighbour_feature_missing(lay_set, units, corpus, monkeypatch):
    seen: dict = {}
    real = rankermod.fit_booster

    def spy(rows, golds, task, seed, features):
        seen["rows"] = rows
        return real(rows, golds, task, seed, features)

    monkeypatch.setattr(rankermod, "fit_booster", spy)
    extra = graphpairs.pairs(units)
    assert any(e.id.startswith("citation:") for e in extra.examples)  # Sätze citing another §
    facts = graph_facts(units, corpus, cites=cites_pairs(LAWS))
    fit_stacked(lay_set, lambda ts: train(ts, UNITS), facts, n_folds=2, features=PASSAGE_RANKER_FEATURES, extra=extra)
    col, n = FEATURES.index("neighbour_anchor"), len(lay_set.examples)
    assert len(seen["rows"]) == n + len(extra.examples)
    assert any(np.isfinite(r.x[:, col]).any() for r in seen["rows"][:n])  # the questions' rows have it
    assert all(np.isnan(r.x[:, col]).all() for r in seen["rows"][n:])  # the pairs' rows never
