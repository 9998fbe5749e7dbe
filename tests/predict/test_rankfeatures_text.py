"""The ranker's features on the whole § text and the citation graph, on real statute text (pure, no server).

Expectations were checked by reading the texts of the shared gii XML:

- "Mietsicherheit" occurs in the BGB only in § 551 (its title) and § 566a; "Kaution" nowhere.
- TzBfG § 22 cites §§ 9a, 12, 13, 14 (Abs. 1) and §§ 8, 9a, 12, 13, 14, 15 (Abs. 2) of its own law:
  6 distinct §§. § 21 cites §§ 4, 5, 14, 15 and 16 to 20: 9. § 16 cites § 15 Abs. 4 only. § 17 cites
  "§§ 5 bis 7 des Kündigungsschutzgesetzes": 3 §§ of the KSchG. § 15 is cited by §§ 16, 21 and 22.
- BGB § 3 is "(weggefallen)".
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from legalkg.errors import UserError
from legalkg.predict import rankfile, train
from legalkg.predict.ranker import FORMAT_VERSION, fit_stacked
from legalkg.predict.rankfeatures import (
    COMPOUND_FEATURES,
    CONFIDENCE_FEATURES,
    DEFAULT_FEATURES,
    FEATURES,
    GRAPH_FEATURES,
    LAWROUTER_FEATURES,
    PASSAGE_FEATURES,
    STRUCTURE_FEATURES,
    TEXT_FEATURES,
    UnitFacts,
)
from legalkg.predict.textmatch import K1, B, Bm25, VectorCache, score_rank_gap
from legalkg.predict.units import cites_degrees, unit_texts

from .conftest import UNITS


@pytest.fixture(scope="module")
def bgb() -> dict[str, str]:
    return unit_texts(["bgb"])


@pytest.fixture(scope="module")
def bgb_paras(bgb) -> list[str]:
    return [u for u in bgb if u.count("/") == 1]


def test_bm25_is_the_okapi_formula_on_a_hand_computed_pair():
    texts = {"a": "Miete Miete Kaution", "b": "Kaufvertrag"}
    got = Bm25(texts, ["a", "b"]).scores("Miete", ["a", "b"])
    # "miet" in 1 of 2 texts: idf ln(1 + 1.5/1.5); tf 2 in a text of 3 tokens, avgdl 2
    want = math.log(2) * 2 * (K1 + 1) / (2 + K1 * (1 - B + B * 3 / 2))
    assert got[0] == pytest.approx(want, rel=1e-5) and got[1] == 0


def test_bm25_ranks_551_above_433_for_mietsicherheit_kaution(bgb, bgb_paras):
    bm = Bm25(bgb, bgb_paras)
    s = bm.scores("Mietsicherheit Kaution", bgb_paras)
    assert {bgb_paras[i] for i in np.flatnonzero(s > 0)} == {"BGB/§551", "BGB/§566a"}
    got = bm.scores("Mietsicherheit Kaution", ["BGB/§551", "BGB/§433", "BGB/§3"])
    assert got[0] > 0 and got[1] == 0 and np.isnan(got[2])  # § 3 is repealed: no text, no score


def test_vector_cosine_puts_the_deposit_section_above_the_sale(bgb):
    cache = VectorCache(bgb)
    got = cache.cosines("Der Vermieter zahlt die Kaution nach dem Auszug nicht zurück", ["BGB/§551", "BGB/§433"])
    assert got[0] > got[1] and -1 <= got[1] < got[0] <= 1
    assert set(cache.vectors) == {"BGB/§551", "BGB/§433"}  # each text encoded once, when first asked


def test_score_rank_gap_ranks_among_the_candidates():
    out = score_rank_gap(np.array([0.5, 2.0, np.nan, 1.0], dtype=np.float32))
    assert out[:, 1].tolist()[:2] == [3, 1] and out[3, 1] == 2 and np.isnan(out[2]).all()
    assert out[:, 2].tolist()[:2] == [-1.5, 0.0]


def test_cites_degrees_of_real_sections_agree_with_their_text():
    deg = cites_degrees(["tzbfg", "kschg"])
    assert deg["TzBfG/§22"] == (0, 6)
    assert deg["TzBfG/§21"][1] == 9
    assert deg["TzBfG/§16"][1] == 1
    assert deg["TzBfG/§17"][1] == 3  # KSchG §§ 5, 6, 7: across laws
    assert deg["TzBfG/§15"] == (3, 0)


def test_a_repealed_section_is_never_a_unit_text(bgb):
    # so a repealed flag would be 0 on every candidate row (rankfeatures' docstring)
    assert "BGB/§3" not in bgb and "BGB/§551" in bgb


def test_text_features_fill_their_columns(bgb):
    ids = ["BGB/§551", "BGB/§433"]
    facts = UnitFacts.build(bgb, ids, {"BGB/§551": (4, 2)})
    x = facts.text_features("Mietsicherheit", ids)
    col = {f: j for j, f in enumerate(TEXT_FEATURES)}
    assert x[0, col["bm25_rank"]] == 1 and x[1, col["bm25_gap"]] < 0
    assert x[0, col["cites_in"]] == 4 and x[0, col["cites_out"]] == 2 and np.isnan(x[1, col["cites_in"]])
    # files name columns of this layout
    assert FEATURES == (DEFAULT_FEATURES + TEXT_FEATURES + GRAPH_FEATURES + LAWROUTER_FEATURES + PASSAGE_FEATURES
                        + STRUCTURE_FEATURES + COMPOUND_FEATURES + CONFIDENCE_FEATURES)


def test_an_old_ranker_file_is_refused_with_one_line(tmp_path):
    path = tmp_path / "old.npz"
    header = {"format": "legalkg-ranker", "version": FORMAT_VERSION - 1, "task": "lay",
              "features": list(DEFAULT_FEATURES), "meta": {}, "cocite": False}
    np.savez(path, header=np.frombuffer(json.dumps(header).encode(), dtype=np.uint8),
             booster=np.frombuffer(b"tree", dtype=np.uint8))
    with pytest.raises(UserError, match="other ranker features") as err:
        rankfile.load(path)
    assert "\n" not in str(err.value) and rankfile.FIX in str(err.value)
    header.update(version=FORMAT_VERSION, features=[*DEFAULT_FEATURES, "pagerank"])  # a feature this code lacks
    np.savez(path, header=np.frombuffer(json.dumps(header).encode(), dtype=np.uint8),
             booster=np.frombuffer(b"tree", dtype=np.uint8))
    with pytest.raises(UserError, match="other ranker features"):
        rankfile.load(path)


def test_a_ranker_on_every_feature_keeps_them_and_its_degrees_through_its_file(lay_set, tmp_path):
    para = [i for i in UNITS if i.count("/") == 1]
    degrees = {"BGB/§551": (3, 1), "BGB/§548": (1, 0)}
    rk = fit_stacked(lay_set, lambda ts: train(ts, UNITS), UnitFacts.build(UNITS, para, degrees), n_folds=2,
                     features=FEATURES)
    loaded = rankfile.load(rankfile.save(rk, tmp_path / "r.npz")).attach_units(UNITS, para)
    assert loaded.features == FEATURES and loaded.degrees == degrees and loaded.facts.bm25 is not None
    model, q = train(lay_set, UNITS), ["Der Vermieter behält die Kaution"]
    assert loaded.rank(model, q, 5) == rk.rank(model, q, 5)
    assert {f"ranker.{f}" for f in TEXT_FEATURES} <= set(rk.explain(model, q, 1)[0][0][2])
    default = fit_stacked(lay_set, lambda ts: train(ts, UNITS), UnitFacts.build(UNITS, para, degrees), n_folds=2)
    assert default.features == DEFAULT_FEATURES and default.degrees == {}
    assert default.attach_units(UNITS, para).facts.bm25 is None  # no matchers built for a ranker without them
