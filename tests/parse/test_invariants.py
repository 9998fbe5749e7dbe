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
