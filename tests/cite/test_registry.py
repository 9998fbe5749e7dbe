from __future__ import annotations

import csv
import gzip
from importlib import resources

import pytest

from legalkg.cite import LawRegistry
from legalkg.cite.tokens import token_texts, tokenize


@pytest.mark.parametrize("name,key", [
    ("WEG", "WEG"), ("WoEigG", "WEG"), ("BauGB", "BauGB"), ("BBauG", "BauGB"), ("AO", "AO"),
    ("AO 1977", "AO"), ("EGBGB", "EGBGB"), ("BGBEG", "EGBGB"), ("SGB V", "SGB V"),
    ("SGB 5", "SGB V"), ("UWG 2004", "UWG"), ("Bürgerlichen Gesetzbuchs", "BGB"),
    ("Zivilprozessordnung", "ZPO"), ("Strafgesetzbuches", "StGB"),
    ("Fünften Buches Sozialgesetzbuch", "SGB V"), ("SGB X", "SGB X"),
])
def test_default_aliases(name, key, registry):
    assert registry.key_for(name) == key


def test_manifest_adds_laws_outside_the_default_set(full_registry, registry):
    assert registry.key_for("BRAO") is None
    assert full_registry.key_for("BRAO") == "BRAO"
    assert full_registry.key_for("KWG") == "KredWG"  # amtabk -> gii jurabk key
    assert full_registry.key_for("Bundesrechtsanwaltsordnung") == "BRAO"


def test_unknown_name():
    reg = LawRegistry([("BGB", "BGB")])
    assert reg.key_for("FooBarG") is None
    assert len(reg) == 1


def test_token_texts_are_the_texts_of_tokenize_for_every_packaged_law_name():
    """The registry keys names with ``token_texts`` (no Token built); it must split every gii name,
    title and abbreviation exactly as ``tokenize`` does, or a name and its citation would not meet."""
    data = gzip.decompress(resources.files("legalkg.data").joinpath("gii_laws.tsv.gz").read_bytes())
    names = [v for row in csv.DictReader(data.decode("utf-8").splitlines(), delimiter="\t") for v in row.values() if v]
    names += ["§§ 5a, 7 Abs. 2 S. 1 SGB² V", "Art. 3 GG;", "eWpG", "Gesetz (über) x-y"]
    assert len(names) > 10_000
    assert [n for n in names if token_texts(n) != [t.text for t in tokenize(n)]] == []
