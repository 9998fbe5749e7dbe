"""Tree invariants on whole real laws: ids decode, parents first, child text inside parent text."""

import pytest

from legalkg.model import Level, decode_id, level_of_id, word_count


@pytest.mark.parametrize("slug", ["bgb", "bgbeg", "estg", "stgb", "sgb_5", "gg"])
def test_tree_invariants(law, slug):
    parsed = law(slug)
    seen: dict[str, object] = {}
    for i, u in enumerate(parsed.units):
        assert u.order == i
        assert u.id not in seen, u.id
        assert level_of_id(u.id) == u.level, u.id
        assert u.parent_id == parsed.key or u.parent_id in seen, u.id
        parent = seen.get(u.parent_id)
        if parent is not None and parent.level != Level.GLIEDERUNG:
            assert u.text in parent.text, u.id
        if u.level in (Level.SATZ, Level.NUMMER, Level.BUCHSTABE, Level.DOPPELBUCHSTABE):
            c = decode_id(u.id)
            assert c.para and c.satz, u.id
        assert u.words == word_count(u.text)
        seen[u.id] = u


@pytest.mark.parametrize("slug", ["bgb", "bgbeg", "estg", "stgb", "sgb_5", "gg"])
def test_decode_child_equals_decode_id(law, slug):
    """Top-down decoding from the parent's citation gives what decoding the whole id gives."""
    from legalkg.model import TEXT_LEVELS, decode_child

    parsed = law(slug)
    by_id = {u.id: u for u in parsed.units}
    stepped = 0
    for u in parsed.units:
        parent = by_id.get(u.parent_id)
        if u.level in TEXT_LEVELS and parent is not None and parent.level in TEXT_LEVELS:
            assert decode_child(decode_id(parent.id), parent.id, u.id) == decode_id(u.id), u.id
            stepped += 1
    assert stepped > 100


@pytest.mark.parametrize("parent_id, node_id", [
    ("BGB/§433", "BGB/§433/Abs1"), ("BGB/§433/Abs1", "BGB/§433/Abs1/S2"),
    ("StPO/§100a/Abs2/S1/Nr1", "StPO/§100a/Abs2/S1/Nr1/Bsta"),
    ("X/§1/Abs1/S1/Nr2", "X/§1/Abs1/S1/Nr2/S3"),  # a Satz below a Nummer keeps the list's Satz
    ("X/§1/Abs1/S1/Nr2/Bstb", "X/§1/Abs1/S1/Nr2/Bstb/DBstaa"),
    ("X/§1", "X/§1/S"), ("X/§1", "X/§1/Gl3"), ("X/§1", "X/§12"), ("X/Gl1", "X/Gl1/§5"),
    ("GG/Art1", "GG/Art1/Abs3"), ("X", "X/Anl1"),
])
def test_decode_child_edge_cases(parent_id, node_id):
    from legalkg.model import decode_child

    assert decode_child(decode_id(parent_id), parent_id, node_id) == decode_id(node_id)
