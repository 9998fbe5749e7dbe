"""Expected gain: what the metric credits, the calibration from ranks, scope evidence (pure)."""

from __future__ import annotations

import pytest

from legalkg.context import Calibration, Candidate, fit
from legalkg.context.gain import BUCKETS, PRIOR, bucket, expected, observed, read, save, shipped
from legalkg.eval.metric import score_case
from legalkg.model import Citation


def cand(uid: str, source: str, rank: int, words: int = 10) -> Candidate:
    return Candidate(id=uid, citation=uid, text="x " * words, words=words, source=source, rank=rank)


GOLD = [Citation("BGB", "§573", "2"), Citation("BGB", "§573"), Citation("ZPO", "§574", "2", None, "2")]


def test_observed_splits_what_any_unit_of_the_paragraph_hits_from_what_its_absatz_hits():
    # any unit of § 573 hits both § 573 gold at § depth and the one without an Absatz at Absatz depth
    assert observed("BGB/§573/Abs1/S1", GOLD) == (3, 0)
    assert observed("BGB/§573/Abs2/S3", GOLD) == (3, 1)
    assert observed("BGB/§573", GOLD) == (3, 1)
    assert observed("ZPO/§574/Abs2/S1/Nr2", GOLD) == (1, 1)
    assert observed("BGB/§574", GOLD) == (0, 0)


def test_observed_adds_up_to_the_metrics_hits_at_both_depths():
    for ids in (["BGB/§573/Abs1/S1"], ["BGB/§573/Abs2"], ["BGB/§573", "ZPO/§574/Abs3"], ["ZPO/§574/Abs2/S1"]):
        hits = score_case("c", GOLD, ids).hits
        para_scopes = {uid.split("/")[1] for uid in ids}
        # one unit per § here, so the sum over units is the sum over scopes
        assert sum(sum(observed(uid, GOLD)) for uid in ids) == hits[1] + hits[2], (ids, para_scopes)


def test_buckets_hold_every_rank():
    assert bucket(1) == 0 and bucket(2) == 1 and bucket(4) == 3 and bucket(5) == 3 and bucket(6) == 4
    assert bucket(10**9) == len(BUCKETS) - 1 and bucket(0) == 0


def test_fit_averages_per_source_and_bucket_shrunk_and_monotone():
    cases = [([cand("BGB/§573", "Paragraph", 1), cand("BGB/§1", "Paragraph", 2)], GOLD),
             ([cand("BGB/§573", "Paragraph", 1), cand("BGB/§573/Abs2", "Absatz", 1)], GOLD[:1])]
    cal = fit(cases)
    assert cal.cases == 2 and set(cal.tables) == {"Paragraph", "Absatz"}
    t = cal.tables["Paragraph"]
    assert t.n[:2] == [2, 1]
    # rank 1: observed § counts 3 and 1 (mean 2), shrunk towards the source mean (4 / 3)
    mean = (3 + 1 + 0) / 3
    assert t.para[0] == pytest.approx((4 + 3 * mean) / (2 + 3))
    assert all(a >= b for a, b in zip(t.para, t.para[1:]))
    assert cal.estimate("Paragraph", 1).para == t.para[0]
    assert cal.estimate("Satz", 3) == PRIOR(3)  # no table: the rank prior


def test_each_scope_takes_its_best_evidence():
    cal = Calibration.model_validate({"tables": {
        "Paragraph": {"para": [0.9] + [0.1] * 9, "absatz": [0.5] + [0.1] * 9, "n": [1] * 10},
        "Satz": {"para": [0.2] * 10, "absatz": [0.3] * 10, "n": [1] * 10}}})
    cs = [cand("BGB/§573", "Paragraph", 1), cand("BGB/§573/Abs2/S1", "Satz", 40), cand("BGB/§1/S1", "Satz", 1)]
    e = expected(cs, cal)
    assert e[1].para == 0.9 and e[1].para_from == "Paragraph 1"  # its § ranked first at § level
    assert e[1].absatz == 0.3 and e[1].absatz_from == "Satz 40"
    assert e[2].para == 0.2


def test_saved_calibration_reads_back_per_task(tmp_path):
    cal = fit([([cand("BGB/§573", "Paragraph", 1)], GOLD)])
    path = save(tmp_path / "gain.json", "lay", cal, "python benchmarks/context_packs.py")
    assert shipped("lay", path) == cal
    assert shipped("case", path) == Calibration()
    assert read(tmp_path / "none.json") == {}
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    with pytest.raises(Exception, match="not a context-gain JSON file"):
        read(bad)
