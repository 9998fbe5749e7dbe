"""A gii XML document (bytes) -> :class:`legalkg.model.Law` with its units in document order.

The hierarchy is not nested in gii: ``<norm>`` elements are flat and Gliederung nesting is encoded
in ``gliederungskennzahl`` (3 digits per level). A § belongs under the nearest preceding Gliederung
norm, or -- EGBGB and other Einführungs-/Mantelgesetze -- under the Gliederung named in its own
``<gliederungseinheit>``. A § under an article Gliederung (``Art 229``) gets the id ``Art229§5``.
"""

from __future__ import annotations

import logging
import re

from lxml import etree

from .. import codes
from ..model import Law, Level, Unit, law_key
from .errors import ParseError
from .labels import ParaDesignation, compact, paragraph_designation
from .structure import Node, build_paragraph, child_segment, finish, is_repealed_text, prune_repealed
from .xmltext import block_text, flat_text, norm_ws

_PARSER_KW = dict(load_dtd=False, no_network=True, resolve_entities=False, huge_tree=True)
log = logging.getLogger(__name__)
#: the norm that holds an ordinance's enabling formula (the GG's "Präambel" is no such formula)
_PREAMBLE = re.compile(r"^Eingangsformel\b")
_ART_BEZ = re.compile(r"^Art(?:ikel|\.)?\s+(\S+)$")
_GL_KINDS = ("Unterabschnitt", "Unterkapitel", "Untertitel", "Unterartikel", "Abschnitt", "Kapitel",
             "Titel", "Teil", "Buch", "Art", "Artikel", "Gliederung", "Anhang", "Anlage", "Unterteil")
_ORDINALS = {w: i for i, w in enumerate(
    "erster zweiter dritter vierter fünfter sechster siebenter achter neunter zehnter elfter "
    "zwölfter dreizehnter vierzehnter fünfzehnter sechzehnter siebzehnter achtzehnter neunzehnter "
    "zwanzigster".split(), start=1)}
_ORDINALS.update({"siebter": 7})


_UNIT_FIELDS = frozenset(Unit.model_fields)


def fast_unit(values: dict) -> Unit:
    """``Unit.model_construct`` without its per-call overhead (15 µs vs 45 µs; 1M units).

    ``values`` must hold every field already validated by the parser; this sets exactly what
    pydantic's ``model_construct`` sets.
    """
    unit = Unit.__new__(Unit)
    object.__setattr__(unit, "__dict__", values)
    object.__setattr__(unit, "__pydantic_fields_set__", set(_UNIT_FIELDS))
    object.__setattr__(unit, "__pydantic_extra__", None)
    object.__setattr__(unit, "__pydantic_private__", None)
    return unit


def _parser() -> etree.XMLParser:
    return etree.XMLParser(**_PARSER_KW)


def _text_of(el: etree._Element | None) -> str | None:
    if el is None:
        return None
    t = flat_text(el)
    return t or None


def gliederung_kind(bez: str) -> tuple[str | None, str | None]:
    """'Buch 1' -> ('Buch', '1'); 'Erster Teil' -> ('Teil', '1'); 'Art 229' -> ('Art', '229')."""
    words = bez.split()
    kind = None
    rest: list[str] = []
    for w in words:
        base = w.rstrip(".")
        if kind is None and base in _GL_KINDS:
            kind = "Art" if base == "Artikel" else base
        else:
            rest.append(w)
    number = " ".join(rest) or None
    if number and number.lower() in _ORDINALS:
        number = str(_ORDINALS[number.lower()])
    return kind, number


def _footnotes(norm: etree._Element) -> list[str]:
    notes: list[str] = []
    for fn in norm.iterfind("textdaten/text/Footnotes/Footnote"):
        t = norm_ws(" ".join(fn.itertext()))
        if t:
            notes.append(t)
    fuss = norm.find("textdaten/fussnoten")
    if fuss is not None:
        t = norm_ws(" ".join(fuss.itertext()))
        if t:
            notes.append(t)
    return notes


class _LawBuilder:
    def __init__(self, key: str, sup_mode: bool) -> None:
        self.key = key
        self.sup_mode = sup_mode
        self.units: list[Unit] = []
        self.used: set[str] = set()
        # stack of (kennzahl, unit id, article label or None)
        self.stack: list[tuple[str, str, str | None]] = []
        self.unnumbered = 0

    def _id(self, seg: str) -> str:
        base = f"{self.key}/{seg}"
        out, n = base, 1
        while out in self.used:
            n += 1
            out = f"{base}_{n}"
        self.used.add(out)
        return out

    def _emit(self, **kw) -> None:
        kw.setdefault("text", "")
        kw.setdefault("title", None)
        kw.setdefault("label", None)
        kw.setdefault("kind", None)
        kw.setdefault("repealed", False)
        kw.setdefault("footnotes", [])
        kw["order"] = len(self.units)
        self.units.append(fast_unit(kw))

    def _pop_to(self, kz: str) -> None:
        while self.stack and not (kz.startswith(self.stack[-1][0]) and len(kz) > len(self.stack[-1][0])):
            self.stack.pop()

    def parent(self) -> str:
        return self.stack[-1][1] if self.stack else self.key

    def article(self) -> str | None:
        for _, _, art in reversed(self.stack):
            if art:
                return art
        return None

    def gliederung(self, gl: etree._Element, repealed: bool = False) -> None:
        kz = (gl.findtext("gliederungskennzahl") or "").strip()
        bez = norm_ws(gl.findtext("gliederungsbez") or "")
        title = _text_of(gl.find("gliederungstitel"))
        self._pop_to(kz)
        kind, number = gliederung_kind(bez)
        uid = self._id(f"Gl{kz or '0'}")
        art = None
        if kind == "Art" and number:
            art = compact(number)
        repealed = repealed or bool(title and is_repealed_text(title))
        self._emit(id=uid, level=Level.GLIEDERUNG, parent_id=self.parent(), title=title or bez or None,
                   label=number, kind=kind or (bez or None), repealed=repealed)
        self.stack.append((kz, uid, art))

    def ensure_gliederung(self, gl: etree._Element) -> None:
        """An Einzelnorm that names its Gliederung (EGBGB): make that Gliederung current."""
        kz = (gl.findtext("gliederungskennzahl") or "").strip()
        bez = norm_ws(gl.findtext("gliederungsbez") or "")
        if not kz:
            return
        if self.stack and self.stack[-1][0] == kz:
            return
        if bez in ("", "-"):
            self._pop_to(kz)
            return
        self.gliederung(gl)

    def paragraph(self, norm: etree._Element, des: ParaDesignation, title: str | None,
                  article: str | None = None) -> None:
        text_el = norm.find("textdaten/text")
        content = text_el.find("Content") if text_el is not None else None
        footnotes = _footnotes(norm)
        art = article or self.article()
        parent = self.parent()
        title_repealed = bool(title and is_repealed_text(title))
        for label in des.labels:
            if des.kind == "unnumbered":
                self.unnumbered += 1
                seg = f"§_{self.unnumbered}"
            elif des.segment_prefix == "§" and art and des.kind == "§":
                seg = f"Art{art}§{label}"
            else:
                seg = f"{des.segment_prefix}{label}"
            kind = "Art" if article else des.kind
            para = Node(Level.PARAGRAPH, label)
            if des.ranged:
                para.parts = [title or "(weggefallen)"]
                para.repealed = True
            elif des.segment_prefix == "Anl":
                if content is not None:
                    para.parts = [block_text(content)]
                elif text_el is not None:
                    para.parts = [block_text(text_el)]
                para.sep = "\n"
            else:
                build_paragraph(para, content, self.sup_mode)
            finish(para)
            if title_repealed or not para.text or content is None and not des.ranged and des.segment_prefix != "Anl":
                para.repealed = True
            prune_repealed(para)
            self._emit_tree(para, self._id(seg), parent, title=title, kind=kind,
                            footnotes=footnotes)

    def _emit_tree(self, node: Node, uid: str, parent: str, **kw) -> None:
        self._emit(id=uid, level=node.level, parent_id=parent, text=node.text or "",
                   label=node.label or None, repealed=node.repealed, **kw)
        self._emit_children(node, uid)

    def _emit_children(self, node: Node, uid: str) -> None:
        """The units below a §, depth first; written out flat because it runs for every one of a
        million units in the all-laws parse (a dict literal instead of ``_emit``'s defaults)."""
        seen: set[str] = set()
        units = self.units
        for ch in node.parts:
            if type(ch) is not Node:
                continue
            if not ch.text and not any(type(p) is Node for p in ch.parts):
                continue  # an empty item (e.g. a '*)' note list whose body is a noindex block)
            seg = child_segment(ch)
            if seg in seen:  # two lists in one Satz both counting from 1: keep ids unique
                n = 2
                while f"{seg}_{n}" in seen:
                    n += 1
                ch.label = f"{ch.label}_{n}"
                seg = f"{seg}_{n}"
            seen.add(seg)
            cid = f"{uid}/{seg}"
            units.append(fast_unit({"id": cid, "level": ch.level, "parent_id": uid, "text": ch.text or "",
                                    "label": ch.label or None, "repealed": ch.repealed, "title": None,
                                    "kind": None, "footnotes": [], "order": len(units)}))
            self._emit_children(ch, cid)


def _next_is_child(norms: list[etree._Element], i: int, kz: str) -> bool:
    """Does the norm after ``norms[i]`` (an article Gliederung ``kz``) hang below it?"""
    if i + 1 >= len(norms):
        return False
    nxt = norms[i + 1].find("metadaten")
    if nxt is None:
        return False
    enbez = nxt.findtext("enbez")
    gl = nxt.find("gliederungseinheit")
    nkz = (gl.findtext("gliederungskennzahl") or "").strip() if gl is not None else None
    if enbez is None:
        return bool(nkz and nkz.startswith(kz) and len(nkz) > len(kz))
    if not norm_ws(enbez).startswith("§"):
        return False
    return nkz is None or nkz == kz


def _preamble(norms: list[etree._Element]) -> str | None:
    """The text of the law's Eingangsformel norm(s), where it has one (an ordinance's enabling formula)."""
    parts = []
    for norm in norms:
        if _PREAMBLE.match((norm.findtext("metadaten/enbez") or "").strip()):
            text_el = norm.find("textdaten/text")
            parts.append(flat_text(text_el) if text_el is not None else "")
    return " ".join(p for p in parts if p) or None


def parse_tree(root: etree._Element, name: str, slug: str | None, sup_mode: bool) -> Law:
    if not isinstance(root.tag, str) or root.tag != "dokumente":
        raise ParseError(f"{name}: not a gesetze-im-internet file (root element <{root.tag}>, "
                         "expected <dokumente>)")
    norms = root.findall("norm")
    if not norms:
        raise ParseError(f"{name}: no <norm> elements (empty or truncated gii file)")
    header = norms[0].find("metadaten")
    jurabk = norm_ws(header.findtext("jurabk") or "") if header is not None else ""
    if not jurabk:
        raise ParseError(f"{name}: the first <norm> has no <jurabk> (not a gii law header)")
    amtabk = norm_ws(header.findtext("amtabk") or "") or None
    stand = None
    for sa in header.iterfind("standangabe"):
        if norm_ws(sa.findtext("standtyp") or "") == "Stand":
            stand = norm_ws(sa.findtext("standkommentar") or "") or None
            break
    key = law_key(jurabk, amtabk, codes.default_alias())
    builder = _LawBuilder(key, sup_mode)
    start = 1
    if header.find("enbez") is not None or header.find("gliederungseinheit") is not None:
        start = 0  # no header norm
    for i in range(start, len(norms)):
        norm = norms[i]
        md = norm.find("metadaten")
        if md is None:
            continue
        enbez = md.findtext("enbez")
        gl = md.find("gliederungseinheit")
        if enbez is None:
            if gl is None:
                continue  # a second header-like norm
            kz = (gl.findtext("gliederungskennzahl") or "").strip()
            bez = norm_ws(gl.findtext("gliederungsbez") or "")
            m = _ART_BEZ.match(bez)
            content = norm.find("textdaten/text/Content")
            body = flat_text(content) if content is not None else ""
            if m and body and not _next_is_child(norms, i, kz):
                # an article that carries its text itself (EGBGB Art 47): a Paragraph
                builder._pop_to(kz)
                art = compact(m.group(1))
                title = _text_of(gl.find("gliederungstitel"))
                des = ParaDesignation("Art", [art], "Art")
                builder.paragraph(norm, des, title, article=art)
                continue
            builder.gliederung(gl, repealed=is_repealed_text(body) and not _next_is_child(norms, i, kz))
            continue
        if gl is not None:
            builder.ensure_gliederung(gl)
        des = paragraph_designation(enbez)
        if des is None:
            continue
        builder.paragraph(norm, des, _text_of(md.find("titel")))
    return Law.model_construct(
        key=key, jurabk=jurabk, amtabk=amtabk, title=_text_of(header.find("langue")) or "",
        stand=stand, builddate=root.get("builddate"), doknr=root.get("doknr"), slug=slug,
        preamble=_preamble(norms), units=builder.units)


def parse_bytes(data: bytes, name: str, slug: str | None = None) -> Law:
    """Parse one gii XML document. Raises :class:`ParseError` naming ``name`` and the problem."""
    if not data or not data.strip():
        raise ParseError(f"{name}: empty file")
    head = data.lstrip()[:1]
    if head != b"<":
        raise ParseError(f"{name}: not XML (does not start with '<'); expected a gii XML file")
    try:
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as err:
        reason = " ".join(str(err).split())  # libxml2's messages can hold a line break: one line
        raise ParseError(f"{name}: invalid XML ({reason}); is the file truncated or damaged?") from None
    _warn_entities(root, name)
    if slug is None:
        slug = _slug_of(name)
    return parse_tree(root, name, slug, sup_mode=b'class="Rec"' in data)


def _warn_entities(root: etree._Element, name: str) -> None:
    """One warning line for entity references left unexpanded. They are never resolved (an external
    entity could read local files, nested ones multiply the text), and gii files define none, so
    their text is dropped: the reader should know the file is not what gii ships."""
    names = sorted({e.name for e in root.iter(etree.Entity)})
    if names:
        shown = ", ".join(f"&{n};" for n in names[:5]) + (" ..." if len(names) > 5 else "")
        log.warning("warning: %s: entity references not expanded, their text is left out (%s); gii files "
                    "define no entities: check where the file comes from", name, shown)


def _slug_of(name: str) -> str | None:
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    return base[:-4] if base.endswith(".xml") else None
