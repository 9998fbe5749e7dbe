"""The static encoder: table maths, the one-file format, determinism, and the shipped model on real
statute text (pure: no server)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from legalkg.cli import main
from legalkg.embed import StaticEmbedder, get_embedder, load_static_model, save_static_model
from legalkg.embed.static import DEFAULT_FILE, pool
from legalkg.encoder.corpus import Pair, paragraph_of
from legalkg.encoder.distil import pca, sif_weights, token_strings, train_tokenizer
from legalkg.encoder.finetune import draw_batch, index_pairs, negatives_mask
from legalkg.errors import UserError

from .conftest import norm_text


def test_pool_sums_rows_per_text():
    table = np.arange(12, dtype=np.float32).reshape(4, 3)
    out = pool(table, [[0, 2], [3], [], [1, 1, 1]])
    assert out.tolist() == [[6, 8, 10], [9, 10, 11], [0, 0, 0], [9, 12, 15]]


def test_sif_weights_fall_with_frequency():
    w = sif_weights(np.array([0.0, 10.0, 1000.0, 100000.0]))
    assert np.all(np.diff(w) < 0) and w.dtype == np.float32 and 0 < w.min() and w.max() <= 1


def test_pca_keeps_most_variance_and_is_deterministic():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((200, 2)) @ np.array([[5.0, 0, 0, 0], [0, 1.0, 0, 0]]) + rng.standard_normal((200, 4)) * 0.01
    a, b = pca(x, 2), pca(x.copy(), 2)
    assert a.shape == (200, 2) and np.array_equal(a, b)
    assert a[:, 0].var() > 10 * a[:, 1].var()


def test_negatives_mask_drops_shared_texts():
    batch = np.array([[0, 10], [0, 11], [1, 10], [2, 12]])
    m = negatives_mask(batch)
    assert m.diagonal().all()
    assert not m[0, 1] and not m[1, 0]  # same question, two §§
    assert not m[0, 2] and not m[2, 0]  # same §
    assert m[0, 3] and m[3, 1] and m[1, 2]


def test_index_pairs_and_batch_shares():
    pairs = [Pair("a", "b", "cites"), Pair("a", "c", "question"), Pair("d", "b", "satz_para")]
    texts, by_kind = index_pairs(pairs)
    assert texts == ["a", "b", "c", "d"]
    assert by_kind["question"].tolist() == [[0, 2]] and set(by_kind) == {"cites", "question", "satz_para"}
    batch = draw_batch(np.random.default_rng(0), by_kind, 100)
    assert batch.shape == (100, 2) and set(map(tuple, batch.tolist())) <= {(0, 1), (0, 2), (3, 1)}


def test_paragraph_of_walks_to_the_section():
    parent = {"BGB/§1/Abs1/S1": "BGB/§1/Abs1", "BGB/§1/Abs1": "BGB/§1", "BGB/§1": "BGB/Gl1", "BGB/Gl1": "BGB"}
    texts = {"BGB/§1/Abs1/S1": "x", "BGB/§1/Abs1": "x", "BGB/§1": "x y"}
    assert paragraph_of("BGB/§1/Abs1/S1", parent, texts) == "BGB/§1"
    assert paragraph_of("BGB/§1", parent, texts) is None


@pytest.fixture(scope="module")
def tiny_file(tmp_path_factory):
    """A model trained on the real text of a few BGB §§, with a random table."""
    texts = [norm_text("bgb", f"§ {n}") for n in ("433", "535", "551", "573", "823", "1922")]
    tok = train_tokenizer(texts * 3, vocab_size=300)
    table = np.random.default_rng(0).standard_normal((tok.get_vocab_size(), 16)).astype(np.float32)
    path = save_static_model(tmp_path_factory.mktemp("m") / "tiny.npz", tok, table, {"name": "tiny", "stage": "test"})
    return path, tok, table, texts


def test_file_round_trip_and_embedding(tiny_file):
    path, tok, table, texts = tiny_file
    model = load_static_model(path)
    assert model.meta["format"] == "legalkg-static/1" and model.meta["dim"] == 16
    assert np.allclose(model.table, table.astype(np.float16).astype(np.float32))
    assert model.tokenizer.to_str() == tok.to_str()
    emb = get_embedder(f"static:{path}")
    vecs = emb.embed_documents(texts)
    ids = tok.encode(texts[0], add_special_tokens=False).ids
    want = model.table[ids].sum(0)
    assert np.allclose(vecs[0], want / np.linalg.norm(want), atol=1e-5)
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1, atol=1e-5)
    assert np.array_equal(vecs, emb.embed_documents(texts))  # deterministic
    assert np.array_equal(emb.embed_query(texts[1]), emb.embed_documents([texts[1]])[0])  # symmetric
    assert emb.info().dim == 16 and model.digest in emb.version


def test_a_few_queries_pool_their_rows_alone_to_the_same_bits(tiny_file):
    from legalkg.embed.static import FEW_TOKENS, pool, pool_rows

    path, tok, _, texts = tiny_file
    model = load_static_model(path)
    ids = model.token_ids(texts)
    assert sum(map(len, ids)) <= FEW_TOKENS  # the path encode takes for these
    assert np.array_equal(pool_rows(model.stored, ids), pool(model.table, ids))
    assert np.array_equal(model.pooled(ids), pool(model.table, ids))


def test_tokenizer_lowercases_and_strips_continuations(tiny_file):
    _, tok, _, _ = tiny_file
    assert tok.encode("KAUF", add_special_tokens=False).ids == tok.encode("kauf", add_special_tokens=False).ids
    assert not any(s.startswith("##") and len(s) > 2 for s in token_strings(tok))


def test_foreign_and_missing_files_are_one_line(tmp_path):
    bad = tmp_path / "bad.npz"
    np.savez(bad, table=np.zeros((2, 2)), meta=np.frombuffer(json.dumps({"format": "x"}).encode(), dtype=np.uint8))
    for path in (bad, tmp_path / "none.npz"):
        with pytest.raises(UserError) as info:
            StaticEmbedder(path)
        assert "\n" not in str(info.value) and "train-encoder" in str(info.value)


def test_train_encoder_refuses_an_unwritable_out_before_training(tmp_path):
    """--out under a file (no folder can be made there): one line naming --out and exit 1, before
    the corpus is read (without the check the run trains for minutes and then fails to write)."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    out = CliRunner().invoke(main, ["train-encoder", "--stage", "random", "--laws", "burlg", "--minutes", "0.1",
                                    "--out", str(blocker / "enc" / "static.npz")])
    assert out.exit_code == 1, out.output
    assert f"cannot write to {blocker / 'enc'}" in out.output and "choose another --out" in out.output
    assert len(out.output.strip().splitlines()) == 1 and "Traceback" not in out.output
    assert blocker.read_text() == "not a folder"


@pytest.mark.skipif(not DEFAULT_FILE.is_file(), reason="the shipped static encoder is not built")
def test_shipped_model_puts_a_satz_nearest_its_own_section():
    """BGB § 551 Abs. 1 (the Mietkaution's limit) is closer to § 551 than to § 1922 (Erbfolge) or
    § 433 (Kaufvertrag); the file is small enough to ship."""
    emb = get_embedder("static")
    satz = "Hat der Mieter dem Vermieter für die Erfüllung seiner Pflichten Sicherheit zu leisten, so darf diese"
    docs = emb.embed_documents([norm_text("bgb", "§ 551"), norm_text("bgb", "§ 1922"), norm_text("bgb", "§ 433")])
    sims = docs @ emb.embed_query(satz)
    assert sims[0] > sims[1] and sims[0] > sims[2]
    assert DEFAULT_FILE.stat().st_size < 50e6
