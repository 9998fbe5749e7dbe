"""Law names -> law keys (the first segment of node ids).

Why a registry: courts and statutes name the same law in many ways ("WEG", "WoEigG",
"des Wohnungseigentumsgesetzes", "SGB V", "Fünften Buches Sozialgesetzbuch"). All of them must
land on the one law key that ``model.law_key`` gives the law's nodes, or citations and graph never
meet. The core (``LawRegistry`` built from ``(alias, key)`` pairs) is pure; ``default()`` does the
file reading: default codes, ``legalkg/data/law_aliases.tsv`` and, when present, gii's MANIFEST.tsv.
"""

from __future__ import annotations

import csv
import gzip
from collections.abc import Iterable, Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path

from .. import codes, lawnames, model, paths
from ..model import law_key
from . import registrycache, tokens
from .tokens import Token, token_texts

#: Words that are never (the start of) a law name even if some gii abbreviation spells them.
_STOP_FIRST = frozenset({
    "abs", "absatz", "art", "artikel", "nr", "satz", "s", "buchst", "lit", "alt", "var", "ff", "f",
    "i", "iv", "v", "ii", "iii", "und", "oder", "bis", "sowie", "des", "der", "die", "dem", "den",
})


#: level words that no name starts with, however long
_NEVER_FIRST = frozenset({"abs", "absatz", "art", "artikel", "nr", "satz", "s", "buchst", "lit", "alt", "var",
                          "ff", "f", "und", "oder", "bis", "sowie"})


def name_key(name: str) -> tuple[str, ...]:
    """Normalised token tuple of a name: lower case, dots dropped (so 'AO' == 'AO.')."""
    return tuple(t.lower() for t in token_texts(name) if t != ".")


#: Lower-case words that are no law however a gii abbreviation spells them ("§ 5 ist", "§ 3 an"):
#: a lower-case abbreviation ("§ 823 bgb") is read only when it is none of these.
_LOWER_STOP = frozenset("""ab aber alle als also am an auch auf aus bei beim bis da damit dann das dass
dem den der des die dies diese dieser doch durch ein eine einer eines er es für gem gemäß hat im in
ist ja kann mit nach nicht noch nur ob oder ohne sie sind so soll sowie über um und uns vgl vom von
vor war was weg wenn wie wird zu zum zur zzgl""".split())
_ROMAN = ("", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV")
_ORDINAL_STEMS = ("", "Erst", "Zweit", "Dritt", "Viert", "Fünft", "Sechst", "Siebt", "Acht", "Neunt",
                  "Zehnt", "Elft", "Zwölft", "Dreizehnt", "Vierzehnt")


def sgb_names(book: int) -> list[str]:
    """The ways a book of the Sozialgesetzbuch is named: 'SGB XI', 'SGB 11', 'Elftes Buch
    Sozialgesetzbuch', 'des Elften Buches Sozialgesetzbuch', '11. Buch Sozialgesetzbuch',
    'Sozialgesetzbuch Elftes Buch', 'SGB Elftes Buch'."""
    roman, stem = _ROMAN[book], _ORDINAL_STEMS[book]
    out = [f"SGB {roman}", f"SGB {book}"]
    for ordinal in (f"{stem}es", f"{stem}en", f"{book}."):
        for buch in ("Buch", "Buches", "Buchs"):
            out += [f"{ordinal} {buch} Sozialgesetzbuch", f"{ordinal} {buch} des Sozialgesetzbuches",
                    f"{ordinal} {buch} des Sozialgesetzbuchs", f"{ordinal} {buch} SGB"]
        out += [f"Sozialgesetzbuch {ordinal} Buch", f"SGB {ordinal} Buch", f"Sozialgesetzbuchs {ordinal} Buch",
                f"Sozialgesetzbuches {ordinal} Buch",
                f"Sozialgesetzbuch ( SGB ) {ordinal} Buch", f"Sozialgesetzbuches {ordinal} Buch"]
    return out


class LawRegistry:
    """Longest-match lookup of law names over token sequences."""

    def __init__(self, entries: Iterable[tuple[str, str]], default_keys: Iterable[str] = ()) -> None:
        self._names: dict[tuple[str, ...], str] = {}
        self._abbrev: set[tuple[str, ...]] = set()  # names that are abbreviations ('BGB', 'SGB V')
        self._max_len: dict[str, int] = {}
        self.default_keys: frozenset[str] = frozenset(default_keys)
        for alias, key in entries:
            self.add(alias, key)

    def add(self, alias: str, key: str, *, override: bool = False) -> None:
        """Register ``alias`` for ``key``; the first registration of an alias wins unless override."""
        toks = name_key(alias)
        if not toks or (toks[0] in _STOP_FIRST and (len(toks) < 4 or toks[0] in _NEVER_FIRST)):
            return  # a long title may start 'Die ...' or 'III. ...'; an abbreviation may not
        if toks in self._names and not override:
            return
        self._names[toks] = key
        if sum(ch.isupper() for ch in alias.split()[0]) >= 2:
            self._abbrev.add(toks)
        self._max_len[toks[0]] = max(self._max_len.get(toks[0], 0), len(toks))

    def state(self) -> registrycache.State:
        """The tables a registry is (``registrycache`` keeps them)."""
        return self._names, self._abbrev, self._max_len, self.default_keys

    @classmethod
    def from_state(cls, state: registrycache.State) -> LawRegistry:
        """The registry whose ``state()`` is ``state``."""
        reg = cls(())
        reg._names, reg._abbrev, reg._max_len, reg.default_keys = state
        return reg

    def __contains__(self, name: str) -> bool:
        return name_key(name) in self._names

    def __len__(self) -> int:
        return len(self._names)

    def key_for(self, name: str) -> str | None:
        """The law key for a name as written ('SGB V', 'des Bürgerlichen Gesetzbuchs' minus article)."""
        return self._names.get(name_key(name))

    def keys(self) -> set[str]:
        return set(self._names.values())

    def match(self, tokens: Sequence[Token], i: int, lower: bool = False) -> tuple[int, str] | None:
        """Longest law name starting at ``tokens[i]``: (index after its last token, key) or None.

        Dots between name tokens are skipped but never end a match, so a sentence-final
        'BGB.' yields the span 'BGB'. The first token must start upper case or with a digit;
        with ``lower`` an abbreviation may be written in lower case ('§ 823 Abs. 1 bgb').
        """
        if i >= len(tokens):
            return None
        first = tokens[i]
        if not (first.text[0].isupper() or first.text[0].isdigit()):
            if not first.text.islower() and first.kind == "word":
                return self._match(tokens, i)  # 'eWpG', 'eIDKG': gii spells them with a small initial
            if not lower or first.low in _LOWER_STOP or not first.text.islower():
                return None
            hit = self._match(tokens, i)
            return hit if hit is not None and self._lower_ok(tokens, i, hit[0]) else None
        return self._match(tokens, i)

    def _lower_ok(self, tokens: Sequence[Token], i: int, j: int) -> bool:
        return name_key(" ".join(t.text for t in tokens[i:j])) in self._abbrev

    def _match(self, tokens: Sequence[Token], i: int) -> tuple[int, str] | None:
        first = tokens[i]
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
            return _default_registry("", packaged=False)
        if path and path.exists():
            return _default_registry(str(path), packaged=False)
        return _default_registry("", packaged=manifest is True)  # no shared data: the packaged copy


def _alias_rows() -> list[tuple[str, str]]:
    text = resources.files("legalkg.data").joinpath("law_aliases.tsv").read_text("utf-8")
    return [(r["alias"], r["law_key"]) for r in csv.DictReader(text.splitlines(), delimiter="\t")]


#: neuter and masculine title heads that take -es / -s in the genitive (feminine ones, "Verordnung",
#: "Ordnung", do not change)
_GENITIVE_S = ("gesetzbuch", "vertrag", "recht", "reglement")


def _genitive_head(word: str) -> list[str]:
    low = word.lower()
    if low.endswith(("gesetz", "statut")):
        return [f"{word}es"]
    if low.endswith(("abkommen", "übereinkommen", "protokoll")):
        return [f"{word}s"]
    if low.endswith(_GENITIVE_S):
        return [f"{word}s", f"{word}es"]
    return []


def _genitive_variants(title: str) -> list[str]:
    """Genitive forms of a title as statutes write them after "des": 'Gesetz über X' -> 'Gesetzes
    über X', 'Straßenverkehrsgesetz' -> 'Straßenverkehrsgesetzes', 'Zweites Gesetz zur X' -> 'Zweiten
    Gesetzes zur X', 'Bürgerliches Gesetzbuch' -> 'Bürgerlichen Gesetzbuchs', 'Lebensmittel- und
    Futtermittelgesetzbuch' -> '... Futtermittelgesetzbuches'. The head noun is among the first
    four words; the adjectives before it ('-es') take '-en'."""
    out = [title]
    words = title.split(" ")
    for i, word in enumerate(words[:4]):
        heads = _genitive_head(word)
        if heads:
            before = [w[:-2] + "en" if w.endswith("es") and w[:1].isupper() else w for w in words[:i]]
            out.extend(" ".join([*before, head, *words[i + 1:]]) for head in heads)
            break
    return out


def _derived_names(reg: LawRegistry, rows: list[dict[str, str]], alias: dict[str, str]) -> None:
    """Names courts use that gii does not spell: every SGB book in Roman and Arabic numbers and
    by its ordinal ('SGB XI', 'Elftes Buch Sozialgesetzbuch'), and 'EGGVG' for gii's 'GVGEG' (the
    Einführungsgesetz of X is cited 'EGX')."""
    for book in range(1, 15):
        key = next((reg.key_for(n) for n in (f"SGB {_ROMAN[book]}", f"SGB {book}") if reg.key_for(n)), None)
        if key is None:
            key = next((law_key(j, None, alias) for r in rows
                        for j in (r.get("jurabk") or "").split("|") if j.strip().startswith(f"SGB {book} ")),
                       None)
        if key is not None:
            for name in sgb_names(book):
                reg.add(name, key)
    for r in rows:
        jurabk = (r.get("jurabk") or "").split("|")[0].strip()
        stem = jurabk[:-2]
        if jurabk.endswith("EG") and len(stem) >= 2 and reg.key_for(stem) is not None:
            reg.add(f"EG{stem}", law_key(jurabk, (r.get("amtabk") or "").strip() or None, alias))


def _law_rows(manifest_path: str, packaged: bool) -> list[dict[str, str]]:
    """The laws of gii: the manifest's rows, or those of ``legalkg/data/gii_laws.tsv.gz``
    (jurabk, amtabk, title; written by scripts/build_law_registry.py)."""
    if manifest_path:
        with open(manifest_path, encoding="utf-8", newline="") as fh:
            return list(csv.DictReader(fh, delimiter="\t"))
    if packaged:
        data = resources.files("legalkg.data").joinpath("gii_laws.tsv.gz").read_bytes()
        return list(csv.DictReader(gzip.decompress(data).decode("utf-8").splitlines(), delimiter="\t"))
    return []


#: The modules whose code decides the default registry's names.
BUILDERS = (__file__, tokens.__file__, codes.__file__, lawnames.__file__, model.__file__)
#: The packaged data files it reads (gii_laws.tsv.gz only without a manifest).
DATA = ("default_codes.tsv", "law_aliases.tsv", "gii_names.tsv.gz")


def inputs(manifest_path: str, packaged: bool) -> list[bytes]:
    """What the default registry is built from: the builders' source, the data files, the manifest."""
    out = [Path(f).read_bytes() for f in BUILDERS]
    out += [resources.files("legalkg.data").joinpath(name).read_bytes()
            for name in (*DATA, *(("gii_laws.tsv.gz",) if packaged else ()))]
    out.append(f"{manifest_path}|{packaged}".encode())
    if manifest_path:
        out.append(Path(manifest_path).read_bytes())
    return out


@lru_cache(maxsize=4)
def _default_registry(manifest_path: str, packaged: bool) -> LawRegistry:
    """The default registry, from ``registrycache`` where the same inputs built it before."""
    try:
        key = registrycache.digest(inputs(manifest_path, packaged))
    except OSError:
        return build_default(manifest_path, packaged)
    state = registrycache.load(key)
    if state is not None:
        return LawRegistry.from_state(state)
    reg = build_default(manifest_path, packaged)
    registrycache.save(key, reg.state())
    return reg


def build_default(manifest_path: str, packaged: bool) -> LawRegistry:
    alias = codes.default_alias()
    reg = LawRegistry((), default_keys=[c.cited for c in codes.default_codes()])
    for c in codes.default_codes():
        for name in (c.cited, c.jurabk, c.amtabk):
            if name:
                reg.add(name, c.cited)
    for name, key in _alias_rows():
        reg.add(name, key)
    rows = _law_rows(manifest_path, packaged)
    if rows:
        amtabk_count: dict[str, int] = {}
        for r in rows:
            if r.get("amtabk"):
                amtabk_count[r["amtabk"]] = amtabk_count.get(r["amtabk"], 0) + 1
        for r in rows:
            jurabks = [j.strip() for j in (r.get("jurabk") or "").split("|") if j.strip()]
            if not jurabks:
                continue
            amtabk = (r.get("amtabk") or "").strip() or None
            for j in jurabks:
                reg.add(j, law_key(jurabks[0], amtabk, alias))
        for r in rows:  # amtabk after every jurabk: gii's 'TAV' is a jurabk, and another law's amtabk
            jurabks = [j.strip() for j in (r.get("jurabk") or "").split("|") if j.strip()]
            amtabk = (r.get("amtabk") or "").strip() or None
            # amtabk is not unique across gii: only use it where it is, or where it equals a jurabk
            if jurabks and amtabk and (amtabk_count.get(amtabk, 0) == 1 or amtabk in jurabks):
                reg.add(amtabk, law_key(jurabks[0], amtabk, alias))
        for r in rows:  # titles last: abbreviations win over a title that happens to collide
            jurabks = [j.strip() for j in (r.get("jurabk") or "").split("|") if j.strip()]
            title = (r.get("title") or "").strip()
            if jurabks and title:
                key = law_key(jurabks[0], (r.get("amtabk") or "").strip() or None, alias)
                for t in _genitive_variants(title):
                    reg.add(t, key)
    _derived_names(reg, rows, alias)
    if rows:
        _people_names(reg, alias)
    return reg


def _people_names(reg: LawRegistry, alias: dict[str, str]) -> None:
    """Names of every gii law that gii's own keys leave out: the jurabk without its year as people
    write it ("BKatV" for "BKatV 2013") and the short title in words, also in the genitive ("des
    Bundes-Immissionsschutzgesetzes"); after every abbreviation and long title, so none of them is
    shadowed (the first registration of a name wins)."""
    for stem, jurabk in lawnames.year_aliases().items():
        reg.add(stem, law_key(jurabk, None, alias))
    for law in lawnames.table():
        if law.kurzue and law.jurabks:
            for name in _genitive_variants(law.kurzue):
                reg.add(name, law_key(law.jurabk, law.amtabk, alias))
