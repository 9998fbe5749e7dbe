"""Random mutations of real gii laws: each one parses into a sound tree or gives one ParseError line,
in bounded time and memory (issue 26.11).

The mutations are those a damaged download, a careless edit or a hostile file makes: bytes cut,
repeated or replaced, elements deleted, repeated or moved, hostile text and attributes, entity
declarations. Hypothesis shrinks a failing mutation to a small one, so a failure names its cause.
"""

from __future__ import annotations

import copy
import resource
import time

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from lxml import etree

from legalkg import paths
from legalkg.model import level_of_id
from legalkg.parse import ParseError, parse_bytes

SLUGS = ("burlg", "tzbfg")
#: per example; a parse of these laws takes about 10-30 ms on this machine
DEADLINE_MS = 3000
#: parsed text may hold at most this many characters per input byte (an entity or a repeated element
#: that multiplied the text would break it)
TEXT_PER_BYTE = 8  # a text is held by its unit and each ancestor (§ > Absatz > Satz > Nummer ...)
SETTINGS = settings(max_examples=200, deadline=DEADLINE_MS, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
HOSTILE_TEXT = st.sampled_from([
    "", " ", "§", "§§ 1, " * 50, "&amp;", "]]>", "\x00", "\uffff", "\u200b", "\ud7ff", "Art. 3 Abs. 1 GG",
    "(1) (2) 1. a) aa)", "<", "'\"", "\U0001F600" * 20, "x" * 5000,
])


def _law_bytes(slug: str) -> bytes:
    return (paths.gii_dir() / f"{slug}.xml").read_bytes()


@pytest.fixture(scope="module", autouse=True)
def shared_laws():
    if not all((paths.gii_dir() / f"{s}.xml").is_file() for s in SLUGS):
        pytest.skip(f"shared gii data not found at {paths.gii_dir()}")


def byte_mutation(draw) -> bytes:
    data = _law_bytes(draw(st.sampled_from(SLUGS)))
    a = draw(st.integers(0, len(data)))
    b = draw(st.integers(a, min(len(data), a + draw(st.sampled_from([1, 16, 512, 8192])))))
    kind = draw(st.sampled_from(["cut", "repeat", "replace", "truncate", "insert"]))
    if kind == "cut":
        return data[:a] + data[b:]
    if kind == "repeat":
        return data[:b] + data[a:b] * draw(st.integers(2, 4)) + data[b:]
    if kind == "replace":
        return data[:a] + draw(st.binary(min_size=b - a, max_size=b - a)) + data[b:]
    if kind == "truncate":
        return data[:a]
    return data[:a] + draw(st.binary(max_size=64)) + data[a:]


def tree_mutation(draw) -> bytes:
    root = etree.fromstring(_law_bytes(draw(st.sampled_from(SLUGS))))
    elements = list(root.iter())
    for _ in range(draw(st.integers(1, 4))):
        el = elements[draw(st.integers(0, len(elements) - 1))]
        kind = draw(st.sampled_from(["delete", "repeat", "move", "text", "tail", "attribute", "empty"]))
        parent = el.getparent()
        if kind == "delete" and parent is not None:
            parent.remove(el)
        elif kind == "repeat" and parent is not None:
            for _ in range(draw(st.integers(1, 3))):
                parent.insert(parent.index(el), copy.deepcopy(el))
        elif kind == "move" and parent is not None:
            target = elements[draw(st.integers(0, len(elements) - 1))]
            if el not in target.iterancestors() and target is not el:
                target.append(el)
        elif kind in ("text", "tail", "attribute"):
            value = draw(HOSTILE_TEXT) + draw(st.text(max_size=40))
            try:  # lxml refuses what XML cannot hold (NUL, control characters): the byte mutations try those
                if kind == "text":
                    el.text = value
                elif kind == "tail":
                    el.tail = value
                else:
                    el.set(draw(st.sampled_from(["builddate", "doknr", "Class", "x"])), value)
            except ValueError:
                pass
        elif kind == "empty":
            for child in list(el):
                el.remove(child)
        elements = list(root.iter())
    data = etree.tostring(root, encoding="UTF-8", xml_declaration=True)
    if draw(st.booleans()):  # an internal DTD with a nested and an external entity, used in a text
        doctype = (b'<!DOCTYPE dokumente [<!ENTITY x SYSTEM "file:///etc/passwd"><!ENTITY a "aaaaaaaaaa">'
                   b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>')
        head, rest = data.split(b"?>", 1)
        data = head + b"?>" + doctype + rest.replace(b"</P>", b"&x;&b;</P>", 1)
    return data


def check(data: bytes) -> None:
    """The property: a sound tree, or one ParseError line naming the file; within the bounds."""
    clock = time.perf_counter()
    try:
        law = parse_bytes(data, "mutant.xml")
    except ParseError as err:
        message = str(err)
        assert "\n" not in message and message.startswith("mutant.xml"), message
        return
    seen: set[str] = set()
    for i, u in enumerate(law.units):
        assert u.order == i and u.id not in seen
        assert u.id.startswith(f"{law.key}/") and level_of_id(u.id) == u.level
        assert u.parent_id == law.key or u.parent_id in seen
        seen.add(u.id)
    assert sum(len(u.text) for u in law.units) <= TEXT_PER_BYTE * len(data)
    assert time.perf_counter() - clock < DEADLINE_MS / 1000


def _max_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@pytest.fixture(scope="module")
def rss_bound():
    """The peak memory of the process may grow by at most this much over all examples."""
    before = _max_rss_mb()
    yield
    assert _max_rss_mb() - before < 300, f"peak RSS grew by {_max_rss_mb() - before:.0f} MB"


# ``st.data()``: a failure prints the drawn choices (positions, kinds, texts), not a 40 KB document
@SETTINGS
@given(st.data())
def test_byte_mutations(rss_bound, data):
    check(byte_mutation(data.draw))


@SETTINGS
@given(st.data())
def test_tree_mutations(rss_bound, data):
    check(tree_mutation(data.draw))


def test_the_unmutated_laws_parse():
    for slug in SLUGS:
        assert len(parse_bytes(_law_bytes(slug), f"{slug}.xml").units) > 20
