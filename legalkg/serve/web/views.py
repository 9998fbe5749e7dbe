"""What the pages show, computed from the tools' JSON-ready dicts: pure, so it is tested without a
server or a browser.

Why apart from the routes: the highlighting of a checked text, the citation list, the "why" shares
and the neighbourhood drawing are the parts with rules (overlapping spans, empty lists, caps); the
routes only call the tools and hand these values to the templates, which escape every string.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from ...cite.broken import REASONS
from ...errors import UserError
from .lawtext import segments

#: Words of a unit's text shown under each hit on the ask page.
EXCERPT_WORDS = 40
#: Most citing and cited units drawn in the neighbourhood (the lists below it show all, up to the limit).
GRAPH_NODES = 24


def unit_url(uid: str) -> str:
    """The unit page of ``uid``; '/' stays a path separator, as in the ids ('BGB/§573/Abs2')."""
    return "/unit/" + quote(uid, safe="/")


def court_counts(courts: list[dict[str, Any]]) -> str:
    """[{court: 'BGH', count: 3}, {court: 'BAG', count: 1}] -> 'BGH 3, BAG 1' (the unit page's decisions line)."""
    return ", ".join(f"{c['court']} {c['count']}" for c in courts)


def excerpt(text: str | None, words: int = EXCERPT_WORDS) -> str:
    """The first ``words`` words of ``text`` on one line, with '…' when cut."""
    parts = (text or "").split()
    return " ".join(parts[:words]) + (" …" if len(parts) > words else "")


def citation_list(hits: list[dict[str, Any]]) -> str:
    """One citation a line, in rank order, for pasting into a brief or a prompt."""
    return "\n".join(h.get("citation") or h["id"] for h in hits)


def shares(components: dict[str, float]) -> list[dict[str, Any]]:
    """The "why" view of one hit: each run's share of the score, largest first, with its percentage
    of the summed absolute shares (the bar's width)."""
    total = sum(abs(v) for v in components.values()) or 1.0
    rows = sorted(components.items(), key=lambda kv: -abs(kv[1]))
    return [{"name": name, "value": value, "percent": round(100 * abs(value) / total, 1)} for name, value in rows]


def record_spans(records: list[dict[str, Any]]) -> list[tuple[int, int, int]]:
    """(start, end, record index) to highlight, in text order, never overlapping.

    A chain that resolved to one unit is highlighted whole ("§ 573 Abs. 2 BGB"); a chain of several
    ("§§ 5 bis 7 KSchG") as each unit's own written part, so each keeps its own colour. A span that
    overlaps one already taken is left out (its record still appears in the table).
    """
    per_chain: dict[tuple[int, int], int] = {}
    for r in records:
        key = (r["chain_start"], r["chain_end"])
        per_chain[key] = per_chain.get(key, 0) + 1
    spans = []
    for i, r in enumerate(records):
        key = (r["chain_start"], r["chain_end"])
        spans.append((*key, i) if per_chain[key] == 1 else (r["start"], r["end"], i))
    out: list[tuple[int, int, int]] = []
    for start, end, i in sorted(spans):
        if end > start and (not out or start >= out[-1][1]):
            out.append((start, end, i))
    return out


def highlight(text: str, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``text`` cut into segments: plain ones (``record`` None) and highlighted citations (``record``:
    the verify record). The segments joined give back ``text`` exactly."""
    segments: list[dict[str, Any]] = []
    at = 0
    for start, end, i in record_spans(records):
        if start > at:
            segments.append({"text": text[at:start], "record": None})
        segments.append({"text": text[start:end], "record": records[i]})
        at = end
    if at < len(text):
        segments.append({"text": text[at:], "record": None})
    return segments


def _node(unit: dict[str, Any], role: str) -> dict[str, Any]:
    """A drawn unit; one above the § level (a Gliederung, the Gesetz) has no page, so no link."""
    label = unit.get("citation") or unit["id"]
    href = unit_url(unit["id"]) if unit.get("unit", True) else None
    return {"data": {"id": unit["id"], "label": label, "role": role, "href": href,
                     "repealed": bool(unit.get("repealed"))}}


def graph_elements(related: dict[str, Any], cap: int = GRAPH_NODES) -> list[dict[str, Any]]:
    """The one-hop neighbourhood as cytoscape elements: the unit, its parent and children (tree
    edges), and at most ``cap`` cited and ``cap`` citing units (citation edges)."""
    centre = {"id": related["id"], "citation": related.get("citation"), "repealed": related.get("repealed")}
    nodes = {related["id"]: _node(centre, "self")}
    edges: list[dict[str, Any]] = []

    def add(unit: dict[str, Any], role: str, source: str, target: str) -> None:
        nodes.setdefault(unit["id"], _node(unit, role))
        edges.append({"data": {"id": f"{role}:{source}>{target}", "source": source, "target": target,
                               "role": role}})

    parent = related.get("parent")
    if parent and parent.get("id"):
        add(parent, "parent", parent["id"], related["id"])
    for child in related.get("children", [])[:cap]:
        add(child, "child", related["id"], child["id"])
    for cited in related.get("cites", [])[:cap]:
        if cited["id"] != related["id"]:
            add(cited, "cites", related["id"], cited["id"])
    for citing in related.get("cited_by", [])[:cap]:
        if citing["id"] != related["id"]:
            add(citing, "cited_by", citing["id"], related["id"])
    return [*nodes.values(), *edges]


def backlinks(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The citing units grouped by law (in the query's order), each with the citing Satz as
    segments whose ``mark`` is a chain that cites (where its edges' offsets place it)."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        segs = [{"text": s["text"], "mark": "targets" in s} for s in segments(row.get("text") or "", row["edges"])]
        groups.setdefault(row["law"], []).append({**row, "segments": segs})
    return [{"law": law, "units": units} for law, units in groups.items()]


def broken_view(counts: list[dict[str, Any]], law: str, page: str, size: int,
                read: Callable[[str | None, int], list[dict[str, Any]]]) -> dict[str, Any]:
    """The values of ``/references/broken``: the laws with broken references, the chosen law (matched
    without regard to case; "" for all), the counts by status, one page of ``size`` rows (``read(law,
    skip)``) and the page numbers. A law without rows, or a page number that is no whole number from 1,
    is a ``UserError`` line."""
    laws: dict[str, int] = {}
    for c in counts:
        laws[c["law"]] = laws.get(c["law"], 0) + c["n"]
    key = None
    if law.strip():
        key = next((k for k in laws if k.lower() == law.strip().lower()), None)
        if key is None:
            raise UserError(f"law {law.strip()[:80]!r} has no broken references in the graph: choose one of the "
                            "laws listed on /references/broken, or leave the law out")
    if not page.isdigit() or int(page) < 1:
        raise UserError(f"the page must be a whole number from 1, not {page[:20]!r}")
    by_status: dict[str, int] = {}
    for c in counts:
        if key is None or c["law"] == key:
            by_status[c["status"]] = by_status.get(c["status"], 0) + c["n"]
    total = sum(by_status.values())
    pages = max(1, -(-total // size))
    number = min(int(page), pages)
    reasons = {text: name for name, text in REASONS.items()}
    rows = [{**r, "why": reasons.get(r["reason"])} for r in read(key, (number - 1) * size)]
    return {"laws": laws, "law": key or "", "by_status": by_status, "total": total, "rows": rows,
            "page_no": number, "pages": pages, "first": (number - 1) * size + 1 if rows else 0,
            "last": (number - 1) * size + len(rows)}
