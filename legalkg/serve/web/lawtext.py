"""A unit's text as a lawyer reads it: Absätze as paragraphs, Sätze in a row, Nummern and
Buchstaben as lists, the unit asked for highlighted inside the sentence that introduces it, and
each citation the graph resolved as a link (pure: rows in, a block tree out).

Why the tree is rebuilt from the parent's text: a node's ``text`` holds its children's texts
("…, wenn 1. in Betrieben …, 2. in Betrieben …"), so the parts between the children (the lead-in,
the item markers, a closing clause) are cut out of it and the markers replaced by list numbers.

Why citations are linked where the edges say: a ``CITES_*`` edge keeps the offsets of the chains
that cite its target in the source unit's text (``starts``, ``ends``, written by the ingest from
the grammar's chains), so the page links exactly what the ingest read, with no second parse and no
search for the written words (which linked a "§ 4" inside "§ 4 Satz 1", or every repetition); a
chain with several targets ("§§ 5 bis 7") links its first and lists the others after it. An edge
without offsets (a graph loaded before they were stored) links nothing until ``legalkg ingest``
reloads the law's edges. Citations the graph could not resolve have no edge; the page passes
verify's records for them (``Unresolved``), read by the same grammar as the ingest, and shows
them as text with their status.
"""

from __future__ import annotations

from typing import Any, NamedTuple

#: The list levels: shown as ``<ol>`` items under the sentence that introduces them.
LIST_LEVELS = ("Nummer", "Buchstabe", "Doppelbuchstabe")


class Unresolved(NamedTuple):
    """A citation in a piece of text that has no edge: verify's status and what it read."""

    start: int
    end: int
    status: str
    cited: str
    nearest: str | None = None


def marker(level: str, label: str | None) -> str:
    """The number a level is written with: '(2)' for an Absatz, '1.' for a Nummer, 'a)' for a Buchstabe."""
    if not label:
        return ""
    if level == "Absatz":
        return f"({label})"
    if level == "Nummer":
        return f"{label}."
    if level in ("Buchstabe", "Doppelbuchstabe"):
        return f"{label})"
    return ""


def strip_marker(gap: str, child: dict[str, Any]) -> str:
    """The text before a child without the child's own marker at its end."""
    mark = marker(child["level"], child.get("label"))
    trimmed = gap.rstrip()
    if mark and trimmed.endswith(mark):
        return trimmed[: -len(mark)]
    return gap


def trimmed(text: str, start: int) -> dict[str, Any]:
    """A text piece without its outer blanks, with ``start``: where it stands in its unit's text."""
    return {"text": text.strip(), "start": start + len(text) - len(text.lstrip())}


def split_text(text: str, children: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """``text`` cut around its children's texts: ``{"text": …, "start": …}`` pieces and
    ``{"group": [...]}`` groups of consecutive children; None when a child's text is not found in order."""
    pieces: list[dict[str, Any]] = []
    group: list[dict[str, Any]] = []
    at = 0
    for child in children:
        own = child.get("text") or ""
        pos = text.find(own, at) if own else -1
        if pos < 0:
            return None
        gap = strip_marker(text[at:pos], child)
        if gap.strip():
            if group:
                pieces.append({"group": group})
                group = []
            pieces.append(trimmed(gap, at))
        group.append(child)
        at = pos + len(own)
    if group:
        pieces.append({"group": group})
    if text[at:].strip():
        pieces.append(trimmed(text[at:], at))
    return pieces


def build_tree(rows: list[dict[str, Any]], root: str, focus: str | None = None) -> dict[str, Any] | None:
    """The block of ``root`` with its descendants (rows in document order, each with its parent);
    the block of ``focus`` is flagged, and so are its ancestors (``holds_focus``)."""
    by_id = {r["id"]: {**r, "children": []} for r in rows}
    for row in rows:
        if row["id"] != root and row.get("parent") in by_id:
            by_id[row["parent"]]["children"].append(by_id[row["id"]])
    if root not in by_id:
        return None
    return block(by_id[root], focus)


def block(node: dict[str, Any], focus: str | None) -> dict[str, Any]:
    """One node as a block: its marker, its pieces (text and child groups), ``list`` on groups of
    Nummern or Buchstaben, ``focus`` on the unit asked for."""
    children = [block(c, focus) for c in node["children"]]
    pieces = split_text(node.get("text") or "", children) if children else None
    if pieces is None:  # a leaf, or a parent whose children's texts are not in its own
        pieces = [{"text": node.get("text") or "", "start": 0}]
    for piece in pieces:
        if "group" in piece:
            piece["list"] = piece["group"][0]["level"] in LIST_LEVELS
    out = {key: node.get(key) for key in ("id", "level", "label", "repealed", "cites")}
    out.update(marker=marker(node["level"], node.get("label")), pieces=pieces, focus=node["id"] == focus,
               text=node.get("text") or "")
    out["holds_focus"] = out["focus"] or any(c["holds_focus"] for c in children)
    return out


def text_pieces(tree: dict[str, Any]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(block, text piece) in reading order: the pieces that are the block's own words."""
    out: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for piece in tree["pieces"]:
        if "text" in piece:
            out.append((tree, piece))
        else:
            for child in piece["group"]:
                out.extend(text_pieces(child))
    return out


def chains(cites: list[dict[str, Any]], start: int, end: int) -> list[tuple[int, int, list[dict[str, Any]]]]:
    """The chains the edges place inside ``[start, end)`` of their source unit's text: (start, end,
    the units cited there, in the edges' order), in text order."""
    grouped: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for cite in cites or []:
        for a, b in zip(cite.get("starts") or [], cite.get("ends") or [], strict=False):
            if start <= a < b <= end:
                grouped.setdefault((a, b), []).append(cite)
    return [(a, b, targets) for (a, b), targets in sorted(grouped.items())]


def segments(text: str, cites: list[dict[str, Any]], unresolved: list[Unresolved] = (),
             offset: int = 0) -> list[dict[str, Any]]:
    """``text`` (which stands at ``offset`` of its unit's text) as segments: plain (``targets`` and
    ``status`` absent), a linked chain where the edges place it (``targets``: the cited units, the
    first one the link) or an unresolved citation (``status``), never one over another."""
    taken: list[tuple[int, int, dict[str, Any]]] = []

    def free(start: int, end: int) -> bool:
        return all(end <= s or start >= e for s, e, _ in taken)

    for a, b, targets in chains(cites, offset, offset + len(text)):
        if free(a - offset, b - offset):
            taken.append((a - offset, b - offset, {"targets": targets}))
    for u in unresolved:
        if u.end > u.start and free(u.start, u.end):
            taken.append((u.start, u.end, {"status": u.status, "cited": u.cited, "nearest": u.nearest}))
    out: list[dict[str, Any]] = []
    at = 0
    for start, end, extra in sorted(taken, key=lambda t: t[0]):
        if start > at:
            out.append({"text": text[at:start]})
        out.append({"text": text[start:end], **extra})
        at = end
    if at < len(text):
        out.append({"text": text[at:]})
    return out


#: Between two pieces in the text given to verify: no citation runs across it.
SEPARATOR = "\n\n"


def joined(pieces: list[tuple[dict[str, Any], dict[str, Any]]]) -> tuple[str, list[int]]:
    """The pieces' texts as one text for one verify call, and each piece's offset in it."""
    offsets, parts, at = [], [], 0
    for _, piece in pieces:
        offsets.append(at)
        parts.append(piece["text"])
        at += len(piece["text"]) + len(SEPARATOR)
    return SEPARATOR.join(parts), offsets


def link_pieces(tree: dict[str, Any], records: list[dict[str, Any]] = ()) -> dict[str, Any]:
    """Give every text piece of ``tree`` its segments; ``records`` are verify's records over
    ``joined(text_pieces(tree))[0]``, of which those without a unit (not ok, not repealed) are shown
    as unresolved citations with their status."""
    pieces = text_pieces(tree)
    _, offsets = joined(pieces)
    for i, (node, piece) in enumerate(pieces):
        start = offsets[i]
        end = start + len(piece["text"])
        own = [Unresolved(r["chain_start"] - start, r["chain_end"] - start, r["status"],
                          r.get("cited") or r["written"], r.get("nearest"))
               for r in records if r.get("id") is None and start <= r["chain_start"] and r["chain_end"] <= end]
        piece["segments"] = segments(piece["text"], node.get("cites") or [], own, piece.get("start", 0))
    return tree


def context_root(path: list[dict[str, Any]]) -> str:
    """The unit whose text a unit page shows: the unit itself, or for a Nummer, Buchstabe or
    Doppelbuchstabe the nearest unit above it that is none (the Satz that introduces the list)."""
    units = [n for n in path if n.get("level") not in ("Gesetz", "Gliederung")]
    for node in reversed(units):
        if node.get("level") not in LIST_LEVELS:
            return node["id"]
    return units[0]["id"] if units else path[-1]["id"]
