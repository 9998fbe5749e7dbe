"""The LLM backend against a local OpenAI-compatible endpoint (tests/chunking/llm_server.py):
the client, and ``run_study(llm=True)`` end to end on the live test server."""

from __future__ import annotations

import json
import re
import socket

import pytest

from legalkg.errors import UserError
from research.chunking.llm import LLMConfig, chat, llm_boundary, llm_context, llm_propositions, llm_summary
from research.chunking.study import StudyConfig, run_study
from research.chunking.units import build_corpus

from .llm_server import CONTEXT, SUMMARY, ChatServer, split_und

SENTENCE = ("Der Vermieter hat eine ihm als Sicherheit überlassene Geldsumme bei einem Kreditinstitut "
            "anzulegen und die Erträge stehen dem Mieter zu.")


def test_chat_speaks_the_openai_format():
    with ChatServer() as srv:
        cfg = LLMConfig(base_url=srv.base_url, model="tiny", api_key="secret")
        assert llm_propositions(cfg, SENTENCE) == split_und(SENTENCE)
        assert len(llm_propositions(cfg, SENTENCE)) == 2
        assert llm_context(cfg, "§ 551 ...", SENTENCE) == CONTEXT
        assert llm_summary(cfg, ["a", "b"]) == SUMMARY
        req = srv.requests[0]
        assert req["path"] == "/v1/chat/completions"
        assert req["headers"]["Authorization"] == "Bearer secret"
        assert req["body"]["model"] == "tiny" and req["body"]["temperature"] == 0
        assert [m["role"] for m in req["body"]["messages"]] == ["system", "user"]
        assert req["body"]["messages"][1]["content"] == SENTENCE
        assert srv.kinds() == {"propositions", "context", "summary"}


@pytest.mark.parametrize("reply, take", [("2", 1), ("Abschnitt 3", 2), ("0", 4), ("9", 4), ("keine", 4)])
def test_boundary_answer_is_read_as_units_to_take(reply, take):
    with ChatServer(boundary=reply) as srv:
        cfg = LLMConfig(base_url=srv.base_url, model="tiny")
        assert llm_boundary(cfg, ["a", "b", "c", "d"]) == take
        assert "Authorization" not in srv.requests[0]["headers"]


def test_unreachable_or_failing_endpoint_is_one_clear_error():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again when the block ends: nothing listens there
    cfg = LLMConfig(base_url=f"http://127.0.0.1:{port}/v1", model="tiny", timeout=5)
    with pytest.raises(UserError, match="LEGALKG_LLM_BASE_URL"):
        chat(cfg, "s", "u")
    with ChatServer(status=500) as srv:
        with pytest.raises(UserError, match="failed"):
            chat(LLMConfig(base_url=srv.base_url, model="tiny"), "s", "u")
    with ChatServer(reply={"error": "no such route"}) as srv:
        with pytest.raises(UserError, match="without choices"):
            chat(LLMConfig(base_url=srv.base_url, model="tiny"), "s", "u")


def _slice(bgb) -> set[str]:
    return {u.id for u in bgb.units if re.fullmatch(r"BGB/§55[1-3][a-z]?", u.id)}


@pytest.mark.neo4j
@pytest.mark.slow  # the study end to end with an LLM endpoint (docs/benchmarks/tests.md)
def test_study_with_llm_uses_the_endpoint_for_every_step(driver, neo4j_cfg, bgb, tmp_path, monkeypatch):
    """--llm reaches the endpoint for propositions, contextual prefixes, RAPTOR summaries and Lumber
    boundaries, and what it answers is what the study indexes."""
    db = neo4j_cfg.database
    path = tmp_path / "q.jsonl"
    path.write_text(json.dumps({"id": "q", "question": "Wie hoch darf die Mietkaution sein?",
                                "gold": ["BGB § 551"]}, ensure_ascii=False) + "\n", "utf-8")
    sl = _slice(bgb)
    with ChatServer(boundary="0") as srv:
        monkeypatch.setenv("LEGALKG_LLM_BASE_URL", srv.base_url)
        monkeypatch.setenv("LEGALKG_LLM_MODEL", "tiny")
        monkeypatch.delenv("LEGALKG_LLM_API_KEY", raising=False)
        cfg = StudyConfig(questions=path, strategies=["proposition", "ctx_subsection", "raptor_sentence",
                                                       "lumber_sentence"], latency_runs=1, llm=True)
        res = run_study(driver, db, cfg, law=bgb, sections=sl, log=lambda m: None)
    assert srv.kinds() == {"propositions", "context", "summary", "boundary"}

    def texts(label: str, where: str = "") -> list[str]:
        recs = driver.execute_query(f"MATCH (n:{label}) {where} RETURN n.text AS t", database_=db).records
        return sorted(r["t"] for r in recs)

    # propositions: exactly what the endpoint split, for every Satz of the slice
    expected = build_corpus(bgb, sl, split=lambda text, items: split_und(text)).propositions
    plain = build_corpus(bgb, sl).sentences
    assert texts("Study_proposition") == sorted(p.text for p in expected)
    assert len(expected) > len(plain)  # some Satz of §§ 551-553 has an ' und ' to split at
    # contextual prefix: the endpoint's sentence, then the unit
    ctx = texts("Study_ctx_subsection")
    assert ctx and all(t.startswith(CONTEXT + "\n") for t in ctx)
    # RAPTOR summary nodes carry the endpoint's summary
    assert set(texts("Study_raptor_sentence", "WHERE n.level > 0")) == {SUMMARY}
    # boundary "0" ("all belong together") keeps each budget-sized group whole: fewer chunks than
    # sentences, at least one
    lumber = next(r for r in res.strategies if r.name == "lumber_sentence")
    assert 0 < lumber.n_units < len(plain)
