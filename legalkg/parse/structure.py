"""One norm's ``<Content>`` -> Absatz / Satz / Nummer / Buchstabe / Doppelbuchstabe nodes (pure).

Decisions (see docs/model.md):
- ``<P>`` starting with ``(n)`` opens Absatz n; an unnumbered ``<P>`` continues the current
  Absatz (or the § when it has no numbered Absätze) -- StGB § 176e Abs. 2 continues a sentence so.
- Sätze count within their Absatz (within the § without numbered Absätze); every text-bearing
  Absatz / § gets at least ``S1``.
- A list (``<DL>``) belongs to the Satz that introduces it; text after the list continues that Satz
  unless the last item ended the sentence.
- Sentences inside a list item are not split: the item's text holds them.
- EStG/KStG ``<SUP class="Rec">n</SUP>`` are Satz numbers: they open Satz n and are not text.
- Each node's text leaves out its own label; a parent's text holds each child's label + text, so a
  child's text is always a substring of its parent's text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lxml import etree

from ..model import Level
from .labels import is_roman_list, item_level, label_shape
from .sentences import ends_sentence, split_sentences
from .xmltext import SKIP_TAGS, dl_text, flat_text, norm_ws, table_text

REPEALED_TEXTS = frozenset({"(weggefallen)", "weggefallen", "-", "–", "—", "(aufgehoben)",
                            "aufgehoben", "(gegenstandslos)", "(entfällt)", "(ohne Inhalt)",
                            "weggefallen.", "(weggefallen).", "(weggefallen);", "(weggefallen),"})
_ABSATZ = re.compile(r"^\s*\((\d+[a-z]{0,3})\)\s*")
_SEG = {Level.ABSATZ: "Abs", Level.SATZ: "S", Level.NUMMER: "Nr", Level.BUCHSTABE: "Bst",
        Level.DOPPELBUCHSTABE: "DBst"}


def is_repealed_text(text: str) -> bool:
    return text.strip() in REPEALED_TEXTS


@dataclass(slots=True)
class Node:
    """A unit under construction; ``parts`` mixes own text (str) and child nodes in order."""

    level: Level
    label: str
    prefix: str = ""  # shown before the node's text inside its parent: "(1)", "1.", "a)"
    parts: list = field(default_factory=list)
    sep: str = " "
    repealed: bool = False
    text: str | None = None

    def children(self) -> list[Node]:
        return [p for p in self.parts if type(p) is Node]


def finish(node: Node) -> str:
    """Compute texts bottom-up (merging adjacent strings, normalising blanks); returns node text."""
    pieces: list[str] = []
    merged: list = []
    buf: list[str] = []
    for p in node.parts:
        if type(p) is str:
            buf.append(p)
            continue
        if buf:
            merged.append("".join(buf))
            buf = []
        merged.append(p)
    if buf:
        merged.append("".join(buf))
    parts: list = []
    for p in merged:
        if type(p) is str:
            if "\n" in p:
                t = "\n".join(norm_ws(line) for line in p.split("\n") if line.strip())
            else:
                t = " ".join(p.split())
            if t:
                parts.append(t)
                pieces.append(t)
        else:
            t = finish(p)
            parts.append(p)
            shown = f"{p.prefix} {t}".strip() if p.prefix else t
            if shown:
                pieces.append(shown)
    node.parts = parts
    node.text = node.sep.join(pieces)
    if is_repealed_text(node.text):
        node.repealed = True
    return node.text


def _dedupe(label: str, seen: set[str]) -> str:
    out, n = label, 1
    while out in seen:
        n += 1
        out = f"{label}_{n}"
    seen.add(out)
    return out


class ContentBuilder:
    """Feeds the blocks of one norm's Content into a Paragraph node."""

    def __init__(self, para: Node, sup_mode: bool) -> None:
        self.para = para
        self.sup_mode = sup_mode
        self.absatz: Node | None = None
        self.satz: Node | None = None
        self.closed = True
        self.count = 0
        self.pending_label: str | None = None
        self.abs_seen: set[str] = set()
        self.satz_seen: set[str] = set()

    # -- markers ---------------------------------------------------------------------------
    def is_sup_marker(self, el: etree._Element) -> bool:
        if el.tag != "SUP":
            return False
        t = (el.text or "").strip()
        cls = el.get("class")
        return t.isdigit() and len(el) == 0 and (cls == "Rec" or (self.sup_mode and cls is None))

    # -- tokens ------------------------------------------------------------------------------
    def tokens(self, el: etree._Element) -> list[tuple[str, object]]:
        out: list[tuple[str, object]] = []

        def text(s: str | None) -> None:
            if s:
                if out and out[-1][0] == "t":
                    out[-1] = ("t", out[-1][1] + s)  # type: ignore[operator]
                else:
                    out.append(("t", s))

        def walk(e: etree._Element) -> None:
            text(e.text)
            for ch in e:
                tag = ch.tag
                if not isinstance(tag, str) or tag in SKIP_TAGS:
                    pass
                elif tag == "DL":
                    out.append(("dl", ch))
                elif tag == "table":
                    out.append(("tab", table_text(ch)))
                elif tag == "BR":
                    text(" ")
                elif self.is_sup_marker(ch):
                    out.append(("sup", ch.text.strip()))  # type: ignore[union-attr]
                elif tag in ("P", "LA", "DD", "Title", "Subtitle", "pre"):
                    text(" ")
                    walk(ch)
                    text(" ")
                else:
                    walk(ch)
                text(ch.tail)

        walk(el)
        return [t for t in out if t[0] != "t" or str(t[1]).strip()]

    # -- Sätze -------------------------------------------------------------------------------
    def container(self) -> Node:
        return self.absatz if self.absatz is not None else self.para

    def new_satz(self, first: str | None = None) -> Node:
        if self.pending_label is not None:
            label = self.pending_label
            self.count = int(label) if label.isdigit() else self.count + 1
            self.pending_label = None
        else:
            self.count += 1
            label = str(self.count)
        label = _dedupe(label, self.satz_seen)
        satz = Node(Level.SATZ, label)
        if first:
            satz.parts.append(first)
        self.container().parts.append(satz)
        self.satz = satz
        return satz

    def add_text(self, s: str) -> None:
        for sentence, closed in split_sentences(s):
            if self.satz is not None and not self.closed and self.pending_label is None:
                self.satz.parts.append(" " + sentence)
            else:
                self.new_satz(sentence)
            self.closed = closed

    def open_satz(self) -> Node:
        if self.satz is None or self.closed or self.pending_label is not None:
            return self.new_satz()
        return self.satz

    def add_block(self, el: etree._Element) -> None:
        """One top-level block of Content (usually a ``<P>``)."""
        toks = self.tokens(el) if el.tag == "P" else (
            [("dl", el)] if el.tag == "DL" else
            [("tab", table_text(el))] if el.tag == "table" else [("t", flat_text(el))])
        if not toks:
            return
        kind, value = toks[0]
        if kind == "t":
            m = _ABSATZ.match(str(value))
            if m:
                label = _dedupe(m.group(1), self.abs_seen)
                self.absatz = Node(Level.ABSATZ, label, prefix=f"({m.group(1)})")
                self.para.parts.append(self.absatz)
                self.satz, self.closed, self.count = None, True, 0
                self.satz_seen = set()
                toks[0] = ("t", str(value)[m.end():])
        for kind, value in toks:
            if kind == "t":
                self.add_text(str(value))
            elif kind == "sup":
                self.pending_label = str(value)
                self.closed = True
            elif kind == "tab":
                if value:
                    self.open_satz().parts.append("\n" + str(value) + "\n")
                    self.closed = True
            elif kind == "dl":
                satz = self.open_satz()
                items = build_list(value, Level.SATZ, self.sup_mode)  # type: ignore[arg-type]
                if items is None:
                    satz.parts.append(" " + dl_text(value) + " ")  # type: ignore[arg-type]
                    continue
                satz.parts.extend(items)
                last = items[-1] if items else None
                self.closed = bool(last is not None and ends_sentence(_raw_text(last)))


def _raw_text(node: Node) -> str:
    """Text of an unfinished node (used to see whether a list item ended the sentence)."""
    out: list[str] = []
    for p in node.parts:
        out.append(p if isinstance(p, str) else f"{p.prefix} {_raw_text(p)}")
    return norm_ws("".join(out))


def build_list(dl: etree._Element, enclosing: Level, sup_mode: bool) -> list[Node] | None:
    """A ``<DL>`` as item nodes one level below ``enclosing``; None when too deep for nodes."""
    items: list[tuple[str, list[etree._Element]]] = []
    for ch in dl:
        if ch.tag == "DT":
            items.append((flat_text(ch), []))
        elif ch.tag == "DD":
            if not items or items[-1][1]:
                items.append(("", []))
            items[-1][1].append(ch)
    if not items:
        return []
    labels = [dt for dt, _ in items]
    roman = is_roman_list(labels)
    shapes = [label_shape(dt, roman) for dt in labels]
    level = item_level(shapes[0].level, enclosing)
    if level is None:
        return None
    seen: set[str] = set()
    nodes: list[Node] = []
    for pos, ((dt, dds), shape) in enumerate(zip(items, shapes), start=1):
        label = _dedupe(shape.label or str(pos), seen)
        node = Node(level, label, prefix=dt)
        for dd in dds:
            _item_parts(dd, node, sup_mode)
        nodes.append(node)
    return nodes


def _item_parts(el: etree._Element, node: Node, sup_mode: bool) -> None:
    """Everything inside a list item: text (sentences not split), nested lists as child nodes."""
    if el.text:
        node.parts.append(el.text)
    for ch in el:
        tag = ch.tag
        if not isinstance(tag, str) or tag in SKIP_TAGS:
            pass
        elif tag == "DL":
            sub = build_list(ch, node.level, sup_mode)
            if sub is None:
                node.parts.append(" " + dl_text(ch) + " ")
            else:
                node.parts.extend(sub)
        elif tag == "table":
            node.parts.append("\n" + table_text(ch) + "\n")
        elif tag == "BR":
            node.parts.append(" ")
        elif tag == "SUP" and (ch.text or "").strip().isdigit() and (
                ch.get("class") == "Rec" or (sup_mode and ch.get("class") is None)):
            node.parts.append(" ")  # a Satz number inside an item: a label, not a word
        elif tag in ("P", "LA", "DD", "Title", "Subtitle", "pre"):
            node.parts.append(" ")
            _item_parts(ch, node, sup_mode)
            node.parts.append(" ")
        else:
            _item_parts(ch, node, sup_mode)
        if ch.tail:
            node.parts.append(ch.tail)


def build_paragraph(para: Node, content: etree._Element | None, sup_mode: bool) -> None:
    """Fill ``para`` from a norm's ``<Content>``; repealed bodies keep their text, no children."""
    if content is None:
        return
    builder = ContentBuilder(para, sup_mode)
    for block in content:
        if isinstance(block.tag, str) and block.tag not in SKIP_TAGS:
            builder.add_block(block)
        if block.tail and block.tail.strip():
            builder.add_text(block.tail)
    if content.text and content.text.strip():
        para.parts.insert(0, content.text)
    if any(isinstance(p, Node) and p.level == Level.ABSATZ for p in para.parts):
        para.sep = "\n"


def prune_repealed(node: Node) -> None:
    """Repealed units ('(weggefallen)') keep their text but get no child nodes."""
    if node.repealed:
        node.parts = [node.text] if node.text else []
        return
    for ch in node.parts:
        if type(ch) is Node:
            prune_repealed(ch)


def child_segment(node: Node) -> str:
    return _SEG[node.level] + node.label
