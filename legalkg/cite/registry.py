"""Law names -> law keys (the first segment of node ids).

Why a registry: courts and statutes name the same law in many ways ("WEG", "WoEigG",
"des Wohnungseigentumsgesetzes", "SGB V", "Fünften Buches Sozialgesetzbuch"). All of them must
land on the one law key that ``model.law_key`` gives the law's nodes, or citations and graph never
meet. The core (``LawRegistry`` built from ``(alias, key)`` pairs) is pure; ``default()`` does the
file reading: default codes, ``legalkg/data/law_aliases.tsv`` and, when present, gii's MANIFEST.tsv.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path

from .. import codes, paths
from ..model import law_key
from .tokens import Token, tokenize

#: Words that are never (the start of) a law name even if some gii abbreviation spells them.
_STOP_FIRST = frozenset({
    "abs", "absatz", "art", "artikel", "nr", "satz", "s", "buchst", "lit", "alt", "var", "ff", "f",
    "i", "iv", "v", "ii", "iii", "und", "oder", "bis", "sowie", "des", "der", "die", "dem", "den",
})


def _key_tokens(name: str) -> tuple[str, ...]:
    """Normalised token tuple of a name: lower case, dots dropped (so 'AO' == 'AO.')."""
    return tuple(t.low for t in tokenize(name) if t.text != ".")


class LawRegistry:
    """Longest-match lookup of law names over token sequences."""

    def __init__(self, entries: Iterable[tuple[str, str]], default_keys: Iterable[str] = ()) -> None:
        self._names: dict[tuple[str, ...], str] = {}
        self._max_len: dict[str, int] = {}
        self.default_keys: frozenset[str] = frozenset(default_keys)
        for alias, key in entries:
            self.add(alias, key)

    def add(self, alias: str, key: str, *, override: bool = False) -> None:
        """Register ``alias`` for ``key``; the first registration of an alias wins unless override."""
        toks = _key_tokens(alias)
        if not toks or toks[0] in _STOP_FIRST:
            return
        if toks in self._names and not override:
            return
        self._names[toks] = key
        self._max_len[toks[0]] = max(self._max_len.get(toks[0], 0), len(toks))

    def __contains__(self, name: str) -> bool:
        return _key_tokens(name) in self._names

    def __len__(self) -> int:
        return len(self._names)

    def key_for(self, name: str) -> str | None:
        """The law key for a name as written ('SGB V', 'des Bürgerlichen Gesetzbuchs' minus article)."""
        return self._names.get(_key_tokens(name))

    def keys(self) -> set[str]:
        return set(self._names.values())

    def match(self, tokens: Sequence[Token], i: int) -> tuple[int, str] | None:
        """Longest law name starting at ``tokens[i]``: (index after its last token, key) or None.

        Dots between name tokens are skipped but never end a match, so a sentence-final
        'BGB.' yields the span 'BGB'. The first token must start upper case or with a digit.
        """
        if i >= len(tokens):
            return None
        first = tokens[i]
        if not (first.text[0].isupper() or first.text[0].isdigit()):
            return None
        limit = self._max_len.get(first.low)
        if not limit:
            return None
        best: tuple[int, str] | None = None
        words: list[str] = []
        j = i
        while j < len(tokens) and len(words) < limit:
            tok = tokens[j]
            if tok.text == ".":
                j += 1
                continue
            if words and tok.start - tokens[j - 1].end > 3:
                break  # names do not span gaps (line breaks, several spaces)
            words.append(tok.low)
            j += 1
            hit = self._names.get(tuple(words))
            if hit is not None:
                best = (j, hit)
        return best

    # ------------------------------------------------------------------ loading (I/O)
    @classmethod
    def default(cls, manifest: Path | None | bool = True) -> LawRegistry:
        """Default codes + ``law_aliases.tsv`` + gii MANIFEST.tsv (all 6,821 laws) when present.

        ``manifest=True`` looks in ``paths.gii_dir()``; ``False``/``None`` skips it; a Path uses that.
        """
        if manifest is True:
            path: Path | None = paths.gii_manifest()
        elif manifest:
            path = Path(manifest)
        else:
            path = None
        return _default_registry(str(path) if path and path.exists() else "")


def _alias_rows() -> list[tuple[str, str]]:
    text = resources.files("legalkg.data").joinpath("law_aliases.tsv").read_text("utf-8")
    return [(r["alias"], r["law_key"]) for r in csv.DictReader(text.splitlines(), delimiter="\t")]


def _genitive_variants(title: str) -> list[str]:
    """Cheap genitive forms of a manifest title ('Gesetz über X' -> 'Gesetzes über X')."""
    out = [title]
    head, _, rest = title.partition(" ")
    if head.endswith("gesetz") or head == "Gesetz":
        out.append(f"{head}es {rest}".strip())
    elif head.endswith("gesetzbuch"):
        out.append(f"{head}s {rest}".strip())
    return out


@lru_cache(maxsize=4)
def _default_registry(manifest_path: str) -> LawRegistry:
    alias = codes.default_alias()
    reg = LawRegistry((), default_keys=[c.cited for c in codes.default_codes()])
    for c in codes.default_codes():
        for name in (c.cited, c.jurabk, c.amtabk):
            if name:
                reg.add(name, c.cited)
    for name, key in _alias_rows():
        reg.add(name, key)
    if manifest_path:
        with open(manifest_path, encoding="utf-8", newline="") as fh:
            rows = list(csv.DictReader(fh, delimiter="\t"))
        amtabk_count: dict[str, int] = {}
        for r in rows:
            if r.get("amtabk"):
                amtabk_count[r["amtabk"]] = amtabk_count.get(r["amtabk"], 0) + 1
        for r in rows:
            jurabks = [j.strip() for j in (r.get("jurabk") or "").split("|") if j.strip()]
            if not jurabks:
                continue
            amtabk = (r.get("amtabk") or "").strip() or None
            key = law_key(jurabks[0], amtabk, alias)
            for j in jurabks:
                reg.add(j, key)
            # amtabk is not unique across gii: only use it where it is, or where it equals a jurabk
            if amtabk and (amtabk_count.get(amtabk, 0) == 1 or amtabk in jurabks):
                reg.add(amtabk, key)
        for r in rows:  # titles last: abbreviations win over a title that happens to collide
            jurabks = [j.strip() for j in (r.get("jurabk") or "").split("|") if j.strip()]
            title = (r.get("title") or "").strip()
            if jurabks and title:
                key = law_key(jurabks[0], (r.get("amtabk") or "").strip() or None, alias)
                for t in _genitive_variants(title):
                    reg.add(t, key)
    return reg
