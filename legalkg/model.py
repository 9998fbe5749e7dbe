"""The statute tree and the citation tuple: the one vocabulary every room of legalkg shares.

A node's id *is* its citation. ``BGB/§574/Abs2/S1/Nr2`` decodes to the tuple
``Citation(law="BGB", para="§574", absatz="2", satz="1", nummer="2")`` which is exactly what the
evaluation metric compares, so no lookup table is ever needed between the graph and the metric.

Id grammar (segments joined by ``/``; the first segment is the law key)::

    law key     BGB | SGB V | EGBGB | <jurabk with "/" replaced by "_"> for laws outside the default set
    Gliederung  Gl<kennzahl>          (BGB/Gl010010 -- not part of the citation tuple)
    Paragraph   §433 | Art20 | Art229§5 (EGBGB articles holding §§) | Anl1 | Anl (unnumbered Anlage)
    Absatz      Abs1 | Abs2a
    Satz        S1
    Nummer      Nr1 | Nr5a
    Buchstabe   Bsta
    Doppelbst.  DBstaa

Design decisions (documented in docs/model.md):
- Sätze count within their Absatz, or within the § when it has no numbered Absätze; a § without
  numbered Absätze has its Sätze directly below the Paragraph (``BGB/§437/S1/Nr1``), so the tuple's
  absatz is None and a court citation "§ 437 Nr. 1 BGB" matches it.
- A Nummer/Buchstabe list belongs to the Satz that introduces it. Sentences *inside* a Nummer or
  Buchstabe are not separate nodes: the item's text holds them (courts rarely cite below Nummer).
"""

from __future__ import annotations

import re
from enum import Enum
from functools import lru_cache
from typing import NamedTuple

from pydantic import BaseModel, Field


class Level(str, Enum):  # noqa: UP042 - str() of a member is "Level.SATZ"; ids and labels use .value
    ROOT = "Root"
    GESETZ = "Gesetz"
    GLIEDERUNG = "Gliederung"
    PARAGRAPH = "Paragraph"
    ABSATZ = "Absatz"
    SATZ = "Satz"
    NUMMER = "Nummer"
    BUCHSTABE = "Buchstabe"
    DOPPELBUCHSTABE = "Doppelbuchstabe"


#: Levels that carry statute text of their own and get embedded / full-text indexed.
TEXT_LEVELS: tuple[Level, ...] = (
    Level.PARAGRAPH,
    Level.ABSATZ,
    Level.SATZ,
    Level.NUMMER,
    Level.BUCHSTABE,
    Level.DOPPELBUCHSTABE,
)

#: Evaluation depths, in the order of the citation tuple.
DEPTHS: tuple[str, ...] = ("Code", "§", "Absatz", "Satz", "Nummer", "Buchstabe")

_SEGMENT_PREFIXES: tuple[tuple[str, str], ...] = (
    # order matters: longest prefix first
    ("DBst", "doppelbuchstabe"),
    ("Bst", "buchstabe"),
    ("Abs", "absatz"),
    ("Nr", "nummer"),
    ("S", "satz"),
)
_PARA_RE = re.compile(r"^(§|Art|Anl)")


class Citation(NamedTuple):
    """(Code, §, Absatz, Satz, Nummer, Buchstabe[, Doppelbuchstabe]); None = not specified."""

    law: str
    para: str | None = None
    absatz: str | None = None
    satz: str | None = None
    nummer: str | None = None
    buchstabe: str | None = None
    doppelbuchstabe: str | None = None

    def truncate(self, depth: int) -> tuple[str | None, ...]:
        """The first ``depth`` levels (1 = Code only, 6 = down to Buchstabe)."""
        return tuple(self)[:depth]

    def to_id(self) -> str:
        parts = [self.law]
        if self.para:
            parts.append(self.para)
        for (prefix, field) in (("Abs", "absatz"), ("S", "satz"), ("Nr", "nummer"),
                                ("Bst", "buchstabe"), ("DBst", "doppelbuchstabe")):
            value = getattr(self, field)
            if value:
                parts.append(f"{prefix}{value}")
        return "/".join(parts)

    def human(self) -> str:
        """Court style: '§ 433 Abs. 1 Satz 2 BGB', 'Art. 20 Abs. 3 GG'."""
        out: list[str] = []
        if self.para:
            out.append(para_human(self.para))
        if self.absatz:
            out.append(f"Abs. {self.absatz}")
        if self.satz:
            out.append(f"Satz {self.satz}")
        if self.nummer:
            out.append(f"Nr. {self.nummer}")
        if self.buchstabe:
            out.append(f"Buchst. {self.buchstabe}")
        if self.doppelbuchstabe:
            out.append(f"Doppelbuchst. {self.doppelbuchstabe}")
        out.append(self.law)
        return " ".join(out)


def para_human(para: str) -> str:
    """'§433' -> '§ 433', 'Art20' -> 'Art. 20', 'Art229§5' -> 'Art. 229 § 5', 'Anl1' -> 'Anlage 1'."""
    m = re.fullmatch(r"Art(.+?)§(.+)", para)
    if m:
        return f"Art. {m.group(1)} § {m.group(2)}"
    if para.startswith("§"):
        return f"§ {para[1:]}"
    if para.startswith("Art"):
        return f"Art. {para[3:]}"
    if para.startswith("Anl"):
        return f"Anlage {para[3:]}".rstrip()
    return para


@lru_cache(maxsize=1 << 16)
def decode_id(node_id: str) -> Citation:
    """Decode a node id (or a Chunk's covered-unit id) back to its citation tuple.

    Gliederung segments and unknown segments are skipped; a Sätze segment *below* a Nummer is
    ignored so the tuple keeps the Satz that introduces the list. Cached (a ``Citation`` is an
    immutable tuple): a context pack decodes the same few hundred ids again and again.
    """
    segments = node_id.split("/")
    fields: dict[str, str] = {"law": segments[0]}
    for seg in segments[1:]:
        if not seg or seg.startswith("Gl"):
            continue
        if _PARA_RE.match(seg):
            fields.setdefault("para", seg)
            continue
        for prefix, field in _SEGMENT_PREFIXES:
            if seg.startswith(prefix) and len(seg) > len(prefix):
                fields.setdefault(field, seg[len(prefix):])
                break
    return Citation(**fields)


def decode_child(parent: Citation, parent_id: str, node_id: str) -> Citation:
    """``decode_id(node_id)`` for a node whose id is ``parent_id`` plus one segment, from its
    parent's decoded citation: a law's units are decoded top-down, each id in one step instead of
    splitting every id again. Falls back to :func:`decode_id` for any other id."""
    if not node_id.startswith(parent_id) or node_id[len(parent_id):len(parent_id) + 1] != "/":
        return decode_id(node_id)
    seg = node_id[len(parent_id) + 1:]
    if not seg or "/" in seg or seg.startswith("Gl"):
        return decode_id(node_id)
    if _PARA_RE.match(seg):
        return parent if parent.para is not None else parent._replace(para=seg)
    for prefix, field in _SEGMENT_PREFIXES:
        if seg.startswith(prefix) and len(seg) > len(prefix):
            if getattr(parent, field) is not None:
                return parent  # the first segment of a level wins, as in decode_id
            return parent._replace(**{field: seg[len(prefix):]})
    return parent


def law_of_id(node_id: str) -> str:
    """The law a unit id belongs to: its first segment."""
    return node_id.split("/", 1)[0]


def level_of_id(node_id: str) -> Level:
    """The level a unit id denotes, from its last segment."""
    segments = node_id.split("/")
    if len(segments) == 1:
        return Level.GESETZ
    last = segments[-1]
    if last.startswith("Gl"):
        return Level.GLIEDERUNG
    if _PARA_RE.match(last):
        return Level.PARAGRAPH
    for prefix, level in (("DBst", Level.DOPPELBUCHSTABE), ("Bst", Level.BUCHSTABE),
                          ("Abs", Level.ABSATZ), ("Nr", Level.NUMMER), ("S", Level.SATZ)):
        if last.startswith(prefix):
            return level
    raise ValueError(f"not a legalkg node id: {node_id!r}")


def law_key(jurabk: str, amtabk: str | None, default_alias: dict[str, str] | None = None) -> str:
    """The law segment of ids: the cited abbreviation for default codes, else gii's unique jurabk.

    ``amtabk`` is not unique across gii (12 collisions), ``jurabk`` is, so it is the fallback.
    ``/`` occurs in some jurabk values and is replaced because it separates id segments.
    """
    if default_alias and jurabk in default_alias:
        return default_alias[jurabk]
    return jurabk.replace("/", "_")


def word_count(text: str) -> int:
    return len(text.split())


class Unit(BaseModel):
    """One node of the statute tree below the Gesetz (Gliederung or a text unit)."""

    id: str
    level: Level
    parent_id: str
    order: int = Field(description="document-order index within the law")
    text: str = ""
    title: str | None = None
    label: str | None = Field(None, description="the unit's own number: '433', '2a', 'a', 'aa'")
    kind: str | None = Field(None, description="Gliederung kind (Buch, Abschnitt, ...) or § / Art / Anlage")
    repealed: bool = False
    footnotes: list[str] = Field(default_factory=list)

    @property
    def words(self) -> int:
        return word_count(self.text)

    @property
    def citation(self) -> Citation:
        return decode_id(self.id)


class Law(BaseModel):
    """One parsed gii file: the Gesetz node's metadata and its units in document order."""

    key: str
    jurabk: str
    amtabk: str | None = None
    title: str = ""
    stand: str | None = None
    builddate: str | None = None
    doknr: str | None = None
    slug: str | None = None
    #: the Eingangsformel ("Auf Grund des § 6 ... verordnet das Bundesministerium ..."), None without one
    preamble: str | None = None
    units: list[Unit] = Field(default_factory=list)

    def by_id(self) -> dict[str, Unit]:
        return {u.id: u for u in self.units}
