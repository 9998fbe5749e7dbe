"""The static encoder's few-query pooling equals the sparse product bit for bit, without scipy (pure).

``pool_rows`` adds the rows a few queries use one by one (``add_rows``) so that a cold ``legalkg
verify`` does not import scipy for one product; ``pool`` (the whole table, a count matrix times it)
is the reference. Random float16 tables as the shipped one stores, repeated tokens, long and short
texts: every bit the same.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np

from legalkg.embed.static import pool, pool_rows


def test_pool_rows_equals_the_sparse_product_to_the_bit():
    rng = np.random.default_rng(47)
    for _ in range(200):
        vocab, dim = int(rng.integers(5, 400)), int(rng.integers(1, 70))
        stored = (rng.standard_normal((vocab, dim)) * rng.choice([1e-3, 1.0, 300.0])).astype(np.float16)
        ids = [rng.integers(0, vocab, size=int(rng.integers(1, 60))).tolist() for _ in range(int(rng.integers(1, 5)))]
        ids[0] = ids[0] + ids[0][:3]  # repeated tokens, as a text repeats words
        got = pool_rows(stored, ids)
        want = pool(np.asarray(stored, dtype=np.float32), ids)
        assert got.dtype == want.dtype == np.float32 and got.shape == want.shape
        assert got.tobytes() == want.tobytes()


def test_the_shipped_encoder_pools_a_paragraph_without_scipy():
    code = ("import sys\nfrom legalkg.embed.static import load_model\n"
            "m = load_model()\nv = m.encode(['Die Kaution ist getrennt vom Vermögen des Vermieters anzulegen.'])\n"
            "print(v.shape[0], 'scipy.sparse' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["1", "False"]
