"""What a law name that is no federal law in force is: a former federal law, an EU act, a state law.

Why a table: decisions and LLM answers cite the FGG, the KostO or the DSGVO; "unknown law" for all
of them hides the useful answer (the FGG ended in 2009, its successor is the FamFG). The two small
versioned files ``legalkg/data/former_laws.tsv`` (with the year each ended, its successor and the
repealing act as source) and ``legalkg/data/other_laws.tsv`` (EU and state law) are the whole list;
a name in neither is ``unknown_law``. A name the registry knows (a federal law of gii) never gets here.
"""

from __future__ import annotations

import csv
from functools import lru_cache
from importlib import resources
from typing import NamedTuple

from .registry import LawRegistry, name_key


class LawStatus(NamedTuple):
    status: str  # "law_repealed" | "eu_law" | "state_law"
    name: str  # the abbreviation as the table writes it
    ended: int | None = None
    successor: str | None = None


def _rows(name: str) -> list[dict[str, str]]:
    text = resources.files("legalkg.data").joinpath(name).read_text("utf-8")
    return list(csv.DictReader(text.splitlines(), delimiter="\t"))


@lru_cache(maxsize=1)
def table() -> dict[tuple[str, ...], LawStatus]:
    """Normalised name tokens -> status, from both data files."""
    out: dict[tuple[str, ...], LawStatus] = {}
    for r in _rows("former_laws.tsv"):
        out[name_key(r["abbreviation"])] = LawStatus("law_repealed", r["abbreviation"], int(r["ended"]),
                                                     r["successor"] or None)
    for r in _rows("other_laws.tsv"):
        out[name_key(r["abbreviation"])] = LawStatus(r["status"], r["abbreviation"])
    return out


@lru_cache(maxsize=1)
def registry() -> LawRegistry:
    """The table's names as a registry (longest match over tokens, as for federal law names)."""
    return LawRegistry((s.name, s.name) for s in table().values())


def status_of(name: str | None) -> LawStatus | None:
    """The status of a cited law name that the registry does not resolve; None: unknown_law."""
    if not name:
        return None
    return table().get(name_key(name))
