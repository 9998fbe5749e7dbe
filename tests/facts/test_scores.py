"""The hand-judged samples of issue 45 and their scores: eval/facts/scores.json and the figures of
eval/facts/README.md are what eval/facts/score.py computes from eval/facts/judged/ (pure, no server)."""

from __future__ import annotations

import importlib.util
import json
import re

import pytest

from legalkg.paths import REPO_ROOT

FACTS = REPO_ROOT / "eval" / "facts"


@pytest.fixture(scope="module")
def score():
    spec = importlib.util.spec_from_file_location("facts_score", FACTS / "score.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_scores_file_is_computed_from_the_judged_files(score):
    assert score.compute() == json.loads((FACTS / "scores.json").read_text("utf-8"))


def test_readme_figures_are_rendered_from_the_files(score):
    readme = (FACTS / "README.md").read_text("utf-8")
    scores = json.loads((FACTS / "scores.json").read_text("utf-8"))
    assert score.render_readme(readme, scores) == readme
    outside = readme[:readme.index(score.BEGIN)] + readme[readme.index(score.END):]
    # every measured figure sits in the rendered block; the prose quotes none by hand
    assert not re.findall(r"\d[\d.,]*\s?%", outside)


def test_every_record_is_judged_with_a_reason(score):
    for name, verdict in (("enabling", None), ("definitions", "ok"), ("broken", "real")):
        samples, judged = score.read("samples", name), score.read("judged", name)
        assert len(samples) == len(judged) == 100
        for j in judged:
            assert j["reason"].strip()
            if verdict:
                assert isinstance(j[verdict], bool)
            else:
                assert 0 <= j["found"] <= j["named"]
                assert all(isinstance(e["ok"], bool) for e in j["edges"] + j["unresolved"])


def test_the_records_at_the_checkouts_code_are_judged(score):
    head = score.read("judged", "enabling_head")
    assert len(head) == 100 and all(isinstance(e["ok"], bool) for j in head for e in j["edges"] + j["unresolved"])
    before = score.read("judged", "enabling")
    # the checkout's code only drops wrong edges and adds records: never fewer units found
    assert all(h["found"] >= b["found"] and h["named"] == b["named"] for h, b in zip(head, before))
    still = json.loads((FACTS / "judged" / "recheck.json").read_text("utf-8"))["definitions_still_read"]
    assert len(still) == 100 and all(isinstance(x, bool) for x in still)


def test_every_row_after_the_gap_filters_is_judged(score):
    census = score.read("judged", "broken_census")
    assert census and all(r["reason"].strip() and isinstance(r["real"], bool) for r in census)
    assert {r["judged"] for r in census} == {"sample", "after"}
    assert {r["kind"] for r in census} <= {"dangling", "transitional", "range_member", "parser_gap"}
    assert all(r["real"] == (r["kind"] in ("dangling", "transitional")) for r in census)


def test_a_verdict_out_of_order_is_refused(score):
    samples, judged = score.read("samples", "broken"), score.read("judged", "broken")
    with pytest.raises(SystemExit, match="keep the sample's order"):
        score.broken(samples, judged[1:] + judged[:1])
    with pytest.raises(SystemExit, match="judge every record"):
        score.definitions(score.read("samples", "definitions"), score.read("judged", "definitions")[:-1])


def test_wilson_interval(score):
    # 36 of 100, by hand: centre (0.36 + z²/200) / (1 + z²/100) = 0.36518, half-width
    # z·sqrt(0.36·0.64/100 + z²/40000) / (1 + z²/100) = 0.09247 -> [0.2727, 0.4576]
    assert score.wilson(36, 100) == [0.2727, 0.4576]
    assert score.wilson(12, 12)[1] == 1.0


def test_judged_broken_reference_is_gone_from_the_statute(law):
    # judged real: Art. 232 § 8 EGBGB names § 609a BGB, which the BGB no longer holds (today § 489)
    ids = {u.id for u in law("bgb").units}
    assert "BGB/§609a" not in ids and "BGB/§489" in ids
    # judged a parser gap: "Satz 1 ... mit Ausnahme von Absatz 5 Satz 3" in § 65d Abs. 1 SGB V means § 63
    sgb5 = law("sgb_5").by_id()
    assert "mit Ausnahme von Absatz 5 Satz 3" in sgb5["SGB V/§65d/Abs1/S3"].text
    assert "SGB V/§63/Abs5" in sgb5


@pytest.mark.parametrize("which", [None, 0, 1, 2])
def test_every_held_out_record_is_judged_with_a_reason(score, which):
    spec = score.HELD_OUT if which is None else score.EARLIER[which]
    drawn = json.loads((FACTS / spec["judged"] / "drawn.json").read_text("utf-8"))
    assert re.fullmatch(r"[0-9a-f]{7,40}", drawn["commit"]) and f"--seed {spec['seed']}" in drawn["command"]
    for name, verdict in (("enabling", None), ("definitions", "ok"), ("broken", "real")):
        samples, judged = score.read(spec["samples"], name), score.read(spec["judged"], name)
        assert len(samples) == len(judged) == 60
        for j in judged:
            assert j["reason"].strip()
            if verdict:
                assert isinstance(j[verdict], bool)
            else:
                assert 0 <= j["found"] <= j["named"]
                assert all(isinstance(e["ok"], bool) for e in j["edges"] + j["unresolved"])


def test_the_held_out_samples_are_other_draws_than_the_development_samples(score):
    for name, key in (("enabling", ("law",)), ("definitions", ("unit", "term"))):
        folders = ["samples", *(e["samples"] for e in score.EARLIER), score.HELD_OUT["samples"]]
        drawn = [[tuple(r[k] for k in key) for r in score.read(folder, name)] for folder in folders]
        assert len({tuple(d[:60]) for d in drawn}) == len(folders)
