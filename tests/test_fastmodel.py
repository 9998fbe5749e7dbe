"""Models built without validation (``legalkg.fastmodel``) are the models pydantic builds: the same
fields in the same order, the same set of given fields, the same dumps (issue 44: the citation matches
and verify records of 1 MB of "§§ 1, 1, 1, …" are built this way)."""

from __future__ import annotations

import json

from legalkg.cite import CitationMatch, extract
from legalkg.fastmodel import builder
from legalkg.verify import Status
from legalkg.verify.records import CitationRecord, build_records, json_row
from legalkg.verify.status import UnitRow

TEXT = ("Nach §§ 1, 1, 2 BGB und § 573 Abs. 2 Nr. 1 BGB, § 5 KostO sowie §§ 10 bis 12 UWG "
        "und Art. 3 Abs. 1 GG gilt § 9 der Verordnung.")


def same_model(built, validated) -> None:
    assert type(built) is type(validated)
    assert built == validated
    assert list(built.__dict__) == list(type(validated).model_fields)
    assert built.model_fields_set == validated.model_fields_set
    assert built.model_dump() == validated.model_dump()
    assert built.model_dump_json() == validated.model_dump_json()
    assert built.model_copy(update={"start": 1}) == validated.model_copy(update={"start": 1})


def test_the_builder_sets_what_validation_sets():
    values = dict(start=3, end=12, text="§ 433 BGB", chain_start=3, chain_end=12, law_cited="BGB", law_key="BGB",
                  unit="§", para="§433", absatz=None, satz=None, nummer=None, buchstabe=None, doppelbuchstabe=None,
                  halbsatz=None, alternative=None, ff=None, version=None, reason=None, law_ended=None, successor=None)
    same_model(builder(CitationMatch)(dict(values)), CitationMatch(**values))


def test_every_match_of_extract_is_the_validated_model():
    matches = extract(TEXT)
    assert [m.para for m in matches][:4] == ["§1", "§1", "§2", "§573"]
    assert any(m.reason == "law_repealed" and m.law_ended for m in matches)  # the KostO ended in 2013
    for m in matches:
        same_model(m, CitationMatch(**m.model_dump()))


def test_every_record_is_the_validated_model_and_its_row_the_dump():
    matches = extract(TEXT)
    units = {"BGB/§1": UnitRow(id="BGB/§1", citation="§ 1 BGB", text="Die Rechtsfähigkeit des Menschen ...",
                               level="Paragraph")}
    records = build_records(TEXT, matches, units, {"BGB"})
    assert [r.status for r in records[:3]] == [Status.OK, Status.OK, Status.NO_SUCH_UNIT]
    assert records[0].span == "§§ 1, 1, 2 BGB" and records[1].span is None
    assert records[0].__dict__ is not records[1].__dict__
    for r in records:
        validated = CitationRecord(**r.model_dump())
        same_model(r, validated)
        assert json.dumps(json_row(r)) == json.dumps(validated.model_dump(mode="json"))
