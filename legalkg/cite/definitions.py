"""Legal definitions (Legaldefinitionen) written in a law's own text -> (term, scope, defining unit).

Why: "Unternehmer" means what § 14 BGB says within the BGB, and "Arbeitnehmer" means something else
in each law that defines it; an answer that cites a § needs the definition whose scope holds that §.
The reader is pattern based and reads each unit's *own* text (a unit with children only its lead-in),
so a definition lands on the deepest unit that holds it. Patterns (docs/facts.md, measured there):

- ``sinne``: "X im Sinne dieses Gesetzes ist/sind ...", "Im Sinne dieses Abschnitts ist X, wer ...";
- ``wer``: "X ist jede natürliche Person, die ...", "X ist, wer ...", "X ist eine ..., die ...";
- ``paren``: "ohne schuldhaftes Zögern (unverzüglich)", "(im Folgenden „Anbieter“)";
- ``numbered``: the items of a Begriffsbestimmungen list, "1. Arbeitnehmer: ...", "2. „Anbieter“ ...".

The scope is the law, unless the text names a part of it ("im Sinne dieses Abschnitts": the
enclosing Gliederung of that kind; "dieser Vorschrift": the §).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..model import TEXT_LEVELS, Law, Level, Unit

_KINDS = {"gesetzes": "law", "gesetzbuchs": "law", "gesetzbuches": "law", "verordnung": "law",
          "rechtsverordnung": "law", "anordnung": "law", "bekanntmachung": "law", "abkommens": "law",
          "buches": "Buch", "buchs": "Buch", "teils": "Teil", "abschnitts": "Abschnitt",
          "unterabschnitts": "Unterabschnitt", "kapitels": "Kapitel", "unterkapitels": "Unterkapitel",
          "titels": "Titel", "untertitels": "Untertitel", "vorschrift": "§", "paragraphen": "§",
          "paragrafen": "§", "bestimmung": "§", "artikels": "§", "anlage": "§"}
_SINNE = re.compile(r"\b[Ii]m\s+Sinne\s+(?:dieses|dieser)\s+(?P<kind>" + "|".join(_KINDS) + r")\b", re.I)
_VERB = r"(?:ist|sind|bedeutet|bedeuten|bezeichnet|bezeichnen|gilt|gelten|umfasst|versteht\s+man\s+unter)"
_DET = r"(?:jede[rs]?|wer|alle|diejenigen?|derjenige|dasjenige|eine[rs]?|ein|der|die|das|solche)"
_WORD = r"[A-ZÄÖÜ][\wäöüß-]*"
_TERM = rf"(?P<term>{_WORD}(?:\s+(?:[a-zäöüß]+\s+)?{_WORD}){{0,2}})"
_LEAD_ART = r"(?:(?:Der|Die|Das|Ein|Eine|Als)\s+)?"
#: "Verbraucher ist jede natürliche Person, die ..."; "Arbeitnehmer ist, wer ..."; "X im Sinne dieses Gesetzes ist ..."
_WER = re.compile(rf"^{_LEAD_ART}{_TERM}(?P<sinne>\s+im\s+Sinne\s+[^,]{{3,60}}?)?\s+(?:ist|sind|gilt|gelten)\s*,?\s+"
                  rf"(?P<det>{_DET})\b(?P<rest>.*)$", re.S)
#: "Im Sinne dieses Gesetzes ist Arbeitnehmer, wer ..." / "... sind Abfälle alle Stoffe ..."
_SINNE_LEAD = re.compile(rf"^[Ii]m\s+Sinne\s+\S+\s+\S+\s+{_VERB}\s+(?:der\s+Begriff\s+|der\s+Ausdruck\s+)?"
                         rf"[„\"]?{_TERM}[“\"]?\s*,?\s+{_DET}\b")
_PAREN = re.compile(r"\((?:(?P<intro>im\s+Folgenden|nachfolgend|nachstehend|fortan)\s+(?:als\s+)?)?"
                    r"[„\"]?(?P<term>[A-ZÄÖÜa-zäöü][\wäöüß-]{3,}(?:\s+[\wäöüß-]+){0,2})[“\"]?\)")
#: a bracketed single word that is a reference, a unit or a note rather than a term
_PAREN_STOP = frozenset("""anlage anlagen artikel absatz satz nummer buchstabe bgbl abl anhang muster
weggefallen aufgehoben fortgefallen gestrichen entfällt bundesgesetzbl amtsblatt richtlinie verordnung gesetz
gesetzes hinweis fußnote anmerkung neufassung west ost nord süd gemeindeverbände""".split())
_ITEM = (re.compile(r"^[„\"](?P<term>[^“\"]{2,80})[“\"]"),
         re.compile(rf"^(?P<term>{_WORD}(?:\s+[\wäöüß-]+){{0,4}}?)\s*:\s"),
         re.compile(rf"^(?:ist|sind)\s+[„\"]?{_TERM}[“\"]?\s*,?\s+{_DET}\b"),
         re.compile(rf"^{_LEAD_ART}{_TERM}\s+(?:ist|sind|bedeutet|bezeichnet)\s+{_DET}\b"))
_LIST_LEAD = re.compile(rf"{_VERB}(?:\s+der\s+(?:Begriff|Ausdruck))?\s*:?\s*$|[Bb]egriffsbestimmung|:\s*$")
_LOCAL = re.compile(r"\b(?:des\s+(?:Absatzes|Satzes)|der\s+(?:Absätze|Sätze|Nummern?))\b")
#: sentence openers that are no term ("Bei der Ermittlung des Vorteils im Sinne des Satzes 1 ist ...")
_NOT_TERM = frozenset("""bei zur zum für nach von mit in auf soweit wenn für durch unter aus vor über gegen ab
hierbei dabei dies diese dieser dieses es zusätzlich ferner außerdem weiterhin daneben hierzu hierfür ebenso
gleichfalls insbesondere zuständig""".split())
#: a bracket that places something ("am Halteschild (Nordufer)", "entlang der Fahrrinne (Nordseite)")
_PLACE = re.compile(r"(?:Nord|Süd|Ost|West)(?:en|ufer|seite|rand|teil|hälfte|ende|west|ost)?", re.I)
_LABEL_END = re.compile(r"\s*(?:\d+[a-z]?\.|[a-z]{1,2}\))\s*$")
_SINNE_TAIL = re.compile(r"\s+im\s+Sinne\b.*$", re.S)
_ARTICLES = re.compile(r"^(?:der|die|das|ein|eine|einer|eines|als)\s+", re.I)


@dataclass(frozen=True)
class Definition:
    term: str
    unit: str  # the defining unit's id
    scope: str  # the law key, a Gliederung id or a § id
    scope_kind: str  # "law" | a Gliederung kind | "§"
    pattern: str  # sinne | wer | paren | numbered
    text: str  # the defining sentence or item, as written (at most 300 characters)

    @property
    def key(self) -> str:
        """The term as looked up: lower case, blanks collapsed."""
        return term_key(self.term)

    @property
    def node_id(self) -> str:
        """The ``Term`` node: one per (term, scope)."""
        return f"{self.scope}#{self.key}"


def term_key(term: str) -> str:
    return " ".join(term.split()).lower()


def _own_texts(law: Law) -> tuple[dict[str, str], dict[str, Unit], dict[str, list[Unit]]]:
    """Each text unit's own text (a unit with children: what precedes its first child's text)."""
    by_id = {u.id: u for u in law.units}
    children: dict[str, list[Unit]] = {}
    for u in law.units:
        if u.level in TEXT_LEVELS:
            children.setdefault(u.parent_id, []).append(u)
    own: dict[str, str] = {}
    for u in law.units:
        if u.level not in TEXT_LEVELS or u.repealed or not u.text:
            continue
        kids = [c for c in children.get(u.id, ()) if c.text]
        if not kids:
            own[u.id] = u.text
            continue
        k = u.text.find(kids[0].text)
        own[u.id] = _LABEL_END.sub("", u.text[:k]).strip() if k > 0 else ""  # less the first item's "1."
    return own, by_id, children


def _scope(unit: Unit, by_id: dict[str, Unit], kind: str | None, law: Law) -> tuple[str, str]:
    """The (scope id, scope kind) a "im Sinne dieses X" phrase names for ``unit``."""
    if kind is None or _KINDS.get(kind.lower(), "law") == "law":
        return law.key, "law"
    want = _KINDS[kind.lower()]
    node = by_id.get(unit.id)
    while node is not None:
        if want == "§" and node.level == Level.PARAGRAPH:
            return node.id, "§"
        if node.level == Level.GLIEDERUNG and (node.kind or "") == want:
            return node.id, want
        node = by_id.get(node.parent_id)
    return law.key, "law"  # "dieses Buches" of an SGB book: the law itself


def _clean_term(term: str) -> str | None:
    term = _ARTICLES.sub("", " ".join(term.split())).strip(" ,;:„“\"")
    term = _SINNE_TAIL.sub("", term)  # "Zweigniederlassung im Sinne dieses Gesetzes" -> "Zweigniederlassung"
    if term.split(" ")[0].lower() in _NOT_TERM:
        return None
    if len(term) < 3 or len(term) > 80 or not any(ch.isalpha() for ch in term):
        return None
    return term


def _sentence_defs(text: str) -> list[tuple[str, str, str | None]]:
    """(term, pattern, scope word) of the sentence patterns in one own text."""
    out: list[tuple[str, str, str | None]] = []
    sinne = _SINNE.search(text[:200])
    kind = sinne.group("kind") if sinne else None
    m = _SINNE_LEAD.match(text)
    if m:
        out.append((m.group("term"), "sinne", kind))
        return out
    m = _WER.match(text)
    if m and (m.group("sinne") or m.group("det") not in ("der", "die", "das", "ein", "eine", "einer")
              or re.search(r",\s+(?:die|der|das|welche[rs]?|wer)\b", m.group("rest"))):
        if m.group("det") in ("der", "die", "das") and not m.group("sinne"):
            return out  # "Die Frist ist die ...": too weak without a scope phrase
        if m.group("sinne") and _LOCAL.search(m.group("sinne")):
            kind = "paragraphen"  # "Gewinn im Sinne des Absatzes 1 ist ...": for this §
        out.append((m.group("term"), "sinne" if m.group("sinne") else "wer", kind))
    return out


def _paren_defs(text: str) -> list[str]:
    out = []
    if " | " in text:
        return out  # a table: its brackets are units and column notes ("Ausbildungsdauer (Wochen)")
    for m in _PAREN.finditer(text):
        if re.match(r"\s+[A-ZÄÖÜ][a-zäöüß]", text[m.end():m.end() + 3]):
            continue  # "(Technischen) Richtlinien": the bracket qualifies the next noun
        term = m.group("term")
        if m.start() == 0:
            continue  # "(Vertragsstrafe) eine Bestimmung, ...": a list item's heading, not a definition
        if text[m.start() - 1] in "„\"" or text[m.end():m.end() + 1] in "“\"":
            continue  # "mit dem Zusatz „(Offizieranwärter)“": a quoted suffix, not a definition
        first = term.split()[0].lower()
        if first in _PAREN_STOP or any(ch.isdigit() for ch in term) or _PLACE.fullmatch(term):
            continue
        if re.search(r"\d\s*$", text[:m.start()]):
            continue  # "MDK-km 130,00 (Bau-km)", "nach § 3 Abs. 1 Nr. 1 (Auslandsstücke)": a note on a number
        if not m.group("intro") and (" " in term or term[:1].islower() and term != "unverzüglich"):
            continue  # a bare bracket holds a term of one word; several words only "im Folgenden"
        if sum(ch.isupper() for ch in term) > 1 and " " not in term:
            continue  # an abbreviation "(BKat)", not a defined word
        out.append(term)
    return out


def definitions(law: Law) -> list[Definition]:
    """Every definition the law's own text makes, in document order."""
    own, by_id, children = _own_texts(law)
    out: list[Definition] = []
    for uid, text in own.items():
        if not text:
            continue
        unit = by_id[uid]
        found = [(t, p, k) for t, p, k in _sentence_defs(text)]
        if "/Anl" not in uid:  # an Anlage's brackets are table notes, forms and lists, rarely definitions
            found += [(t, "paren", None) for t in _paren_defs(text)]
        found += _item_defs(unit, text, by_id, own)
        for term, pattern, kind in found:
            term = _clean_term(term)
            if term is None:
                continue
            scope, scope_kind = _scope(unit, by_id, kind, law)
            out.append(Definition(term, uid, scope, scope_kind, pattern, text[:300]))
    return _unique(out)


def _item_defs(unit: Unit, text: str, by_id: dict[str, Unit], own: dict[str, str]) -> list[tuple[str, str, str | None]]:
    """An item of a Begriffsbestimmungen list: its lead-in says "im Sinne ... ist/sind:" or its §
    is titled "Begriffsbestimmungen"."""
    if unit.level not in (Level.NUMMER, Level.BUCHSTABE):
        return []
    lead = own.get(unit.parent_id, "")
    para = by_id.get(unit.parent_id)
    while para is not None and para.level != Level.PARAGRAPH:
        para = by_id.get(para.parent_id)
    titled = bool(para is not None and para.title and re.search(r"Begriff|Definition", para.title))
    sinne = _SINNE.search(lead)
    if not (sinne and _LIST_LEAD.search(lead) or titled and _LIST_LEAD.search(lead)):
        return []
    for rx in _ITEM:
        m = rx.match(text)
        if m:
            return [(m.group("term"), "numbered", sinne.group("kind") if sinne else None)]
    return []


def _unique(defs: list[Definition]) -> list[Definition]:
    seen: set[tuple[str, str, str]] = set()
    out = []
    for d in defs:
        key = (d.node_id, d.unit, d.pattern)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out
