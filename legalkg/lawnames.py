"""Every gii law's names as data: slug, jurabk, amtabk, short title, long title (all 6,821 laws).

Why: people name a law by its abbreviation without gii's year suffix ("BKatV" for the jurabk
"BKatV 2013", "FeV" for "FeV 2010"), statutes name it by its short title in words ("des
Bundes-Immissionsschutzgesetzes"), and ``--codes`` needs the file (slug) behind a name. The table is
``legalkg/data/gii_names.tsv.gz``, read from the header norm of every file of the all-laws archive
by ``scripts/build_law_names.py``; nothing here reads the statutes themselves.
"""

from __future__ import annotations

import csv
import gzip
import re
from collections import Counter
from functools import lru_cache
from importlib import resources
from typing import NamedTuple

#: a jurabk's trailing year ("BKatV 2013", "OWiG 1968"): gii's key for a re-issued law
_YEAR = re.compile(r"^(?P<name>.*\S)\s+(?:1[6-9]|20)\d\d$")


class LawName(NamedTuple):
    slug: str
    jurabks: tuple[str, ...]
    amtabk: str | None
    kurzue: str | None
    title: str

    @property
    def jurabk(self) -> str:
        """gii's key of the law (the first ``<jurabk>``)."""
        return self.jurabks[0] if self.jurabks else ""


@lru_cache(maxsize=1)
def table() -> tuple[LawName, ...]:
    """The packaged names of every law, in archive order."""
    data = gzip.decompress(resources.files("legalkg.data").joinpath("gii_names.tsv.gz").read_bytes())
    out = []
    for r in csv.DictReader(data.decode("utf-8").splitlines(), delimiter="\t"):
        jurabks = tuple(j.strip() for j in r["jurabk"].split("|") if j.strip())
        out.append(LawName(r["slug"], jurabks, r["amtabk"] or None, r["kurzue"] or None, r["title"]))
    return tuple(out)


def without_year(jurabk: str) -> str | None:
    """'BKatV 2013' -> 'BKatV'; None when the jurabk ends in no year."""
    m = _YEAR.match(jurabk)
    return m.group("name") if m else None


def _norm(name: str) -> str:
    return "".join(name.split()).lower()


@lru_cache(maxsize=1)
def year_aliases() -> dict[str, str]:
    """jurabk without its year -> the jurabk, where no other law is called that and only one law
    drops to it ("BKatV" -> "BKatV 2013"; "AO" stays the AO's own)."""
    taken = {_norm(j) for law in table() for j in law.jurabks}
    taken |= {_norm(law.amtabk) for law in table() if law.amtabk and law.amtabk not in law.jurabks
              and without_year(law.jurabk) != law.amtabk}
    stems: dict[str, str] = {}
    count: Counter[str] = Counter()
    for law in table():
        stem = without_year(law.jurabk)
        if stem:
            count[_norm(stem)] += 1
            stems[_norm(stem)] = law.jurabk
    return {stem_name(stems[k]): stems[k] for k in stems if count[k] == 1 and k not in taken}


def stem_name(jurabk: str) -> str:
    return without_year(jurabk) or jurabk


@lru_cache(maxsize=1)
def _slug_lookup() -> dict[str, str]:
    """Normalised name -> slug: slugs and jurabks first, then the year-less jurabks, then amtabks
    that one law alone carries (gii has 12 amtabk collisions)."""
    out: dict[str, str] = {}
    amtabk_count = Counter(_norm(law.amtabk) for law in table() if law.amtabk)
    by_jurabk = {law.jurabk: law.slug for law in table()}
    for law in table():
        out.setdefault(_norm(law.slug), law.slug)
        for j in law.jurabks:
            out.setdefault(_norm(j), law.slug)
    for stem, jurabk in year_aliases().items():
        out.setdefault(_norm(stem), by_jurabk[jurabk])
    for law in table():
        if law.amtabk and amtabk_count[_norm(law.amtabk)] == 1:
            out.setdefault(_norm(law.amtabk), law.slug)
    return out


def slug_for(name: str) -> str | None:
    """The gii slug of a law named by slug, jurabk, jurabk without year or unique amtabk
    (case and blanks ignored); None for a name no law carries."""
    return _slug_lookup().get(_norm(name))
