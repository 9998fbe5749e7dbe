"""Law tree + citation edges -> the parameter rows the load queries take (pure, no I/O).

The content hash of a node covers everything the node stores, so an unchanged unit is recognised
across ingests; the law's hash covers all its nodes and edges and is the "fully loaded" marker.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass, field

from ..cite.preamble import issuer_of
from ..model import TEXT_LEVELS, Citation, Law, Level, Unit, decode_child, decode_id, word_count
from ..vocab import RetrievalLevel
from .chunks import naive_chunks

#: json.dumps with these arguments would build a new encoder for each of ~185k nodes per ingest
_ENCODER = json.JSONEncoder(sort_keys=True, ensure_ascii=False)


def content_hash(obj: object) -> str:
    """The first 24 hex digits of the SHA-256 of ``json.dumps(obj, sort_keys=True, ensure_ascii=False)``."""
    return hashlib.sha256(_ENCODER.encode(obj).encode()).hexdigest()[:24]


@dataclass
class LawRows:
    law: str
    gesetz: dict
    #: (phase, depth, parent level, level) -> rows {id, parent, props}. Phase 0 is the Gliederung
    #: tree by its depth, phase 1 the text units by their depth below the Paragraph. Loading groups
    #: in sorted key order guarantees every parent exists before its children's batch runs, and
    #: keys are shared across laws so many small laws load in one query.
    groups: dict[tuple[int, int, Level, Level], list[dict]] = field(
        default_factory=lambda: defaultdict(list))
    chunks: list[dict] = field(default_factory=list)
    hash: str = ""

    @property
    def node_count(self) -> int:
        return 1 + sum(len(v) for v in self.groups.values()) + len(self.chunks)


def unit_props(law: Law, unit: Unit, cite: Citation | None = None) -> dict:
    """The node properties of ``unit``; ``cite`` is its decoded id where the caller has it."""
    props: dict = {
        "id": unit.id,
        "law": law.key,
        "level": unit.level.value,
        "order": unit.order,
        "label": unit.label,
        "kind": unit.kind,
        "title": unit.title,
    }
    if unit.level in TEXT_LEVELS:
        if cite is None:
            cite = decode_id(unit.id)
        props.update(
            text=unit.text,
            words=word_count(unit.text),
            citation=cite.human(),
            para=cite.para,
            absatz=cite.absatz,
            satz=cite.satz,
            nummer=cite.nummer,
            buchstabe=cite.buchstabe,
            doppelbuchstabe=cite.doppelbuchstabe,
            repealed=unit.repealed,
            footnotes=list(unit.footnotes) or None,
            builddate=law.builddate,
        )
    props = {k: v for k, v in props.items() if v is not None}
    props["hash"] = content_hash(props)
    return props


def law_rows(law: Law) -> LawRows:
    gesetz = {
        "jurabk": law.jurabk, "amtabk": law.amtabk, "title": law.title, "stand": law.stand,
        "builddate": law.builddate, "doknr": law.doknr, "slug": law.slug, "citation": law.key,
        "law": law.key, "preamble": law.preamble, "issuer": issuer_of(law.preamble),
    }
    gesetz = {k: v for k, v in gesetz.items() if v is not None}
    rows = LawRows(law=law.key, gesetz=gesetz)
    level_of: dict[str, Level] = {law.key: Level.GESETZ}
    depth_of: dict[str, int] = {law.key: 0}  # Gliederung depth, or depth below the Paragraph
    hashes: list[str] = [content_hash(gesetz)]
    cite_of: dict[str, Citation] = {}
    for unit in law.units:
        parent_level = level_of.get(unit.parent_id)
        if parent_level is None:
            raise ValueError(f"{unit.id}: parent {unit.parent_id} comes after it or is missing")
        level_of[unit.id] = unit.level
        if unit.level == Level.GLIEDERUNG:
            phase, depth = 0, depth_of[unit.parent_id] + 1
        elif parent_level in (Level.GESETZ, Level.GLIEDERUNG):
            phase, depth = 1, 0
        else:
            phase, depth = 1, depth_of[unit.parent_id] + 1
        depth_of[unit.id] = depth
        cite = None
        if unit.level in TEXT_LEVELS:
            parent_cite = cite_of.get(unit.parent_id)
            cite = cite_of[unit.id] = (decode_id(unit.id) if parent_cite is None
                                       else decode_child(parent_cite, unit.parent_id, unit.id))
        props = unit_props(law, unit, cite)
        rows.groups[(phase, depth, parent_level, unit.level)].append(
            {"id": unit.id, "parent": unit.parent_id, "props": props})
        hashes.append(props["hash"] + unit.parent_id)
    for chunk in naive_chunks(law):
        props = {"law": chunk.law, "order": chunk.order, "text": chunk.text, "words": chunk.words,
                 "covers": chunk.covers, "level": RetrievalLevel.CHUNK.value}
        props["hash"] = content_hash(props)
        rows.chunks.append({"id": chunk.id, "props": props})
        hashes.append(props["hash"])
    rows.hash = content_hash(hashes)
    return rows


def edge_rows(edges) -> tuple[dict[Level, list[dict]], str]:
    """Citation edges grouped by target level, and their hash (the citation-load marker). Each row
    carries its chains' offsets in the source unit's text (``starts``, ``ends``), which the pages link
    (the hash covers them, so a graph loaded before they were stored gets them at its next ingest)."""
    grouped: dict[Level, list[dict]] = defaultdict(list)
    seen: dict[tuple[str, str], list] = {}
    for e in edges:
        key = (e.source_id, e.target_id)
        if key in seen:
            continue
        seen[key] = e.spans
        grouped[e.target_level].append(
            {"source": e.source_id, "target": e.target_id, "kind": e.kind, "text": e.text,
             "starts": [a for a, _ in e.spans], "ends": [b for _, b in e.spans]})
    digest = content_hash(sorted(f"{s}>{t}@{spans}" for (s, t), spans in seen.items()))
    return grouped, digest
