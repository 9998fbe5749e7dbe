"""Shared fixtures of the rank tests: the real BGB, parsed once, and a small hand-picked corpus."""

from __future__ import annotations

import numpy as np
import pytest

from legalkg import paths
from legalkg.parse import parse_file
from legalkg.rank.graph import build_graph
from legalkg.rank.resources import Resources, attach_indexes, collect_units

#: Real BGB §§ (tenancy, damages, torts, good faith) for a corpus small enough to reason about.
SMALL_PARAS = ("BGB/§535", "BGB/§543", "BGB/§573", "BGB/§573a", "BGB/§573c", "BGB/§574",
               "BGB/§280", "BGB/§281", "BGB/§282", "BGB/§283", "BGB/§242", "BGB/§823")


@pytest.fixture(scope="session")
def bgb():
    return parse_file(paths.gii_dir() / "bgb.xml")


@pytest.fixture(scope="session")
def bgb_edges(bgb):
    from legalkg.cite import LawRegistry, statute_edges

    edges, _ = statute_edges(bgb, LawRegistry.default(), {u.id for u in bgb.units})
    return [(e.source_id, e.target_id) for e in edges]


@pytest.fixture(scope="session")
def small_res(bgb, bgb_edges) -> Resources:
    """Resources over SMALL_PARAS only (no vectors: dense retrieval is off in these tests)."""
    paras, absaetze = collect_units([bgb])
    paras = [u for u in paras if u.id in SMALL_PARAS]
    row = {u.id: i for i, u in enumerate(paras)}
    absaetze = [u for u in absaetze if u.parent_id in row]
    keep = set(row)
    graph = build_graph([(a, b) for a, b in bgb_edges
                         if a.split("/")[1] in {k.split("/")[1] for k in keep}], nodes=list(row))
    res = Resources(
        para_ids=[u.id for u in paras], para_titles=[u.title or "" for u in paras],
        para_texts=[u.text for u in paras],
        para_words=np.array([u.words for u in paras], np.float32),
        abs_ids=[u.id for u in absaetze], abs_para=np.array([row[u.parent_id] for u in absaetze]),
        abs_texts=[u.text for u in absaetze], graph=graph, caselaw={"BGB/§242": 6},
        model_name="")
    return attach_indexes(res)
