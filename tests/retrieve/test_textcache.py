"""The § texts kept between processes (pure, no server): the key follows every law's hash, a law
without one is never cached, and a damaged file is read as absent."""

from __future__ import annotations

from legalkg.retrieve import textcache

TEXTS = {"BUrlG/§3": "Dauer des Urlaubs\n(1) Der Urlaub beträgt jährlich mindestens 24 Werktage.",
         "StGB/§242": "Diebstahl\n(1) Wer eine fremde bewegliche Sache ..."}


def test_the_key_follows_each_law_and_its_hash_and_not_their_order():
    a = textcache.key([("BUrlG", "h1"), ("StGB", "h2")])
    assert a == textcache.key([("StGB", "h2"), ("BUrlG", "h1")])
    assert a != textcache.key([("BUrlG", "h1"), ("StGB", "h3")])
    assert a != textcache.key([("BUrlG", "h1")])


def test_an_unfinished_law_or_an_empty_graph_has_no_key():
    assert textcache.key([("BUrlG", "h1"), ("StGB", None)]) is None
    assert textcache.key([]) is None


def test_texts_come_back_as_stored_and_a_damaged_file_reads_as_none(tmp_path):
    digest = textcache.key([("BUrlG", "h1"), ("StGB", "h2")])
    assert textcache.load(tmp_path, digest) is None
    textcache.save(tmp_path, digest, TEXTS)
    assert textcache.load(tmp_path, digest) == TEXTS
    assert [p.name for p in tmp_path.iterdir()] == [f"texts-{digest}.bin"]
    whole = textcache.path(tmp_path, digest).read_bytes()
    textcache.path(tmp_path, digest).write_bytes(whole[:-5])  # cut short
    assert textcache.load(tmp_path, digest) is None
    textcache.path(tmp_path, digest).write_bytes(whole[:40] + bytes([whole[40] ^ 1]) + whole[41:])  # one bit
    assert textcache.load(tmp_path, digest) is None
    textcache.save(tmp_path, digest, TEXTS)
    assert list(textcache.load(tmp_path, digest).items()) == list(TEXTS.items())  # the same order, too
