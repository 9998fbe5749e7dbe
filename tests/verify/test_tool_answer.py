"""The ``verify`` tool's answer (HTTP ``POST /verify``, MCP ``verify``) is the chain lines of
``legalkg verify --json`` (issue 44, point 10): bounded like the CLI's, and ``with_records`` gives the
records back. Over HTTP a chain of bare numbers was 99x its input, over MCP 258x. The reports are
built as in tests/property/test_verify_output.py: every looked-up unit exists with a long text."""

from __future__ import annotations

import json

import pytest

from legalkg.cite import LawRegistry, extract
from legalkg.serve.tools import encoded
from legalkg.verify import SCHEMA, Verifier, VerifyReport, tool_answer, with_records
from legalkg.verify.records import text_records
from legalkg.verify.status import UnitRow, lookup_ids

UNIT_TEXT = "Der Vermieter kann nur kündigen, wenn er ein berechtigtes Interesse hat. " * 20


@pytest.fixture(scope="module")
def verifier() -> Verifier:
    return Verifier(None, vectors=False, registry=LawRegistry.default())


def report_of(verifier: Verifier, text: str) -> VerifyReport:
    matches = extract(text, registry=verifier.registry)
    ids, laws = lookup_ids(matches)
    units = {u: UnitRow(id=u, citation=u, text=UNIT_TEXT, level="Paragraph", title="Kündigung") for u in ids}
    records, chains = text_records(text, matches, units, set(laws))
    verifier.add_support(text, records, chains, units)
    return VerifyReport(records=records)


@pytest.mark.parametrize("text", [
    "§§ " + ", ".join(["1"] * 10_000) + " BGB",  # 30 KB, a record every 3 characters
    "§§ " + ", ".join(str(n) for n in range(1, 5001)) + " BGB",
    "§ 573 BGB; " * 3000,
], ids=["repeats", "distinct", "repeated-citation"])
def test_the_answer_is_within_50_times_its_input(verifier, text):
    answer = encoded(tool_answer(report_of(verifier, text), len(text)))
    assert len(answer) <= 50 * len(text.encode()), f"{len(answer) / len(text.encode()):.0f}x"


def test_the_chains_expand_to_the_reports_records(verifier):
    text = "Nach §§ 433, 437 Nr. 1 BGB und § 573 Abs. 2 BGB, § 99999 BGB."
    report = report_of(verifier, text)
    answer = json.loads(encoded(tool_answer(report, len(text))))
    assert answer["v"] == SCHEMA and answer["ok"] == report.ok and answer["counts"] == report.counts()
    assert [len(line["members"]) for line in answer["chains"]] == [2, 1, 1]
    back = with_records(answer)["records"]
    assert [{k: r[k] for k in row} for r, row in zip(back, report.rows(), strict=True)] == report.rows()
    assert "records" not in answer
