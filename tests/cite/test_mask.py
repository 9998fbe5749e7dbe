from __future__ import annotations

from legalkg.cite import mask


def test_mask_replaces_chains_and_bare_sections(registry):
    text = "Nach § 574 Abs. 2 Nr. 2 ZPO und § 5 ist die Zivilprozessordnung anzuwenden."
    assert mask(text, registry=registry) == "Nach [NORM] und [NORM] ist die [NORM] anzuwenden."


def test_mask_keeps_law_names_on_request(registry):
    text = "§§ 3, 5 Abs. 1 UWG und das Grundgesetz"
    assert mask(text, placeholder="X", registry=registry, law_mentions=False) == "X und das Grundgesetz"


def test_mask_without_citations_is_identity(registry):
    text = "Der Kläger verlangt Schadensersatz in Höhe von 5.000 EUR (vgl. Rn. 12)."
    assert mask(text, registry=registry) == text
