"""Flatten gii inline XML to readable text (pure functions over lxml elements).

Footnote references and footnote bodies, ``noindex`` blocks, editorial ``kommentar`` notes, images
and file attachments are left out of statute text; tables are flattened to rows (cells joined by
`` | ``, rows by newlines) so a reader and an embedder see the same readable text.
"""

from __future__ import annotations

from lxml import etree

#: Elements whose content never becomes statute text.
SKIP_TAGS = frozenset({"FnR", "Footnotes", "Footnote", "FnArea", "noindex", "kommentar", "IMG",
                       "FILE"})
#: Elements that separate words (block-ish): a blank is put around their text.
BLOCK_TAGS = frozenset({"P", "LA", "DD", "DT", "Title", "Subtitle", "TOC", "Ident", "pre", "entry",
                        "row", "Content", "text", "Split"})


def norm_ws(s: str) -> str:
    return " ".join(s.split())


def _flat(el: etree._Element, out: list[str]) -> None:
    if el.text:
        out.append(el.text)
    for ch in el:
        tag = ch.tag
        if isinstance(tag, str) and tag not in SKIP_TAGS:
            if tag == "BR":
                out.append(" ")
            elif tag == "table":
                out.append(" " + table_text(ch).replace("\n", " / ") + " ")
            elif tag == "DL":
                out.append(" " + dl_text(ch) + " ")
            elif tag in BLOCK_TAGS:
                out.append(" ")
                _flat(ch, out)
                out.append(" ")
            else:
                _flat(ch, out)
        if ch.tail:
            out.append(ch.tail)


def flat_text(el: etree._Element) -> str:
    """All readable text of ``el`` on one line (footnotes etc. left out)."""
    out: list[str] = []
    _flat(el, out)
    return norm_ws("".join(out))


def table_text(table: etree._Element) -> str:
    """A CALS table as rows: cells joined by `` | ``, rows by newlines; empty rows dropped."""
    rows: list[str] = []
    for row in table.iter("row"):
        cells = [flat_text(entry) for entry in row.findall("entry")]
        if any(cells):
            rows.append(" | ".join(cells))
    return "\n".join(rows)


def dl_text(dl: etree._Element) -> str:
    """A list as running text: 'label text label text ...'."""
    out: list[str] = []
    for ch in dl:
        if ch.tag == "DT" or ch.tag == "DD":
            t = flat_text(ch)
            if t:
                out.append(t)
    return " ".join(out)


def block_text(el: etree._Element) -> str:
    """A block (an Anlage's Content, a note) with its paragraphs and table rows on separate lines."""
    lines: list[str] = []
    for ch in el:
        if not isinstance(ch.tag, str) or ch.tag in SKIP_TAGS:
            continue
        if ch.tag == "table":
            t = table_text(ch)
        elif ch.tag in ("P", "Title", "Subtitle") and ch.find(".//table") is not None:
            t = block_text(ch)
            head = norm_ws(ch.text or "")
            t = (head + "\n" + t).strip() if head else t
        else:
            t = flat_text(ch)
        if t:
            lines.append(t)
        if ch.tail and ch.tail.strip():
            lines.append(norm_ws(ch.tail))
    if el.text and el.text.strip():
        lines.insert(0, norm_ws(el.text))
    return "\n".join(lines)
