"""What `legalkg ingest` prints from its report: counted from the per-law results (pure)."""

from __future__ import annotations

from legalkg.graph.report import IngestReport, LawResult


def report(**fields) -> IngestReport:
    laws = [LawResult(law="bgb", status="loaded"), LawResult(law="zpo", status="unchanged"),
            LawResult(law="bad", status="failed", message="bad.xml: not XML")]
    return IngestReport(laws=laws, failures=[("bad", "bad.xml: not XML")], nodes_written=12345,
                        cites_written=678, seconds=2.04, **fields)


def test_summary_counts_each_status_once():
    assert report().summary_lines() == [
        "laws: 1 loaded, 1 unchanged, 1 failed; 12,345 nodes and 678 citation edges written in 2.0 s"]


def test_citation_line_only_when_citations_were_scanned():
    stats = {"edges": 1500, "by_kind": {"intra": 1000, "inter": 500}, "unresolved": 3}
    assert report(cite_stats=stats).summary_lines()[1] == (
        "citations: 1,500 edges {'intra': 1000, 'inter': 500}; unresolved 3")


def test_failure_lines_name_each_failure_then_the_count():
    assert report().failure_lines() == ["error: bad.xml: not XML",
                                        "error: 1 of 3 laws failed; 1 loaded, 1 unchanged"]
    assert IngestReport(laws=[LawResult(law="bgb", status="loaded")]).failure_lines() == []


def test_an_unknown_code_alone_says_nothing_was_loaded():
    """Issue 44: "the others were loaded" was printed when the one law asked for was unknown."""
    unknown = "unknown code 'nosuch' (not in gii)"
    alone = IngestReport(laws=[LawResult(law="nosuch", status="failed", message=unknown)],
                         failures=[("nosuch", unknown)])
    assert alone.failure_lines()[-1] == "error: 1 of 1 laws failed; none was loaded"


def test_cocited_line_only_when_the_edges_were_written():
    assert len(report().summary_lines()) == 1
    line = report(cocited={"lay": 605, "case": 1782}, cocited_seconds=2.44, cocited_rows_seconds=2.2).summary_lines()[1]
    assert line == ("co-citations: 605 lay, 1,782 case CO_CITED edges of the shipped predictors' training cases "
                    "in 2.4 s (2.2 s reading the predictors)")
