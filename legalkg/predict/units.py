"""Statute unit texts and ids, for labels (which ids exist) and the bridge (which words a unit has).

Why one function: the predictor needs unit ids and texts, not a parser. Today they come from the
parsed gii XML; the retrieval engine will feed the same mapping from the graph instead, and only
this module changes.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from .. import codes, paths
from ..cite import KnownUnits, LawRegistry, statute_edges
from ..errors import UserError
from ..model import TEXT_LEVELS, Level
from ..parse import parse_file
from .labels import LABEL_LEVELS, paragraph_of

__all__ = ["LABEL_LEVELS", "cites_degrees", "cites_pairs", "outline_titles", "paragraph_of", "unit_texts"]

def _paths(slugs: Iterable[str] | None, gii_dir: Path | None) -> list[Path]:
    folder = gii_dir or paths.gii_dir()
    chosen = list(slugs) if slugs is not None else [c.slug for c in codes.default_codes()]
    out = []
    for slug in chosen:
        path = folder / f"{slug}.xml"
        if not path.exists():
            raise UserError(f"statute file {path} not found: check LEGALKG_SHARED or the law list")
        out.append(path)
    return out


def unit_texts(slugs: Iterable[str] | None = None, gii_dir: Path | None = None) -> dict[str, str]:
    """Unit id -> text for every non-repealed text unit of the given gii slugs (default: the 58
    default codes). A § text starts with its title, which is often the words a lay person uses."""
    out: dict[str, str] = {}
    for path in _paths(slugs, gii_dir):
        for unit in parse_file(path).units:
            if unit.repealed or unit.level not in TEXT_LEVELS:
                continue
            text = unit.text
            if unit.level == Level.PARAGRAPH and unit.title:
                text = f"{unit.title}\n{text}"
            if text.strip():
                out[unit.id] = text
    return out


def cites_pairs(slugs: Iterable[str] | None = None, gii_dir: Path | None = None) -> list[tuple[str, str]]:
    """The (citing §, cited §) pairs of the citation graph among the given laws (default the 58 codes):
    ``cites_degrees``' edges, sorted, a § citing itself left out."""
    return sorted(paragraph_edges(slugs, gii_dir)[0])


def paragraph_edges(slugs: Iterable[str] | None, gii_dir: Path | None) -> tuple[set[tuple[str, str]], set[str]]:
    """The graph's ``CITES_*`` edges among the given laws rolled up to (citing §, cited §), a § citing
    itself left out, and the § ids of those laws. The edges come from the call the ingest makes
    (``cite.statute_edges`` with every text unit known and the repealed ones marked)."""
    laws = [parse_file(path) for path in _paths(slugs, gii_dir)]
    units = [u for law in laws for u in law.units if u.level in TEXT_LEVELS]
    known = KnownUnits({u.id for u in units})
    repealed = {u.id for u in units if u.repealed}
    registry = LawRegistry.default()
    pairs: set[tuple[str, str]] = set()
    for law in laws:
        edges, _ = statute_edges(law, registry, known, repealed)
        pairs.update((paragraph_of(e.source_id), paragraph_of(e.target_id)) for e in edges)
    kept = {(a, b) for a, b in pairs if a is not None and b is not None and a != b}
    return kept, {u.id for u in units if u.level == Level.PARAGRAPH}


def outline_titles(slugs: Iterable[str] | None = None, gii_dir: Path | None = None) -> dict[str, str]:
    """§ id -> the titles of its Gliederung ancestors (Buch, Abschnitt, Titel, ...), outermost first,
    joined by " / ", for every § of the given laws (default the 58 codes) that has any."""
    out: dict[str, str] = {}
    for path in _paths(slugs, gii_dir):
        law = parse_file(path)
        outline = {u.id: u for u in law.units if u.level == Level.GLIEDERUNG}
        for u in law.units:
            if u.level != Level.PARAGRAPH:
                continue
            titles, at = [], outline.get(u.parent_id)
            while at is not None:
                if at.title:
                    titles.append(at.title)
                at = outline.get(at.parent_id)
            if titles:
                out[u.id] = " / ".join(t.replace("\n", " ") for t in reversed(titles))
    return out


def cites_degrees(slugs: Iterable[str] | None = None, gii_dir: Path | None = None) -> dict[str, tuple[int, int]]:
    """§ id -> (in-degree, out-degree) of the citation graph among the given laws (default the 58
    codes) at § level: how many other §§ cite it or one of its units, and how many other §§ its own
    units cite (``paragraph_edges``: an Absatz naming a sibling does not count)."""
    pairs, paras = paragraph_edges(slugs, gii_dir)
    deg_in: dict[str, int] = {}
    deg_out: dict[str, int] = {}
    for src, dst in pairs:
        deg_out[src] = deg_out.get(src, 0) + 1
        deg_in[dst] = deg_in.get(dst, 0) + 1
    return {p: (deg_in.get(p, 0), deg_out.get(p, 0)) for p in sorted(paras | set(deg_in) | set(deg_out))}
