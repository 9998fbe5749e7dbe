"""The mapped copies of compressed model files (legalkg/npzmap.py): same arrays, one copy per file
version, nothing half-written, and the plain file where the cache cannot be written."""

from __future__ import annotations

import hashlib
import os

import numpy as np
import pytest

from legalkg import npzmap


@pytest.fixture
def cache(tmp_path):
    return tmp_path / "cache"


def write(path, **arrays):
    with path.open("wb") as fh:
        np.savez_compressed(fh, **arrays)


def test_mapped_arrays_equal_the_file_and_are_maps(cache, tmp_path):
    path = tmp_path / "m.npz"
    write(path, a=np.arange(10, dtype=np.float32), b=np.frombuffer(b"x\ny", dtype=np.uint8))
    with np.load(path) as z:
        arrays = npzmap.mapped(path, z, cache / "mapped")
        assert sorted(arrays) == ["a", "b"]
        assert np.array_equal(arrays["a"], np.arange(10, dtype=np.float32))
        assert bytes(arrays["b"]) == b"x\ny"
        assert isinstance(arrays["a"], np.memmap)
        arrays["a"][0] = 99  # copy-on-write: the caller may write, the cached copy stays
    with np.load(path) as z:
        assert npzmap.mapped(path, z, cache / "mapped")["a"][0] == 0
    assert len(list((cache / "mapped").iterdir())) == 1


def test_a_rebuilt_file_is_unpacked_anew_and_the_old_copy_pruned(cache, tmp_path):
    path = tmp_path / "m.npz"
    write(path, a=np.zeros(3))
    with np.load(path) as z:
        npzmap.mapped(path, z, cache / "mapped")
    write(path, a=np.ones(4))
    os.utime(path, ns=(1, 1))  # a different version even where the clock is coarse
    with np.load(path) as z:
        assert np.array_equal(npzmap.mapped(path, z, cache / "mapped")["a"], np.ones(4))
    assert len([p for p in (cache / "mapped").iterdir() if not p.name.startswith(".")]) == 1


def test_unwritable_cache_reads_the_file_itself(cache, tmp_path):
    path = tmp_path / "m.npz"
    write(path, a=np.arange(3))
    cache.mkdir()
    (cache / "mapped").write_text("not a folder")
    with np.load(path) as z:
        arrays = npzmap.mapped(path, z, cache / "mapped")
        assert arrays is z
        assert np.array_equal(arrays["a"], np.arange(3))


def test_the_file_digest_is_its_sha256_kept_per_version(cache, tmp_path):
    path = tmp_path / "m.npz"
    write(path, a=np.zeros(3))
    assert npzmap.sha256(path, cache / "mapped") == hashlib.sha256(path.read_bytes()).hexdigest()  # no copy yet
    with np.load(path) as z:
        npzmap.mapped(path, z, cache / "mapped")
    first = npzmap.sha256(path, cache / "mapped")
    kept = [p for p in (cache / "mapped").rglob(npzmap.DIGEST)]
    assert first == hashlib.sha256(path.read_bytes()).hexdigest() and len(kept) == 1
    assert kept[0].read_text() == first and npzmap.sha256(path, cache / "mapped") == first
    write(path, a=np.ones(4))
    os.utime(path, ns=(1, 1))  # a rebuilt file: another version, hashed anew
    with np.load(path) as z:
        npzmap.mapped(path, z, cache / "mapped")
    assert npzmap.sha256(path, cache / "mapped") == hashlib.sha256(path.read_bytes()).hexdigest() != first
