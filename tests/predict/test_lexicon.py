"""The mapped copy of simplemma's German dictionary answers as simplemma does (pure, no server).

The words are those of real lay questions (GerLayQA's first questions in the shared data, else the
statute-like sentences below), in lower case as ``text.tokens`` asks, and capitalised.
"""

from __future__ import annotations

import json
import re

import pytest
import simplemma

from legalkg import paths
from legalkg.predict import lexicon

SENTENCES = ("Mein Vermieter gibt die Kaution nach dem Auszug nicht zurück. Die Kündigungsfrist läuft, "
             "die Mietkaution ist fällig und der Arbeitgeber zahlt die Überstunden nicht aus; Erbschaften, "
             "Testamente und Schenkungen wurden gestritten, gingen, gegangen, Häuser, Bäume, Fahrräder.")


def sample_words(n: int = 3000) -> list[str]:
    words: dict[str, None] = dict.fromkeys(re.findall(r"[a-zäöüß]+", SENTENCES.lower()))
    source = paths.eval_dir() / "gerlayqa" / "dev.jsonl"
    if source.exists():
        for line in source.read_text("utf-8").splitlines():
            words.update(dict.fromkeys(re.findall(r"[a-zäöüß]+", json.loads(line)["question"].lower())))
            if len(words) >= n:
                break
    return [w for w in words if len(w) > 1]


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LEGALKG_CACHE", str(tmp_path))
    lexicon.factory.cache_clear(), lexicon.lemmatizer.cache_clear(), lexicon.lookup.cache_clear()
    yield tmp_path
    lexicon.factory.cache_clear(), lexicon.lemmatizer.cache_clear(), lexicon.lookup.cache_clear()


def test_lemmas_and_known_words_are_simplemmas(fresh_cache):
    words = sample_words()
    assert len(words) > 100
    ours = [(lexicon.lemmatize(w), lexicon.is_known(w), lexicon.is_known(w.capitalize())) for w in words]
    theirs = [(simplemma.lemmatize(w, lang="de"), simplemma.is_known(w, lang="de"),
               simplemma.is_known(w.capitalize(), lang="de")) for w in words]
    assert ours == theirs
    assert lexicon.lemmatize("gibt") == "geben" and lexicon.is_known("Kaution") and not lexicon.is_known("xqzv")
    assert lexicon.lexicon_path().is_file() and lexicon.lexicon_path().parent.parent == fresh_cache


def test_the_file_is_read_again_and_a_damaged_one_is_built_anew(fresh_cache):
    mapped = lexicon.open_lexicon()
    path = lexicon.lexicon_path()
    assert isinstance(mapped, lexicon.MappedDictionary) and mapped.get("Häuser") == "Haus"
    stamp = path.stat().st_mtime_ns
    again = lexicon.open_lexicon()
    assert path.stat().st_mtime_ns == stamp and len(again) == len(mapped)  # read, not rebuilt
    path.write_bytes(path.read_bytes()[:1000])  # cut short
    rebuilt = lexicon.open_lexicon()
    assert len(rebuilt) == len(mapped) and rebuilt.get("Häuser") == "Haus"


def test_an_unwritable_cache_falls_back_to_simplemmas_dictionary(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("LEGALKG_CACHE", str(blocker))
    got = lexicon.open_lexicon()
    assert not isinstance(got, lexicon.MappedDictionary) and got.get("Häuser") == "Haus"
