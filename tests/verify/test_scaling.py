"""A long text is verified without the collector walking its growing heap (issue 44: 1 MB of hostile
text took 28 s, the goal is 20 s), and the faster paths write what the model would.

The records of a long text are built as copies of one record per cited unit, and its passages and
support scores once per distinct passage; the collector runs with the bulk thresholds
(``legalkg.gcpolicy``) while such a text is verified. Before, 300 KB of "§ 4 BGB " ran seven full
collections (each walking every token, match and record made so far) and twice the time
(docs/benchmarks/reliability.md).
"""

from __future__ import annotations

import gc

import pytest

from legalkg.verify import Status, Verifier
from legalkg.verify.records import UNSCORED, CitationRecord, json_row
from legalkg.verify.verifier import RELAXED_GC_CHARS


@pytest.fixture(scope="module")
def verifier(load_graph, driver, neo4j_cfg):
    load_graph("KSchG,TzBfG", model=None)
    return Verifier(driver, neo4j_cfg.database, vectors=False)


def collections_during(work) -> tuple[object, list[int]]:
    """``work()`` and the generation of every collection that ran meanwhile."""
    seen: list[int] = []

    def note(phase: str, info: dict) -> None:
        if phase == "start":
            seen.append(info["generation"])

    gc.collect()
    gc.callbacks.append(note)
    try:
        return work(), seen
    finally:
        gc.callbacks.remove(note)


def test_a_long_text_runs_no_full_collection_and_gets_every_record(verifier):
    """§ 4 KSchG (Anrufung des Arbeitsgerichts) cited 20,000 times in 200,000 characters."""
    text = "§ 4 KSchG " * 20_000
    assert len(text) > RELAXED_GC_CHARS
    thresholds = gc.get_threshold()
    report, generations = collections_during(lambda: verifier.verify(text))
    assert len(report.records) == 20_000 and {r.status for r in report.records} == {Status.OK}
    assert {r.id for r in report.records} == {"KSchG/§4"}
    assert [r.start for r in report.records[:3]] == [0, 10, 20]  # each its own offsets
    assert generations.count(2) == 0, f"{generations.count(2)} full collections during one verify"
    assert gc.get_threshold() == thresholds  # the process's own settings again


def test_the_fast_rows_are_the_models_dump():
    base = dict(chain_start=4, chain_end=13, written="§ 4 KSchG", start=4, end=13, cited="§ 4 KSchG", law="KSchG",
                id="KSchG/§4", citation="§ 4 KSchG", text="Will ein Arbeitnehmer geltend machen, ...", nearest=None,
                version=None, ff=None)
    built = CitationRecord.model_construct(span="§ 4 KSchG", status=Status.OK, readings=[], **base, **UNSCORED)
    copied = built.model_copy(update={"span": None, "start": 20, "end": 29})
    ambiguous = CitationRecord(chain_start=0, chain_end=3, written="§ 5", start=0, end=3, cited="§ 5",
                               status=Status.AMBIGUOUS, readings=["KSchG/§5", "TzBfG/§5"], support=0.2)
    for record in (built, copied, ambiguous):
        row = json_row(record)
        assert row == record.model_dump(mode="json") and list(row) == list(record.model_dump(mode="json"))
        assert row["status"] == record.status.value and type(row["status"]) is str
    assert json_row(ambiguous)["readings"] is not ambiguous.readings
