""""Did you mean" for an id that is not in the graph, and unresolved citations in plain words (pure).

Why the ancestors first: "BGB/§573/Abs9" is most likely a typo in its last part, so the deepest
part of it that exists is the best link; then the §§ of the same law whose numbers look alike
("§99" -> "§9", "§999" stays unmatched), or for an unknown law the law keys that look alike.
"""

from __future__ import annotations

import difflib
from typing import Any

from .checkview import words
from .structure import node_url

#: Most "did you mean" links on a 404 page.
MAX_LINKS = 6


def ancestors(uid: str) -> list[str]:
    """The id and every id above it: 'K/§5/Abs1' -> ['K/§5/Abs1', 'K/§5', 'K']."""
    parts = [p for p in uid.split("/") if p]
    return ["/".join(parts[:i]) for i in range(len(parts), 0, -1)]


def did_you_mean(uid: str, found: dict[str, Any]) -> list[dict[str, str]]:
    """Links (url, name, title) for the 404 page of ``uid`` from the suggest query's row."""
    present = set(found.get("present") or [])
    links: list[dict[str, str]] = []
    for a in ancestors(uid)[1:]:
        if a in present:
            links.append({"url": node_url(a), "name": a, "title": ""})
            break
    paras = {p["id"]: p for p in found.get("paras") or []}
    for pid in difflib.get_close_matches(uid, list(paras), n=3, cutoff=0.75):
        p = paras[pid]
        links.append({"url": node_url(pid), "name": p.get("citation") or pid, "title": p.get("title") or ""})
    law = uid.split("/")[0]
    if law not in present:
        laws = {g["id"]: g for g in found.get("laws") or []}
        by_lower = {k.lower(): k for k in laws}
        close = difflib.get_close_matches(law.lower(), list(by_lower), n=3, cutoff=0.6)
        for key in (by_lower[c] for c in close):
            links.append({"url": node_url(key), "name": key, "title": laws[key].get("title") or ""})
    seen: set[str] = set()
    out = [link for link in links if not (link["url"] in seen or seen.add(link["url"]))]
    return out[:MAX_LINKS]


UNRESOLVED = {
    "de": "{cited} ist nicht im Graphen: {words}.",
    "en": "{cited} is not in the graph: {words}.",
}


def unresolved_message(cited: str, status: str, lang: str) -> str:
    """One line in words for a citation that names no unit of the graph ('… gibt es nicht')."""
    return UNRESOLVED["de" if lang == "de" else "en"].format(cited=cited, words=words(status, lang))
