"""End to end on the live test server: a slice of the BGB (§§ 535-580a, residential lease law),
three hand-written questions, a few strategies."""

from __future__ import annotations

import json
import re

import pytest

from research.chunking import store
from research.chunking.report import write_report
from research.chunking.strategies import STRATEGIES
from research.chunking.study import StudyConfig, run_study

#: the study end to end on the live server: minutes (docs/benchmarks/tests.md)
pytestmark = [pytest.mark.neo4j, pytest.mark.slow]

QUESTIONS = [
    {"id": "q-deposit", "question": "Wie hoch darf die Mietkaution höchstens sein und muss der Vermieter "
                                    "die Kaution verzinsen?", "gold": ["BGB § 551"]},
    {"id": "q-eigenbedarf", "question": "Mein Vermieter will mir wegen Eigenbedarf kündigen. Darf er das?",
     "gold": ["BGB § 573"]},
    {"id": "q-heating", "question": "Die Heizung in meiner Wohnung ist seit Wochen kaputt. Darf ich die "
                                    "Miete mindern?", "gold": ["BGB § 536"]},
]


def _slice(bgb) -> set[str]:
    out = set()
    for u in bgb.units:
        m = re.fullmatch(r"BGB/§(\d+)[a-z]?", u.id)
        if m and 535 <= int(m.group(1)) <= 580:
            out.add(u.id)
    return out


@pytest.fixture(scope="module")
def result(driver, neo4j_cfg, bgb, tmp_path_factory):
    path = tmp_path_factory.mktemp("chunking") / "q.jsonl"
    path.write_text("\n".join(json.dumps(q, ensure_ascii=False) for q in QUESTIONS) + "\n", "utf-8")
    cfg = StudyConfig(questions=path, strategies=["section", "fixed_64_16", "lex_subsection"],
                      latency_runs=1, n_clusters=20)
    return run_study(driver, neo4j_cfg.database, cfg, law=bgb, sections=_slice(bgb), log=lambda m: None)


def test_pipeline_returns_ten_distinct_sections(result, bgb):
    sliced = _slice(bgb)
    assert [r.name for r in result.strategies] == ["section", "fixed_64_16", "lex_subsection"]
    for r in result.strategies:
        assert len(r.retrieved) == 3
        for top in r.retrieved:
            assert len(top) == 10 and len(set(top)) == 10
            assert set(top) <= sliced
        assert 0.0 <= r.recall <= 1.0 and r.latency_ms > 0 and r.build_s > 0
        assert r.latency_interleaved and len(r.latency_per_question) == 3
        assert r.latency_ms == pytest.approx(sum(r.latency_per_question) / 3)
        assert len(r.per_question_ablation) == 3
        # Recall@25 reads a longer prefix of the same ranking: never below Recall@10
        assert all(a >= b for a, b in zip(r.per_question_ablation, r.per_question))


def test_statistics_against_section(result):
    section, others = result.strategies[0], result.strategies[1:]
    assert section.p_holm is None and section.latency_p_holm is None
    for r in others:
        assert r.p_holm is not None and r.p_holm_ablation is not None and 0 < r.latency_p_holm <= 1
        mean_diff = sum(a - b for a, b in zip(r.latency_per_question, section.latency_per_question)) / 3
        assert r.latency_diff_ms == pytest.approx(mean_diff)
        assert r.latency_ci_low <= r.latency_diff_ms <= r.latency_ci_high


def test_deposit_question_finds_551_lexically(result):
    lex = next(r for r in result.strategies if r.name == "lex_subsection")
    assert "BGB/§551" in lex.retrieved[0]


def test_units_and_indexes_in_graph(result, driver, neo4j_cfg):
    db = neo4j_cfg.database
    section = next(r for r in result.strategies if r.name == "section")
    assert store.count(driver, db, STRATEGIES["section"]) == section.n_units
    names = {r["name"] for r in driver.execute_query("SHOW INDEXES YIELD name", database_=db).records}
    assert {"study_section", "study_fixed_64_16", "study_ft_subsection"} <= names
    # fixed windows bridge §§: some window covers two sections
    fixed = driver.execute_query("MATCH (n:Study_fixed_64_16) RETURN max(size(n.sections)) AS m",
                                 database_=db).records[0]["m"]
    assert fixed >= 2
    # size formula: n_vectors x dim x 4 + routing
    assert section.vector_bytes == section.n_vectors * result.dim * 4


def test_report_files(result, tmp_path):
    files = {p.name for p in write_report(result, tmp_path)}
    assert {"results.csv", "results.md", "recall.png", "recall_at_25.png", "latency.png", "build_time.png", "storage.png"} <= files
    assert "fixed_64_16" in (tmp_path / "results.csv").read_text("utf-8")


def test_checkpoint_resume_reuses_finished_strategies(driver, neo4j_cfg, bgb, tmp_path):
    """A stopped study resumes: finished strategies are read back, not rebuilt; a changed config is not reused."""
    path = tmp_path / "q.jsonl"
    path.write_text("\n".join(json.dumps(q, ensure_ascii=False) for q in QUESTIONS) + "\n", "utf-8")
    ckpt = tmp_path / "strategies"
    sl = _slice(bgb)
    cfg = StudyConfig(questions=path, strategies=["section"], latency_runs=1)
    first = run_study(driver, neo4j_cfg.database, cfg, law=bgb, sections=sl, log=lambda m: None, checkpoint=ckpt)
    assert (ckpt / "section.json").is_file() and first.resumed == []
    logs: list[str] = []
    cfg2 = StudyConfig(questions=path, strategies=["section", "subsection"], latency_runs=1)
    second = run_study(driver, neo4j_cfg.database, cfg2, law=bgb, sections=sl, log=logs.append, checkpoint=ckpt)
    assert second.resumed == ["section"]
    # the resumed strategy's units are still in the server: its latency is timed again, interleaved
    assert all(r.latency_interleaved for r in second.strategies)
    assert second.strategies[0].retrieved == first.strategies[0].retrieved
    assert second.strategies[0].build_s == first.strategies[0].build_s
    assert any("reused" in m for m in logs)
    # another aggregation changes what the results mean: nothing is reused
    cfg3 = StudyConfig(questions=path, strategies=["section"], latency_runs=1, aggregation="sum")
    third = run_study(driver, neo4j_cfg.database, cfg3, law=bgb, sections=sl, log=lambda m: None, checkpoint=ckpt)
    assert third.resumed == []
    # --fresh ignores the folder
    fourth = run_study(driver, neo4j_cfg.database, cfg, law=bgb, sections=sl, log=lambda m: None,
                       checkpoint=ckpt, resume=False)
    assert fourth.resumed == []


def test_units_have_covers_section_edges_to_the_sections_in_the_graph(driver, neo4j_cfg, bgb, tmp_path):
    """Where the server holds the § nodes, every study unit links to each § it covers."""
    db = neo4j_cfg.database
    path = tmp_path / "q.jsonl"
    path.write_text("\n".join(json.dumps(q, ensure_ascii=False) for q in QUESTIONS) + "\n", "utf-8")
    sl = sorted(_slice(bgb))
    driver.execute_query("UNWIND $ids AS i MERGE (p:Paragraph {id: i}) ON CREATE SET p.covers_test = true",
                         {"ids": sl}, database_=db)
    try:
        cfg = StudyConfig(questions=path, strategies=["fixed_64_16"], latency_runs=1)
        res = run_study(driver, db, cfg, law=bgb, sections=set(sl), log=lambda m: None)
        rec = driver.execute_query(
            "MATCH (n:Study_fixed_64_16) RETURN sum(size(n.sections)) AS listed, "
            "sum(COUNT { (n)-[:COVERS_SECTION]->(:Paragraph) }) AS edges, "
            "max(COUNT { (n)-[:COVERS_SECTION]->(:Paragraph) }) AS most", database_=db).records[0]
        assert res.strategies[0].n_units > 0 and rec["edges"] == rec["listed"] > 0
        assert rec["most"] >= 2  # a window bridging two §§ links to both
        one = driver.execute_query(
            "MATCH (n:Study_fixed_64_16)-[:COVERS_SECTION]->(p:Paragraph {id: 'BGB/§551'}) RETURN count(n) AS c",
            database_=db).records[0]["c"]
        assert one >= 1
    finally:
        driver.execute_query("MATCH (p:Paragraph {covers_test: true}) DETACH DELETE p", database_=db)
