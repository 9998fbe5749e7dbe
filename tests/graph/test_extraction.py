"""Per-law work in worker processes (legalkg.graph.extraction): pure, no server."""

from __future__ import annotations

import pytest

from legalkg.cite import KnownUnits, LawRegistry, statute_edges
from legalkg.graph.extraction import Extraction, fork_context, parsed_unit_ids, worker_context, worker_law
from legalkg.parse import iter_laws
from legalkg.parse.sources import pack_law


def _laws():
    return [law for _, law in iter_laws(None, ["kschg", "burlg", "tzbfg"])]


def test_a_packed_law_comes_back_whole(shared_gii):
    """Where workers are not forked, a task carries the law packed."""
    law = _laws()[0]
    back = worker_law(pack_law(law))
    assert back.key == law.key == "KSchG"
    assert [(u.id, u.level, u.parent_id, u.text, u.repealed) for u in back.units] == \
           [(u.id, u.level, u.parent_id, u.text, u.repealed) for u in law.units]


def test_forked_workers_find_each_law_by_its_index(shared_gii):
    """Tasks name laws by index (largest first): each law's edges must be its own, as in one process."""
    laws = _laws()
    ids, repealed = parsed_unit_ids(laws)
    known, registry = KnownUnits(ids), LawRegistry.default()
    assert fork_context() is not None  # Linux: the index path is the one under test
    ex = Extraction(laws, registry, known, repealed, workers=2)
    try:
        got = [(law.key, [(e.source_id, e.target_id, e.text) for e in edges]) for law, edges, _, _ in ex.results()]
    finally:
        ex.close()
    want = [(law.key, [(e.source_id, e.target_id, e.text) for e in statute_edges(law, registry, known, repealed)[0]])
            for law in laws]
    assert got == want
    assert all(edges and all(s.startswith(key + "/") for s, _, _ in edges) for key, edges in got)


def test_the_worker_context_exists_only_in_a_worker():
    """A law named by index needs the context its worker was started with; outside a worker that
    is an error, not a silent None."""
    with pytest.raises(RuntimeError, match="outside an extraction worker"):
        worker_context()
    with pytest.raises(RuntimeError):
        worker_law(0)
