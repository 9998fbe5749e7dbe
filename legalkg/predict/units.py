"""Statute unit texts and ids, for labels (which ids exist) and the bridge (which words a unit has).

Why one function: the predictor needs unit ids and texts, not a parser. Today they come from the
parsed gii XML; the retrieval engine will feed the same mapping from the graph instead, and only
this module changes.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from .. import codes, paths
from ..errors import UserError
from ..model import TEXT_LEVELS, Level
from ..parse import parse_file

#: Levels a label can have: the § and the units below it that courts cite.
LABEL_LEVELS: tuple[Level, ...] = (Level.PARAGRAPH, Level.ABSATZ, Level.SATZ, Level.NUMMER)


def unit_texts(slugs: Iterable[str] | None = None, gii_dir: Path | None = None) -> dict[str, str]:
    """Unit id -> text for every non-repealed text unit of the given gii slugs (default: the 58
    default codes). A § text starts with its title, which is often the words a lay person uses."""
    folder = gii_dir or paths.gii_dir()
    chosen = list(slugs) if slugs is not None else [c.slug for c in codes.default_codes()]
    out: dict[str, str] = {}
    for slug in chosen:
        path = folder / f"{slug}.xml"
        if not path.exists():
            raise UserError(f"statute file {path} not found: check LEGALKG_SHARED or the law list")
        for unit in parse_file(path).units:
            if unit.repealed or unit.level not in TEXT_LEVELS:
                continue
            text = unit.text
            if unit.level == Level.PARAGRAPH and unit.title:
                text = f"{unit.title}\n{text}"
            if text.strip():
                out[unit.id] = text
    return out
