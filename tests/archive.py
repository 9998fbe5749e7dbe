"""Members of the shared all-laws archive (``gii-all.tar.xz``), read with tarfile and kept in
memory for the session: tests check real gii files outside the 58 default codes without unpacking
the archive anywhere."""

from __future__ import annotations

import tarfile
from functools import cache

import pytest

from legalkg import paths


@cache
def _members(slugs: frozenset[str]) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    with tarfile.open(paths.gii_all_archive(), "r:xz") as tf:
        for member in tf:
            slug = member.name.removesuffix(".xml")
            if slug in slugs:
                fh = tf.extractfile(member)
                assert fh is not None
                out[slug] = fh.read()
                if len(out) == len(slugs):
                    break
    return out


def archive_members(*slugs: str) -> dict[str, bytes]:
    """slug -> the file's bytes; skips the test where the shared archive is missing."""
    if not paths.gii_all_archive().is_file():
        pytest.skip(f"shared all-laws archive not found at {paths.gii_all_archive()}")
    return _members(frozenset(slugs))
