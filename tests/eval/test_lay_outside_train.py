"""The lay training questions about laws outside the 58 default codes (eval/lay-outside-train): records, gold
against the all-laws archive, and no leak into the scored questions (pure: the shared XML, no server)."""

from __future__ import annotations

import re

import pytest

from legalkg import codes, lawnames, paths
from legalkg.eval import datasets as D
from legalkg.parse import iter_laws

from .test_lay_beyond import build
from .test_lay_beyond_train import assert_gold_in_force

FOLDER = paths.REPO_ROOT / "eval" / "lay-outside-train"
DEV = paths.REPO_ROOT / "eval" / "lay-beyond"


@pytest.fixture(scope="module")
def records() -> list[dict]:
    return build.records((FOLDER / "train.jsonl").read_bytes())


def test_train_is_built_from_its_parts_with_its_counts():
    assert build.parts(FOLDER, "train"), "no train-*.jsonl parts"
    assert build.main(["--set", "outside", "--check"]) == 0, "run eval/lay-beyond/build.py --set outside"


def test_records_have_the_fields_and_unique_ids_and_questions(records):
    assert records
    for r in records:
        assert set(r) == {"id", "question", "gold", "law", "topic"}, r["id"]
        assert re.fullmatch(r"laytrain-[a-z]-\d{4}", r["id"]) and 1 <= len(r["gold"]) <= 3, r["id"]
        assert "§" not in r["question"] and "Abs." not in r["question"], r["id"]
        short = lawnames.without_year(r["law"]) or r["law"]
        assert not re.search(rf"(?<!\w){re.escape(short)}(?!\w)", r["question"]), r["id"]
    assert len({r["id"] for r in records}) == len(records)
    assert len({r["question"] for r in records}) == len(records)


def test_no_training_question_retells_a_scored_question(records):
    scored = [r for f in (DEV / "dev.jsonl", DEV / "outside58.jsonl") for r in build.records(f.read_bytes())]
    for r in records:
        assert not build.close_to_dev(r, scored), r["id"]


def test_every_gold_is_a_section_in_force_outside_the_default_codes(records):
    archive = paths.gii_all_archive()
    assert archive.exists(), f"the all-laws archive is missing at {archive}"
    cases = D.load_dataset(FOLDER / "train.jsonl")
    assert [c.id for c in cases] == [r["id"] for r in records]
    laws = {c.law for case in cases for c in case.gold}
    assert not laws & {c.cited for c in codes.default_codes()}, "a gold law is one of the 58 default codes"
    slugs = {law: lawnames.slug_for(law) for law in laws}
    assert all(slugs.values()), [law for law, s in slugs.items() if not s]
    statutes = {law.key: law.by_id() for _, law in iter_laws(archive, sorted(set(slugs.values())))}
    assert_gold_in_force(records, cases, statutes)
