"""Every law of gii resolves by its abbreviation and by its title where the title is unambiguous
(issue 35), read from the packaged copy of gii's law list (legalkg/data/gii_laws.tsv.gz, written by
scripts/build_law_registry.py), so the check runs without the shared data."""

from __future__ import annotations

import csv
import gzip
from collections import Counter
from importlib import resources

import pytest

from legalkg import codes, paths
from legalkg.cite import LawRegistry, extract
from legalkg.cite.registry import name_key
from legalkg.model import law_key


@pytest.fixture(scope="module")
def packaged(request) -> tuple[LawRegistry, list[dict[str, str]]]:
    mp = pytest.MonkeyPatch()
    mp.setattr(paths, "gii_manifest", lambda: None)
    request.addfinalizer(mp.undo)
    data = resources.files("legalkg.data").joinpath("gii_laws.tsv.gz").read_bytes()
    rows = list(csv.DictReader(gzip.decompress(data).decode("utf-8").splitlines(), delimiter="\t"))
    return LawRegistry.default(), rows


def _key(row: dict[str, str]) -> str:
    jurabk = row["jurabk"].split("|")[0].strip()
    return law_key(jurabk, row["amtabk"] or None, codes.default_alias())


def test_the_packaged_list_has_every_law(packaged):
    assert len(packaged[1]) == 6821


def test_every_law_resolves_by_its_abbreviation_in_a_citation(packaged):
    reg, rows = packaged
    wrong = []
    for r in rows:
        jurabk = r["jurabk"].split("|")[0].strip()
        if "§" in jurabk:
            # a name holding a § ("SGB2§20Abs2Bek") cannot follow "§ 1"; the name alone must resolve
            ok = reg.key_for(jurabk) == _key(r)
        else:
            found = [m for m in extract(f"§ 1 {jurabk}", registry=reg) if m.unit]
            ok = bool(found) and found[0].law_key == _key(r)
        if not ok:
            wrong.append(jurabk)
    assert wrong == []


def test_every_unambiguous_title_resolves(packaged):
    reg, rows = packaged
    count = Counter(name_key(r["title"]) for r in rows)  # "Gebrauchsmuster-,Marken-" = "-, Marken-"
    wrong = [r["title"] for r in rows
             if r["title"] and count[name_key(r["title"])] == 1 and reg.key_for(r["title"]) != _key(r)]
    assert wrong == []
