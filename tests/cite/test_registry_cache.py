"""The default law registry read from its cache is the registry built from the files (pure, no server).

``LawRegistry.default()`` keeps its tables in ``$LEGALKG_CACHE/law-registry/`` (``registrycache``); a
cold ``legalkg cite`` then loads them instead of keying 24,000 names. These tests hold the cached
registry to the built one, table for table, and ``legalkg cite``'s output to the same bytes with an
empty and with a filled cache; a changed input file or a damaged cache file is built anew.
"""

from __future__ import annotations

import os
import subprocess
import sys

from legalkg import paths
from legalkg.cite import registry, registrycache

#: a text with citations of a default code, an alias, a gii law outside the 58 (by its manifest
#: abbreviation and its title in the genitive) and an SGB book in words
TEXT = ("Nach § 573 Abs. 2 Nr. 1 BGB und § 14 Abs. 1 WoEigG, § 43 Abs. 1 Satz 2 BRAO, "
        "§ 5 des Bundes-Immissionsschutzgesetzes sowie § 37 des Fünften Buches Sozialgesetzbuch.")


def cite(cache) -> str:
    env = {**os.environ, "LEGALKG_CACHE": str(cache)}
    out = subprocess.run([sys.executable, "-m", "legalkg.cli", "cite", TEXT], capture_output=True, text=True,
                         env=env, check=True)
    return out.stdout


def test_cite_prints_the_same_bytes_with_an_empty_and_a_filled_cache(tmp_path):
    first = cite(tmp_path)
    assert len(list((tmp_path / registrycache.FOLDER).glob("*.bin"))) == 1
    assert cite(tmp_path) == first
    assert '"law":"BRAO"' in first and '"law":"BImSchG"' in first and '"law":"SGB V"' in first


def test_the_cached_tables_are_the_built_ones(tmp_path, monkeypatch):
    monkeypatch.setenv("LEGALKG_CACHE", str(tmp_path))
    manifest = paths.gii_manifest()  # the shared data's, else the packaged names alone
    for manifest_path, packaged in (("", True), *(((str(manifest), False),) if manifest else ())):
        key = registrycache.digest(registry.inputs(manifest_path, packaged))
        built = registry.build_default(manifest_path, packaged)
        registrycache.save(key, built.state())
        loaded = registry.LawRegistry.from_state(registrycache.load(key))
        assert loaded.state() == built.state()
        assert list(loaded.state()[0].items()) == list(built.state()[0].items())  # the same order, too
        assert loaded.key_for("BImSchG") == "BImSchG" and len(loaded) == len(built) > 20_000


def test_a_changed_manifest_gives_a_new_registry(tmp_path, monkeypatch):
    monkeypatch.setenv("LEGALKG_CACHE", str(tmp_path / "cache"))
    manifest = tmp_path / "MANIFEST.tsv"
    manifest.write_text("jurabk\tamtabk\ttitle\nFooG\t\tGesetz über Foo\n", encoding="utf-8")
    first = registry.inputs(str(manifest), False)
    built = registry.build_default(str(manifest), False)
    registrycache.save(registrycache.digest(first), built.state())
    manifest.write_text("jurabk\tamtabk\ttitle\nBarG\t\tGesetz über Bar\n", encoding="utf-8")
    changed = registrycache.digest(registry.inputs(str(manifest), False))
    assert changed != registrycache.digest(first) and registrycache.load(changed) is None
    assert built.key_for("FooG") == "FooG" and registry.build_default(str(manifest), False).key_for("BarG") == "BarG"


def test_a_damaged_or_foreign_file_is_not_read(tmp_path, monkeypatch):
    monkeypatch.setenv("LEGALKG_CACHE", str(tmp_path))
    state = registry.LawRegistry([("BGB", "BGB"), ("SGB V", "SGB V")], default_keys=["BGB"]).state()
    registrycache.save("k", state)
    assert registrycache.load("k") == state
    path = registrycache.path_of("k")
    blob = path.read_bytes()
    path.write_bytes(blob[:-1] + bytes([blob[-1] ^ 1]))
    assert registrycache.load("k") is None
    registrycache.save("k", ({}, set(), {}, []))  # not a registry's state
    assert registrycache.load("k") is None
    assert registrycache.load("missing") is None
