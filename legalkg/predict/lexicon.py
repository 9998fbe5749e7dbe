"""simplemma's German dictionary as one memory-mapped file in the legalkg cache.

Why: simplemma keeps its dictionary as an LZMA stream that it decodes in Python, record by record,
on the first lemma a process asks for: about 3 s of every cold `legalkg search` with the lay model
(eval/cli-startup/), for the dozen words of a question. This module decodes it once, writes its
entries sorted into ``<cache>/lexicon/`` and from then on maps that file and finds a word by binary
search. The lemmatiser is simplemma's own (its strategies, rules and fallbacks), given this
dictionary through simplemma's ``DictionaryFactory`` seam, so every lemma and every ``is_known``
answer is simplemma's (tests/predict/test_lexicon.py compares them word for word).

The file is named by simplemma's version and its data file's size, so an upgrade builds a new one.
Where the cache cannot be written, the process keeps the decoded dictionary it built, as simplemma
would have; a damaged file is built again.
"""

from __future__ import annotations

import mmap
import os
import tempfile
from collections.abc import Iterator, Mapping
from functools import lru_cache
from pathlib import Path

import simplemma
from simplemma.strategies import DefaultStrategy, DictionaryLookupStrategy
from simplemma.strategies.dictionaries.dictionary_factory import (
    DATA_FOLDER,
    DEFAULT_DICTIONARY_FACTORY,
    DecodedStrMapping,
    DictionaryFactory,
)
from simplemma.utils import normalize_token

from .. import paths

LANG = "de"
MAGIC = b"LKGLEX1\0"
#: Bytes before the offsets: the magic and the entry count.
HEAD = len(MAGIC) + 8


def lexicon_path(lang: str = LANG) -> Path:
    """The cache file of ``lang``'s dictionary for the installed simplemma."""
    size = (DATA_FOLDER / f"{lang}.plzma").stat().st_size
    return paths.cache_dir() / "lexicon" / f"simplemma-{simplemma.__version__}-{lang}-{size}.bin"


def write_lexicon(entries: Mapping[str, str], path: Path) -> None:
    """``entries`` sorted by their UTF-8 bytes into ``path``: magic, count, the key and value end
    offsets (int64 each), then the keys and the values; written beside and renamed (never half a file)."""
    pairs = sorted((k.encode("utf-8"), v.encode("utf-8")) for k, v in entries.items())
    key_ends, value_ends, k_end, v_end = [], [], 0, 0
    for key, value in pairs:
        k_end += len(key)
        v_end += len(value)
        key_ends.append(k_end)
        value_ends.append(v_end)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(MAGIC + len(pairs).to_bytes(8, "little"))
            fh.write(b"".join(n.to_bytes(8, "little") for n in key_ends))
            fh.write(b"".join(n.to_bytes(8, "little") for n in value_ends))
            fh.write(b"".join(k for k, _ in pairs))
            fh.write(b"".join(v for _, v in pairs))
        os.replace(tmp, path)
    finally:
        Path(tmp).unlink(missing_ok=True)


class MappedDictionary(DecodedStrMapping):
    """A str -> str view of a lexicon file, read through ``mmap`` (nothing decoded up front)."""

    def __init__(self, path: Path) -> None:
        with open(path, "rb") as fh:
            self._map = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        if self._map[:len(MAGIC)] != MAGIC:
            raise ValueError(f"{path} is not a lexicon file")
        n = int.from_bytes(self._map[len(MAGIC):HEAD], "little")
        if len(self._map) < HEAD + 16 * n:
            raise ValueError(f"{path} is cut short")
        view = memoryview(self._map)
        self._n = n
        self._key_ends = view[HEAD:HEAD + 8 * n].cast("q")
        self._value_ends = view[HEAD + 8 * n:HEAD + 16 * n].cast("q")
        self._keys = HEAD + 16 * n
        self._values = self._keys + (self._key_ends[n - 1] if n else 0)
        if len(self._map) != self._values + (self._value_ends[n - 1] if n else 0):
            raise ValueError(f"{path} is cut short")

    def _key(self, i: int) -> bytes:
        start = self._key_ends[i - 1] if i else 0
        return self._map[self._keys + start:self._keys + self._key_ends[i]]

    def _lookup(self, key: str) -> str | None:
        target = key.encode("utf-8")
        lo, hi = 0, self._n
        while lo < hi:
            mid = (lo + hi) // 2
            if self._key(mid) < target:
                lo = mid + 1
            else:
                hi = mid
        if lo == self._n or self._key(lo) != target:
            return None
        start = self._value_ends[lo - 1] if lo else 0
        return self._map[self._values + start:self._values + self._value_ends[lo]].decode("utf-8")

    def __iter__(self) -> Iterator[str]:
        for i in range(self._n):
            yield self._key(i).decode("utf-8")

    def __len__(self) -> int:
        return self._n


class CachedDictionaryFactory(DictionaryFactory):
    """simplemma's dictionaries, German from the lexicon file (built on first use)."""

    def __init__(self) -> None:
        self._cache: dict[str, Mapping[str, str]] = {}

    def get_dictionary(self, lang: str) -> Mapping[str, str]:
        if lang != LANG:
            return DEFAULT_DICTIONARY_FACTORY.get_dictionary(lang)
        if lang not in self._cache:
            self._cache[lang] = open_lexicon(lang)
        return self._cache[lang]


def open_lexicon(lang: str = LANG) -> Mapping[str, str]:
    """The mapped lexicon of ``lang``; built from simplemma's dictionary where it is missing or
    damaged; simplemma's own decoded dictionary where the cache cannot be written."""
    try:
        path = lexicon_path(lang)
        if path.is_file():
            try:
                return MappedDictionary(path)
            except (ValueError, OSError):
                path.unlink(missing_ok=True)
        decoded = DEFAULT_DICTIONARY_FACTORY.get_dictionary(lang)
        write_lexicon(decoded, path)
        return MappedDictionary(path)
    except OSError:
        return DEFAULT_DICTIONARY_FACTORY.get_dictionary(lang)


@lru_cache(maxsize=1)
def factory() -> CachedDictionaryFactory:
    return CachedDictionaryFactory()


@lru_cache(maxsize=1)
def lemmatizer() -> simplemma.Lemmatizer:
    """simplemma's default lemmatiser (``simplemma.lemmatize``'s) over the cached dictionary."""
    return simplemma.Lemmatizer(lemmatization_strategy=DefaultStrategy(dictionary_factory=factory()))


@lru_cache(maxsize=1)
def lookup() -> DictionaryLookupStrategy:
    return DictionaryLookupStrategy(factory())


def lemmatize(word: str) -> str:
    """``simplemma.lemmatize(word, lang="de")``."""
    return lemmatizer().lemmatize(word, LANG)


def is_known(word: str) -> bool:
    """``simplemma.is_known(word, lang="de")``."""
    return lookup().get_lemma(normalize_token(word), LANG) is not None
