"""The beyond-BGB lay dev set (eval/lay-beyond): its records, its gold against the statute XML, its loader
and the files build.py derives from it (pure: the shared gii XML, no server)."""

from __future__ import annotations

import importlib.util
import re
from collections import Counter

import pytest

from legalkg import codes, paths
from legalkg.errors import UserError
from legalkg.eval import datasets as D
from legalkg.parse import iter_laws

FOLDER = paths.REPO_ROOT / "eval" / "lay-beyond"
#: issue 42 item 3, part A: these laws, at least MIN_PER_LAW questions each and MIN_PART_A in all
PART_A_LAWS = {"BUrlG", "KSchG", "TzBfG", "BetrVG", "AGG", "ArbGG", "StGB", "StPO", "JGG", "OWiG", "BtMG", "WaffG",
               "StVG", "StVO", "EStG", "UStG", "AO", "SGB II", "SGB III", "SGB V", "SGB VI", "SGB XII"}
MIN_PER_LAW, MIN_PART_A = 3, 110


def _build():
    spec = importlib.util.spec_from_file_location("lay_beyond_build", FOLDER / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build = _build()


@pytest.fixture(scope="module")
def records() -> list[dict]:
    return build.records((FOLDER / "dev.jsonl").read_bytes())


@pytest.fixture(scope="module")
def cases():
    return D.load_dataset("lay_beyond")


@pytest.fixture(scope="module")
def statutes(records, shared_gii) -> dict[str, dict]:
    """law key -> {unit id: Unit} of every law the gold names, parsed from the shared XML."""
    slug = {c.cited: c.slug for c in codes.default_codes()}
    laws = {r["law"] for r in records}
    assert laws <= set(slug), f"gold laws outside the default codes: {sorted(laws - set(slug))}"
    parsed = dict(iter_laws(shared_gii, [slug[law] for law in sorted(laws)]))
    return {law.key: law.by_id() for law in parsed.values()}


def test_dev_is_the_parts_concatenated_in_name_order():
    parts = build.parts(FOLDER)
    assert parts and parts[0].name == "dev-a.jsonl"
    assert (FOLDER / "dev.jsonl").read_bytes() == build.concatenated(parts), "run eval/lay-beyond/build.py"


def test_readme_counts_are_rendered_from_the_data(records):
    readme = (FOLDER / "README.md").read_text(encoding="utf-8")
    assert build.with_table(readme, build.counts_table(records)) == readme, "run eval/lay-beyond/build.py"


def test_concatenation_keeps_a_part_without_final_newline_apart(tmp_path):
    (tmp_path / "dev-a.jsonl").write_bytes(b'{"id": "a"}')
    (tmp_path / "dev-b.jsonl").write_bytes(b'{"id": "b"}\n')
    assert build.concatenated(build.parts(tmp_path)) == b'{"id": "a"}\n{"id": "b"}\n'


def test_records_have_the_fields_and_unique_ids_and_questions(records):
    for r in records:
        assert set(r) == {"id", "question", "gold", "law", "topic"}, r["id"]
        assert re.fullmatch(r"laybeyond-[a-z]-\d{4}", r["id"]) and 1 <= len(r["gold"]) <= 3, r["id"]
    assert len({r["id"] for r in records}) == len(records)
    assert len({r["question"] for r in records}) == len(records)


def test_part_a_covers_its_laws_with_the_stated_counts():
    part_a = build.records((FOLDER / "dev-a.jsonl").read_bytes())
    per_law = Counter(r["law"] for r in part_a)
    assert set(per_law) == PART_A_LAWS
    assert min(per_law.values()) >= MIN_PER_LAW and len(part_a) >= MIN_PART_A


def test_no_question_names_a_section_or_its_law(records):
    for r in records:
        q = r["question"]
        assert "§" not in q and "Abs." not in q, r["id"]
        assert not re.search(rf"(?<!\w){re.escape(r['law'])}(?!\w)", q), r["id"]


def test_every_gold_parses_to_a_section_of_its_law(records, cases):
    assert [c.id for c in cases] == [r["id"] for r in records]
    for r, case in zip(records, cases):
        assert not case.meta["unparsed_gold"] and len(case.gold) == len(r["gold"]), r["id"]
        for c in case.gold:
            assert c.law == r["law"] and c.para and c.absatz is None, (r["id"], c)
        assert case.meta["dataset"] == "lay_beyond" and case.meta["max_depth"] == 2


def test_every_gold_section_exists_and_is_in_force(cases, statutes):
    for case in cases:
        for c in case.gold:
            unit = statutes[c.law].get(f"{c.law}/{c.para}")
            assert unit is not None, (case.id, c)
            assert not unit.repealed and unit.text.strip() != "(weggefallen)", (case.id, c)


def test_an_installed_package_names_the_missing_file(monkeypatch):
    monkeypatch.setattr(paths, "checkout", lambda: None)
    with pytest.raises(UserError) as err:
        D.load_dataset("lay_beyond")
    assert "eval/lay-beyond/dev.jsonl" in str(err.value) and "--dataset PATH" in str(err.value)
    assert "\n" not in str(err.value)


def test_a_missing_committed_file_is_one_line(monkeypatch, tmp_path):
    monkeypatch.setattr(paths, "checkout", lambda: tmp_path)
    with pytest.raises(UserError, match="does not exist"):
        D.load_dataset("lay_beyond")


def test_build_check_passes_on_the_committed_files():
    assert build.main(["--check"]) == 0
