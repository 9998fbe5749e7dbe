"""A loaded model's naive Bayes totals read from their cache are the computed ones, bit for bit (pure).

``NaiveBayes.sums`` of a model read from a file comes from ``$LEGALKG_CACHE/nb-sums/`` after the
first process (``predict/nbcache.py``); the weights and scores built on them must not move.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import scipy.sparse as sp

from legalkg.predict import default_model_path, modelfile, nbcache
from legalkg.predict.classifier import NaiveBayes

QUESTION = "Mein Vermieter gibt die Kaution nicht zurück"


def same(a: tuple, b: tuple) -> bool:
    return (np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1]) and a[2].shape == b[2].shape
            and np.array_equal(a[2].toarray(), b[2].toarray()))


def counts() -> sp.csr_matrix:
    rng = np.random.default_rng(7)
    dense = rng.integers(0, 4, size=(40, 300)).astype(np.float32) * (rng.random((40, 300)) < 0.1)
    return sp.csr_matrix(dense)


def test_cached_totals_are_the_computed_ones_and_give_the_same_scores(tmp_path, monkeypatch):
    monkeypatch.setenv("LEGALKG_CACHE", str(tmp_path))
    c = counts()
    first = NaiveBayes(c, 0.5, cache=True)
    built = first.sums()
    assert len(list((tmp_path / nbcache.FOLDER).iterdir())) == 1
    again = NaiveBayes(c, 0.5, cache=True)
    read = again.sums()
    assert isinstance(read[0], np.memmap)  # read from the cache, not built
    assert same(read, built) and same(read, NaiveBayes(c, 0.5).sums())
    x = sp.csr_matrix(np.eye(3, 300, k=5, dtype=np.float32) * 0.7)
    assert np.array_equal(again.scores(x), NaiveBayes(c, 0.5).scores(x))
    assert np.array_equal(again.table(), NaiveBayes(c, 0.5).table())


def test_another_alpha_or_count_is_another_entry_and_a_damaged_one_is_built_again(tmp_path, monkeypatch):
    monkeypatch.setenv("LEGALKG_CACHE", str(tmp_path))
    c = counts()
    keys = {nbcache.digest(c, 0.5), nbcache.digest(c, 1.0)}
    changed = c.copy()
    changed.data[0] += 1
    keys.add(nbcache.digest(changed, 0.5))
    assert len(keys) == 3
    NaiveBayes(c, 0.5, cache=True).sums()
    folder = tmp_path / nbcache.FOLDER / nbcache.digest(c, 0.5)
    (folder / "norms.npy").write_bytes(b"damaged")
    assert same(NaiveBayes(c, 0.5, cache=True).sums(), NaiveBayes(c, 0.5).sums())
    assert isinstance(NaiveBayes(c, 0.5, cache=True).sums()[1], np.memmap)  # written again


def test_the_shipped_lay_model_scores_the_same_from_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LEGALKG_CACHE", str(tmp_path))
    path = default_model_path("lay")
    cold = modelfile.load(path).component_scores([QUESTION])["nb"]  # builds the totals and keeps them
    warm = modelfile.load(path)
    nb = warm.component_scores([QUESTION])["nb"]
    assert list((tmp_path / nbcache.FOLDER).iterdir()) and warm.cache_sums
    fitted = dataclasses.replace(warm, cache_sums=False)  # as a training run's model: nothing cached
    plain = fitted.component_scores([QUESTION])["nb"]
    assert nb[0] == plain[0] == cold[0] and np.array_equal(nb[1], plain[1]) and np.array_equal(cold[1], plain[1])
    assert np.isfinite(plain[1]).all() and len(plain[0]) > 1000
