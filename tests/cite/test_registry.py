from __future__ import annotations

import pytest

from legalkg.cite import LawRegistry


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
