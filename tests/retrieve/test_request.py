"""The vocabulary (legalkg.vocab) and SearchRequest: aliases, validation, one-line errors (no server)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from legalkg.errors import UserError
from legalkg.retrieve import SearchRequest
from legalkg.vocab import Expansion, Mode, RetrievalLevel, check_k, names, parse_expansion, parse_level, parse_mode


@pytest.mark.parametrize("text, level", [("§", "Paragraph"), ("paragraph", "Paragraph"), (" Satz ", "Satz"),
                                         ("SENTENCE", "Satz"), ("abs", "Absatz"), ("nr", "Nummer"),
                                         ("naive", "Chunk"), ("Naive-100w", "Chunk"),
                                         ("doppelbuchstabe", "Doppelbuchstabe")])
def test_level_aliases(text, level):
    assert parse_level(text) is RetrievalLevel(level)


def test_enums_are_their_strings():
    assert RetrievalLevel.SATZ == "Satz" and f"vector_{RetrievalLevel.CHUNK}" == "vector_Chunk"
    assert {"Satz": 1}[RetrievalLevel.SATZ] == 1
    assert names(Mode) == "vector, fulltext, fusion, learned"
    assert not RetrievalLevel.CHUNK.expandable and RetrievalLevel.BUCHSTABE.expandable
    assert [e for e in Expansion if e.parent] == [Expansion.PARENT, Expansion.HYBRID]
    assert [e for e in Expansion if e.citation] == [Expansion.CITATION, Expansion.HYBRID]
    assert [m for m in Mode if m.uses_vectors] == [Mode.VECTOR, Mode.FUSION]


@pytest.mark.parametrize("call, needle", [
    (lambda: parse_level("Kapitel"), "unknown level 'Kapitel': choose one of Paragraph, Absatz, Satz"),
    (lambda: parse_level(None), "unknown level None"),
    (lambda: parse_mode("hybrid"), "unknown retrieval mode 'hybrid': choose one of vector, fulltext, fusion, learned"),
    (lambda: parse_mode("bm25", "mode", " or all"),
     "unknown mode 'bm25': choose one of vector, fulltext, fusion, learned or all"),
    (lambda: parse_expansion("sideways"), "unknown expansion 'sideways': choose one of none, parent, citation, hybrid"),
    (lambda: check_k(0), "-k must be between 1 and 1000, not 0"),
    (lambda: check_k(1001), "-k must be between 1 and 1000, not 1001"),
])
def test_bad_words_are_one_line_user_errors(call, needle):
    with pytest.raises(UserError) as err:
        call()
    assert needle in str(err.value) and "\n" not in str(err.value)


def test_request_normalises():
    req = SearchRequest(query="  Mein\tVermieter\x00 kündigt ", level="§", k="3", mode="Fusion", expand="HYBRID")
    assert req.query == "Mein Vermieter kündigt"
    assert (req.level, req.k, req.mode, req.expand) == (RetrievalLevel.PARAGRAPH, 3, Mode.FUSION, Expansion.HYBRID)
    # one default per concept: the engine's are those of `legalkg search` (the learned mode at § level)
    assert SearchRequest(query="x") == SearchRequest(query="x", level="§", k=5, mode="learned", expand="none")


def test_search_cli_shows_the_engine_defaults():
    from click.testing import CliRunner

    from legalkg.cli import main

    flat = " ".join(CliRunner().invoke(main, ["search", "--help"]).output.split())
    req = SearchRequest(query="x")
    for value in (req.level, req.mode, req.expand, req.k):
        assert f"[default: {value}]" in flat, value


def test_chunks_are_never_expanded():
    assert SearchRequest(query="x", level="naive", expand="hybrid").expand is Expansion.NONE


@pytest.mark.parametrize("level, law, mode", [("§", None, Mode.LEARNED), ("§", "ZPO", Mode.LEARNED),
                                              ("Satz", None, Mode.LEARNED), ("Nummer", "BGB", Mode.LEARNED),
                                              ("Buchstabe", None, Mode.VECTOR), ("naive", None, Mode.VECTOR)])
def test_auto_mode_is_learned_where_the_predictor_has_levels(level, law, mode):
    assert SearchRequest(query="x", level=level, law=law, mode="auto").mode is mode


@pytest.mark.parametrize("kwargs, needle", [
    ({"query": " \n\t "}, "the query is empty"),
    ({"query": None}, "the query is empty"),
    ({"query": 12}, "the query must be text"),
    ({"query": "x", "k": 0}, "-k must be between 1 and 1000, not 0"),
    ({"query": "x", "k": "five"}, "-k must be a whole number"),
    ({"query": "x", "k": 2.5}, "-k must be a whole number"),
    ({"query": "x", "level": "Kapitel"}, "unknown level 'Kapitel'"),
    ({"query": "x", "mode": "hybrid"}, "unknown retrieval mode 'hybrid'"),
    ({"query": "x", "expand": "children"}, "unknown expansion 'children'"),
    ({"query": "x", "law": 5}, "invalid law"),
    ({"query": "x", "levle": "Satz"}, "invalid levle"),
    ({"query": "x", "task": "appeal"}, "unknown task 'appeal'"),
])
def test_bad_requests_are_one_line_user_errors(kwargs, needle):
    with pytest.raises(UserError) as err:
        SearchRequest(**kwargs)
    assert needle in str(err.value) and "\n" not in str(err.value)


def test_request_is_frozen():
    req = SearchRequest(query="x")
    with pytest.raises(ValidationError, match="frozen"):
        req.k = 7  # type: ignore[misc]


@pytest.mark.parametrize("spelling", ["learned", "Learned", "ranked", " RANKED "])
def test_ranked_is_the_old_name_of_the_learned_mode(spelling):
    assert SearchRequest(query="x", mode=spelling).mode is Mode.LEARNED
    assert Mode(spelling.strip().lower()) is Mode.LEARNED
