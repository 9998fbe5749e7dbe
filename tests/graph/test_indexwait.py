"""The wait for vector indexes after a bulk write: done when all are ONLINE, patient while the
population moves, one line on FAILED or a stall (pure verdict; the live wait is exercised by
tests/graph/test_vectors.py::test_bulk_write_builds_the_index_after_the_vectors)."""

from __future__ import annotations

from legalkg.graph.indexwait import IndexState, waiting_verdict


def _s(name: str, state: str, percent: float = 100.0) -> IndexState:
    return IndexState(name=name, state=state, percent=percent)


def test_all_online_is_done():
    assert waiting_verdict([_s("vector_Satz", "ONLINE"), _s("vector_Absatz", "ONLINE")], 0.0, 600) is None


def test_no_vector_index_at_all_is_done():
    assert waiting_verdict([], 0.0, 600) is None


def test_populating_within_the_stall_bound_waits_however_long_it_has_taken():
    # the bound is on time without progress, not on the whole wait
    assert waiting_verdict([_s("vector_Satz", "POPULATING", 37.0)], 599.0, 600) == "wait"


def test_a_stalled_population_gives_one_line_naming_index_and_percent():
    line = waiting_verdict([_s("vector_Satz", "POPULATING", 37.0), _s("vector_Absatz", "ONLINE")], 601.0, 600)
    assert line is not None and line != "wait" and "\n" not in line
    assert "vector_Satz 37 %" in line and "vector_Absatz" not in line and "legalkg embed" in line


def test_failed_wins_over_waiting():
    line = waiting_verdict([_s("vector_Satz", "FAILED", 12.0), _s("vector_Nummer", "POPULATING", 5.0)], 0.0, 600)
    assert line is not None and "vector_Satz" in line and "FAILED" in line
