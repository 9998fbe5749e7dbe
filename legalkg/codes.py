"""The default code set (58 codes as courts cite them) and ``--codes`` resolution.

The list is versioned data (``legalkg/data/default_codes.tsv``): cited abbreviation, gii slug,
gii jurabk, official amtabk, field of law.
"""

from __future__ import annotations

import csv
from functools import lru_cache
from importlib import resources

from pydantic import BaseModel

from . import lawnames
from .errors import UserError


class CodeInfo(BaseModel):
    cited: str
    slug: str
    jurabk: str
    amtabk: str | None
    field: str


@lru_cache(maxsize=1)
def default_codes() -> tuple[CodeInfo, ...]:
    text = resources.files("legalkg.data").joinpath("default_codes.tsv").read_text("utf-8")
    rows = csv.DictReader(text.splitlines(), delimiter="\t")
    return tuple(
        CodeInfo(cited=r["cited_abbreviation"], slug=r["slug"], jurabk=r["jurabk"],
                 amtabk=r["amtabk"] or None, field=r["field"])
        for r in rows
    )


@lru_cache(maxsize=1)
def default_alias() -> dict[str, str]:
    """gii jurabk -> cited abbreviation for the default codes (used for id law keys)."""
    return {c.jurabk: c.cited for c in default_codes()}


def _norm(s: str) -> str:
    return "".join(s.split()).lower()


@lru_cache(maxsize=1)
def _lookup() -> dict[str, CodeInfo]:
    out: dict[str, CodeInfo] = {}
    for c in default_codes():
        for name in (c.cited, c.slug, c.jurabk, c.amtabk):
            if name:
                out[_norm(name)] = c
    return out


def find_code(name: str) -> CodeInfo | None:
    """A default code by any of its names (cited, slug, jurabk, amtabk), case/space-insensitive."""
    return _lookup().get(_norm(name))


def resolve_codes(spec: str) -> list[str] | None:
    """``default`` -> the 58 slugs; ``all`` -> None (every file in the source); ``BGB,ZPO`` -> slugs.

    Names outside the default set are looked up among all gii laws (``lawnames.slug_for``: slug,
    jurabk, jurabk without its year as people write it -- "BKatV" for "BKatV 2013" --, or a unique
    amtabk); other names pass through as slugs (lower-cased), and the source lookup reports the ones
    that do not exist.
    """
    spec = spec.strip()
    if not spec:
        raise UserError("--codes is empty: use 'default', 'all' or a list such as 'BGB,ZPO'")
    if spec.lower() == "default":
        return [c.slug for c in default_codes()]
    if spec.lower() == "all":
        return None
    slugs: list[str] = []
    for name in (p.strip() for p in spec.split(",")):
        if not name:
            continue
        info = find_code(name)
        slugs.append(info.slug if info else lawnames.slug_for(name) or name.lower().replace(" ", "_"))
    return slugs
