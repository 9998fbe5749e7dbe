"""Deterministic propositions for legal enumerations (pure).

Why: Chen et al.'s propositions need an LLM; the part of a statute that is most clearly several
statements in one sentence is an enumeration ("Ist die Sache mangelhaft, kann der Käufer ...
1. nach § 439 Nacherfüllung verlangen, 2. ... zurücktreten ... und 3. ... Schadensersatz ...
verlangen."). Each Nummer / Buchstabe is a separate legal consequence or condition, so the
lead-in + one item is one self-contained statement. Nested lists recurse (lead-in + Nummer
lead-in + Buchstabe). Text after the list (Schlusssatz) is appended to every item because it
qualifies all of them. A sentence without a list stays whole.
"""

from __future__ import annotations

import re
from typing import NamedTuple


class Item(NamedTuple):
    """One list item: its label as printed ('1', '2a', 'a'), its full text, its sub-items."""

    label: str
    text: str
    items: tuple[Item, ...] = ()


_JOINERS = re.compile(r"(?:\s*[,;]\s*(?:und|oder|sowie)?|\s+(?:und|oder|sowie))\s*$")


def _clean_item(text: str) -> str:
    """Drop the list glue at the end of an item (', und', ' oder', ';') and the final stop."""
    out = text.strip()
    while True:
        new = _JOINERS.sub("", out).rstrip(" .")
        if new == out:
            return out
        out = new


def _strip_label(lead: str, label: str) -> str:
    """Remove the printed label of the first item ('1.', 'a)', 'aa)') from the end of a lead-in."""
    lead = lead.rstrip()
    for printed in (f"{label}.", f"{label})", label):
        if label and lead.endswith(printed):
            return lead[: -len(printed)].rstrip()
    return re.sub(r"\s*\S{1,4}[.)]$", "", lead).rstrip()


def split_list(text: str, items: tuple[Item, ...] | list[Item]) -> tuple[str, str]:
    """(lead-in, tail) of a text that contains its items' texts in order; tail may be ''."""
    first = text.find(items[0].text[:40].strip())
    if first < 0:
        return _strip_label(text, items[0].label), ""
    lead = _strip_label(text[:first], items[0].label)
    last = items[-1].text.strip()
    end = text.rfind(last[-40:]) if last else -1
    tail = text[end + len(last[-40:]):].strip() if end >= 0 else ""
    return lead, tail


def _join(*parts: str) -> str:
    text = " ".join(p.strip() for p in parts if p and p.strip())
    text = re.sub(r"\s+", " ", text).strip()
    if text and text[-1] not in ".?!:":
        text += "."
    return text


def propositionize(text: str, items: tuple[Item, ...] | list[Item] = ()) -> list[str]:
    """One statement per (leaf) list item, or ``[text]`` when there is no list to split.

    ``text`` is the whole sentence including its items (as the parser stores a Satz); ``items``
    are its Nummern (with their Buchstaben). Deterministic and pure.
    """
    text = re.sub(r"\s+", " ", text or "").strip()
    if not items:
        return [text] if text else []
    lead, tail = split_list(text, items)
    out: list[str] = []
    for item in items:
        if item.items:
            inner = propositionize(item.text, item.items)
            out.extend(_join(lead, _clean_item(p), tail) for p in inner)
        else:
            body = _clean_item(item.text)
            if body and body != "(weggefallen)":
                out.append(_join(lead, body, tail))
    return out or [text]
