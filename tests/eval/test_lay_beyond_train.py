"""The lay training questions beyond BGB (eval/lay-beyond-train, and the further ones of eval/lay-beyond-more):
records, gold against the statute XML, and no leak into the dev set they are scored against (pure: the shared
gii XML, no server)."""

from __future__ import annotations

import re

import pytest

from legalkg import codes, paths
from legalkg.eval import datasets as D
from legalkg.parse import iter_laws

from .test_lay_beyond import build

DEV = paths.REPO_ROOT / "eval" / "lay-beyond"
#: build.py's set name -> its folder: the shipped training questions and the further ones (lay-beyond-more)
SETS = {"train": paths.REPO_ROOT / "eval" / "lay-beyond-train", "more": paths.REPO_ROOT / "eval" / "lay-beyond-more"}


@pytest.fixture(scope="module", params=sorted(SETS))
def name(request) -> str:
    return request.param


@pytest.fixture(scope="module")
def records(name) -> list[dict]:
    return build.records((SETS[name] / "train.jsonl").read_bytes())


@pytest.fixture(scope="module")
def dev_records() -> list[dict]:
    return [r for f in (DEV / "dev.jsonl", DEV / "outside58.jsonl") for r in build.records(f.read_bytes())]


def test_train_is_built_from_its_parts_with_its_counts(name):
    assert build.parts(SETS[name], "train"), "no train-*.jsonl parts"
    assert build.main(["--set", name, "--check"]) == 0, f"run eval/lay-beyond/build.py --set {name}"


def test_records_have_the_fields_and_unique_ids_and_questions(records):
    for r in records:
        assert set(r) == {"id", "question", "gold", "law", "topic"}, r["id"]
        assert re.fullmatch(r"laytrain-[a-z]-\d{4}", r["id"]) and 1 <= len(r["gold"]) <= 3, r["id"]
        assert "§" not in r["question"] and "Abs." not in r["question"], r["id"]
        assert not re.search(rf"(?<!\w){re.escape(r['law'])}(?!\w)", r["question"]), r["id"]
    assert len({r["id"] for r in records}) == len(records)
    assert len({r["question"] for r in records}) == len(records)


def test_no_training_question_retells_a_scored_question(name, records, dev_records):
    for r in records:
        assert not build.close_to_dev(r, dev_records), r["id"]
    unshared = build.records((SETS[name] / "unshared.jsonl").read_bytes())
    scored_gold = {g for d in dev_records for g in d["gold"]}
    assert unshared and all(not set(r["gold"]) & scored_gold for r in unshared)
    assert {r["id"] for r in unshared} <= {r["id"] for r in records}


def test_the_leak_rule_catches_a_retold_situation():
    """Two questions written apart (hand-picked from a draft of the parts and the dev set): the same
    situation in other words, about the same §, is a retelling; a question about another § is not."""
    dev = {"question": "Mein Vertrag ist jetzt schon zum vierten Mal nur für ein paar Monate verlängert worden, "
                       "insgesamt bin ich zweieinhalb Jahre da, einen Grund hat man mir nie genannt. Ist das erlaubt?",
           "gold": ["§ 14 TzBfG"]}
    retold = {"question": "Ich habe jetzt schon den vierten befristeten Vertrag beim selben Arbeitgeber, insgesamt "
                          "schon fast drei Jahre, ohne dass ein besonderer Grund genannt wurde. Ist das überhaupt "
                          "zulässig?", "gold": ["§ 14 TzBfG"]}
    overlap = build.jaccard(build.words(dev["question"]), build.words(retold["question"]))
    assert build.CLOSE_SAME_GOLD <= overlap < build.CLOSE
    assert build.close_to_dev(retold, [dev])
    assert not build.close_to_dev({**retold, "gold": ["§ 15 TzBfG"]}, [dev])
    assert build.close_to_dev({**dev, "gold": ["§ 1 TzBfG"]}, [dev])  # the same words, whatever the gold


def test_every_gold_is_a_section_in_force_of_a_default_code(name, records, shared_gii):
    cases = D.load_dataset(SETS[name] / "train.jsonl")
    assert [c.id for c in cases] == [r["id"] for r in records]
    slug = {c.cited: c.slug for c in codes.default_codes()}
    laws = {c.law for case in cases for c in case.gold}
    assert laws <= set(slug) and "BGB" not in {r["law"] for r in records}, sorted(laws - set(slug))
    statutes = {law.key: law.by_id() for _, law in iter_laws(shared_gii, [slug[x] for x in sorted(laws)])}
    assert_gold_in_force(records, cases, statutes)


def assert_gold_in_force(records: list[dict], cases: list, statutes: dict) -> None:
    """Each record's gold parsed in full, its first gold in the record's law, and each a § (no Absatz) of
    the parsed statutes (law -> id -> unit) that is not repealed."""
    for r, case in zip(records, cases, strict=True):
        assert not case.meta["unparsed_gold"] and len(case.gold) == len(r["gold"]), r["id"]
        assert case.gold[0].law == r["law"], r["id"]
        for c in case.gold:
            unit = statutes[c.law].get(f"{c.law}/{c.para}")
            assert c.absatz is None and unit is not None, (r["id"], c)
            assert not unit.repealed and unit.text.strip() != "(weggefallen)", (r["id"], c)
