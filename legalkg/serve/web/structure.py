"""A law's structure as the pages show it, computed from the page queries' rows (pure).

Why here and not in the templates: the table of contents is a tree built from flat rows, a level's
name ("Buch 2", "§ 573", "Abs. 2") depends on its level and kind, and the official text's address
follows gesetze-im-internet.de's scheme; each is a rule with cases, tested without a server.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

#: The official site; a § is ``<slug>/__<n>.html``, an Artikel ``art_<n>.html``, an Anlage ``anlage_<n>.html``.
OFFICIAL = "https://www.gesetze-im-internet.de"
#: How a level below the § is named in a breadcrumb (court style, as the citations write it).
SHORT = {"Absatz": "Abs.", "Satz": "Satz", "Nummer": "Nr.", "Buchstabe": "Buchst.", "Doppelbuchstabe": "Doppelbuchst."}
#: A paragraph id's own segment: "§573", "Art20", "Art229§5", "Anl1", "Anl".
PARA_SEGMENT = re.compile(r"^(§|Art|Anl)(\w*?)(?:§(\w+))?$")


def node_url(uid: str) -> str:
    """The page of any node (Gesetz, Gliederung or unit); '/' stays a path separator."""
    return "/unit/" + quote(uid, safe="/")


def para_label(kind: str | None, label: str | None) -> str:
    """'§ 573', 'Art. 20', 'Anlage 1' from a § node's kind and number."""
    kind = kind or "§"
    word = {"Art": "Art.", "Anl": "Anlage", "Anlage": "Anlage"}.get(kind, kind)
    return f"{word} {label}".strip() if label else word


def crumb(node: dict[str, Any], jurabk: str | None = None) -> dict[str, str]:
    """One breadcrumb: the level's name with its type ('Buch 2', '§ 573', 'Abs. 2') and its title."""
    level = node.get("level")
    label = node.get("label") or ""
    if level == "Gesetz":
        name = node["id"]
    elif level == "Gliederung":
        name = f"{node.get('kind') or ''} {label}".strip() or (node.get("title") or node["id"])
    elif level == "Paragraph":
        name = para_label(node.get("kind"), label)
    else:
        name = f"{SHORT.get(level or '', level or '')} {label}".strip()
    return {"id": node["id"], "name": name, "title": node.get("title") or "", "url": node_url(node["id"]),
            "level": level or ""}


def breadcrumbs(path: list[dict[str, Any]]) -> list[dict[str, str]]:
    """The path from the Gesetz down, each level a crumb (the query returns it top-down)."""
    return [crumb(n) for n in path]


def toc_tree(top_id: str, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows below ``top_id`` (each with its parent, in document order) as nested entries:
    a Gliederung has ``children``; a § has none. Each entry gets its ``name`` ('Abschnitt 1', '§ 5')."""
    by_parent: dict[str, list[dict[str, Any]]] = {}
    for row in entries:
        by_parent.setdefault(row["parent"], []).append(row)

    def build(parent: str, depth: int) -> list[dict[str, Any]]:
        out = []
        for row in by_parent.get(parent, []):
            entry = {**row, **crumb(row), "repealed": bool(row.get("repealed"))}
            entry["children"] = build(row["id"], depth + 1) if row["level"] == "Gliederung" and depth < 12 else []
            out.append(entry)
        return out

    return build(top_id, 0)


def para_count(tree: list[dict[str, Any]]) -> tuple[int, int]:
    """(§§, repealed §§) in a table of contents."""
    total = repealed = 0
    for entry in tree:
        if entry["level"] == "Paragraph":
            total += 1
            repealed += entry["repealed"]
        else:
            sub = para_count(entry["children"])
            total, repealed = total + sub[0], repealed + sub[1]
    return total, repealed


def para_id(uid: str) -> str | None:
    """The id of the § that holds unit ``uid`` ('BGB/§573/Abs2' -> 'BGB/§573'); None above the §."""
    parts = uid.split("/")
    if len(parts) < 2 or not PARA_SEGMENT.match(parts[1]):
        return None
    return "/".join(parts[:2])


def official_url(slug: str | None, jurabk: str | None, uid: str) -> str | None:
    """The § on gesetze-im-internet.de, or None for a unit with no page there.

    The law's folder there is the file's slug (its gii directory name, kept by the ingest as
    ``Gesetz.slug``: 'uwg_2004' for UWG, whose jurabk is 'UWG 2004'); without one, the jurabk in
    lower case with spaces as '_' (the site's rule for most laws). A § is ``__<n>.html``, an
    Artikel ``art_<n>.html`` (an EGBGB Artikel's § ``art_229__5.html``), an Anlage ``anlage_<n>.html``.
    """
    folder = slug or (jurabk or "").lower().replace(" ", "_")
    parts = uid.split("/")
    match = PARA_SEGMENT.match(parts[1]) if len(parts) >= 2 and folder else None
    if not match:
        return None
    kind, number, inner = match.groups()
    if kind == "§":
        page = f"__{number}"
    elif kind == "Art":
        page = f"art_{number}" + (f"__{inner}" if inner else "")
    else:
        page = f"anlage_{number}" if number else "anlage"
    return f"{OFFICIAL}/{quote(folder)}/{quote(page.lower())}.html"


#: "573 BGB", "§573 BGB", "BGB 573", "BGB § 573", "Art 20 GG" without the usual spacing.
#: A law key: one word, and a Roman book number ("SGB V"); "Abs. 2 BGB" is no law.
LAW = r"([A-Za-zÄÖÜäöü][\w-]*(?:\s+[IVX]+)?)"
BARE_FIRST = re.compile(r"^\s*(§{1,2}|Art\.?)?\s*(\d+[a-z]?)\s+" + LAW + r"\s*$")
LAW_FIRST = re.compile(r"^\s*" + LAW + r"\s+(§{1,2}|Art\.?)?\s*(\d+[a-z]?)\s*$")


def citation_guesses(text: str) -> list[str]:
    """Court-style readings of a bare '573 BGB' or 'BGB 573' ('§ 573 BGB', then 'Art. 573 BGB'),
    for the open-a-citation box; [] when the text has no such shape. The grammar then reads them."""
    m = BARE_FIRST.match(text)
    if m:
        sign, number, law = m.groups()
    else:
        m = LAW_FIRST.match(text)
        if not m:
            return []
        law, sign, number = m.groups()
    if sign and sign.startswith("Art"):
        return [f"Art. {number} {law}"]
    return [f"§ {number} {law}", f"Art. {number} {law}"] if not sign else [f"§ {number} {law}"]
