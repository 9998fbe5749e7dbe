"""An ordinance's Eingangsformel -> the provisions it rests on (Ermächtigungsgrundlagen) and who issues it.

Why a reader of its own: a preamble is one long sentence whose citations mean two things. "Auf
Grund des § 26a des Straßenverkehrsgesetzes in der Fassung der Bekanntmachung vom 5. März 2003
(BGBl. I S. 310, 919), der zuletzt durch Artikel 1 Nummer 3 des Gesetzes vom 19. Juli 2007 (BGBl. I
S. 1460) geändert worden ist, verordnet das Bundesministerium ..." names one enabling unit (§ 26a
StVG) and, in its relative clause, the amending act (Artikel 1 Nummer 3 of a law "vom ..."), which
is no basis; "BGBl. I S. 310" would read as a Satz. So the clauses that only document versions are
cut out first (brackets, dates, "der/die/von denen ... durch ... geändert worden ist", "zuletzt
geändert durch ..."), then the citation grammar reads what is left: chains with genitive law names
in words ("des Fünften Buches Sozialgesetzbuch"), "in Verbindung mit", "jeweils", lists of several
laws. Rules and their measured precision and recall: docs/facts.md.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Container
from dataclasses import dataclass, field

from ..model import Citation, Law, Level, level_of_id
from .grammar import RawRef, scan
from .registry import LawRegistry
from .resolve import para_variants, resolve_under
from .tokens import tokenize

_AMEND = r"(?:geändert|eingefügt|angefügt|neu\s+gefasst|ersetzt|aufgehoben|erlassen|umbenannt|berichtigt)"
#: what documents versions, not bases: brackets, dates, relative and participial amendment clauses
_MASKS = (
    re.compile(r"\([^()]*\)"),
    re.compile(r"\[[^\[\]]*\]"),
    re.compile(r"\b(?:vom|v\.)\s+\d{1,2}\.\s*(?:\d{1,2}\.|[A-Za-zäÄ]+)\s*\d{4}"),
    re.compile(r"\bin\s+der\s+(?:Fassung|Neufassung)\s+der\s+Bekanntmachung\b"),
    re.compile(r"\bin\s+der\s+(?:jeweils\s+)?(?:geltenden|bis\s+zum\s+\S+\s+geltenden)\s+Fassung\b"),
    # ", der §§ 2, 3 ..." continues a list (the genitive article of its next item), no relative clause
    re.compile(r",\s*(?:(?:der|die|das)\s(?!§)|(?:dessen|deren|denen|von\s+denen|von\s+dem|von\s+der|welche[rs]?)\s)"
               r"(?:(?!\bauf\s+Grund\b|\baufgrund\b|\bverordne[nt]\b)[^:;])*?\b(?:durch|mit|gemäß)\b"
               r"(?:(?!\bauf\s+Grund\b|\baufgrund\b|\bverordne[nt]\b)[^:;])*?"
               r"\b(?:worden|wurden?)(?:\s+(?:ist|sind|war|waren))?"),
    re.compile(r"(?:,\s*(?:§§?|Artikel|Art\.|Absatz|Abs\.)[^,;:]{0,80}?)?,?\s*(?:(?:zuletzt|jeweils|mehrfach)\s+)*"
               + _AMEND + r"\s+(?:durch|mit|gemäß)\b[^,;:]*"),
    re.compile(r"\bjeweils\b"),
)
#: the words that introduce the legal basis
_BASIS = re.compile(r"\b(?:[Aa]uf\s+Grund|[Aa]ufgrund|[Gg]emäß|nach|[Kk]raft|in\s+Ausführung)\b")
_IVM = re.compile(r"\bin\s+Verbindung\s+mit\b|\bi\.\s*V\.\s*m\.|\bi\.V\.m\.")
_RESTART = re.compile(r"\b(?:auf\s+Grund|aufgrund|und\s+des|sowie\s+des|des|der|–)\s*$|[;–]")
#: how the names of laws end: a name the registry does not know still ends the reach of a list's law
_LAW_WORDS = ("gesetzes", "gesetz", "verordnung", "ordnung", "abkommens", "übereinkommens", "vertrages",
              "gesetzbuches", "gesetzbuchs", "statuts", "protokolls")
#: where one item of a list of bases ends and the next begins ("..., – des § 3 ...", "; ")
_ITEM_BREAK = re.compile(r"[;–]|\s-\s|\bauf\s+Grund\b|\baufgrund\b")
#: a law named before its list: "auf Grund folgender Bestimmungen des Wertpapierhandelsgesetzes …: - § 9 …"
_LIST_HEAD = re.compile(r"\bfolgende[rn]?\s+(?:Bestimmungen|Vorschriften|Ermächtigungen)\s+(?=des\s|der\s)")
_NEXT_BASIS = re.compile(r"\b(?:[Aa]uf\s+Grund|[Aa]ufgrund)\b")
_VERB = (r"(?:verordne[nt]|erlässt|erlassen|beschließt|beschließen|verfügt|verfügen|bestimmt|bestimmen|"
         r"ordnet|ordnen|gibt|geben|setzt|setzen|erklärt|macht)")
_BODY_AFTER = re.compile(_VERB + r"\s+(?:hiermit\s+)?(?P<body>(?:das|die|der)\s+[^:;]+)")
_BODY_BEFORE = re.compile(r"^(?P<body>(?:Das|Die|Der)\s+.+?)\s+" + _VERB + r"\b")
_BODY_END = re.compile(r",?\s+(?:im\s+Einvernehmen|im\s+Benehmen|mit\s+Zustimmung|nach\s+Anhörung|gemeinsam\s+mit|"
                       r"unter\s+Wahrung|auf\s+Grund|aufgrund|nach\s+§|gemäß|jeweils|und\s+der\s+Bundesrat|"
                       r"die\s+folgende|folgende|mit\s+Einwilligung|nach\s+Maßgabe)\b|[,:]\s*$")


@dataclass(frozen=True)
class EnablingRef:
    """One cited provision of a preamble. ``role``: "basis" (what "auf Grund des" names) or
    "in_connection" (named "in Verbindung mit" a basis); ``start``/``end``: the chain's span in the
    preamble as written."""

    ref: RawRef
    role: str
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Preamble:
    text: str
    body: str | None
    refs: list[EnablingRef]


class _Cleaned:
    """The preamble with the version clauses cut out, and the way back to the written offsets."""

    def __init__(self, text: str) -> None:
        masked = text
        for rx in _MASKS:
            masked = rx.sub(lambda m: "\0" * len(m.group(0)), masked)
        out: list[str] = []
        self.starts: list[int] = []  # clean offset where each kept run starts
        self.origin: list[int] = []  # its offset in ``text``
        pos = 0
        for m in re.finditer(r"[^\0]+", masked):
            piece = m.group(0)
            if out and not out[-1].endswith(" ") and not piece.startswith((" ", ",", ":", ";")):
                out.append(" ")
                pos += 1
            self.starts.append(pos)
            self.origin.append(m.start())
            out.append(piece)
            pos += len(piece)
        self.text = "".join(out)

    def back(self, offset: int, end: bool = False) -> int:
        """The offset in the written text of a clean offset (``end``: of the character before it)."""
        probe = offset - 1 if end and offset > 0 else offset
        i = max(bisect_right(self.starts, probe) - 1, 0)
        got = self.origin[i] + (probe - self.starts[i]) if self.starts else probe
        return got + 1 if end and offset > 0 else got


def issuing_body(clean: str) -> str | None:
    """Who issues the ordinance: "das Bundesministerium der Justiz" (before or after the verb)."""
    m = _BODY_BEFORE.match(clean)
    body = m.group("body") if m and len(m.group("body")) < 300 else None
    if body is None:
        hits = list(_BODY_AFTER.finditer(clean))
        if not hits:
            return None
        body = hits[-1].group("body")
    cut = _BODY_END.search(body)
    if cut:
        body = body[:cut.start()]
    body = " ".join(body.split()).strip(" ,")
    if body[:4] in ("Das ", "Die ", "Der "):
        body = body[0].lower() + body[1:]
    return body or None


def _law_names(clean: str, registry: LawRegistry) -> list[tuple[int, str | None, str | None]]:
    """(offset, law key, its words) of every law named in words after an article ("des
    Straßenverkehrsgesetzes", "der Abgabenordnung"), and (offset, None, its words) of a law the registry
    does not know ("des Tierseuchengesetzes", "des Lebensmittel- und Bedarfsgegenständegesetzes") or named
    by its kind alone ("des Gesetzes", "der Verordnung", whose date was cut out): where a list's law is."""
    toks = tokenize(clean)
    out: list[tuple[int, str | None, str | None]] = []
    for i in range(1, len(toks)):
        if toks[i - 1].low not in ("des", "der", "dem", "den") or not toks[i].text[:1].isupper():
            continue
        hit = registry.match(toks, i)
        if hit is not None:  # its words too: a record of the former law of that name cites them
            out.append((toks[i].start, hit[1], clean[toks[i - 1].start:toks[hit[0] - 1].end]))
        elif toks[i].low.endswith(_LAW_WORDS):
            out.append((toks[i].start, None, f"{toks[i - 1].text} {toks[i].text}"))
        elif (toks[i].text.endswith("-") and i + 2 < len(toks) and toks[i + 1].low in ("und", "oder")
              and toks[i + 2].low.endswith(_LAW_WORDS)):  # "des Lebensmittel- und Bedarfsgegenständegesetzes"
            out.append((toks[i].start, None, clean[toks[i - 1].start:toks[i + 2].end]))
    return out


def _law_of(ref: RawRef, names: list[tuple[int, str | None, str | None]], clean_between,
            heads: list[tuple[int, str | None, str | None]] = ()) -> RawRef:
    """A reference without a law takes the law of the list head before it ("auf Grund folgender
    Bestimmungen des Wertpapierhandelsgesetzes: - § 9 …"), else the next law the preamble names after
    it: "des § 27 Absatz 1 und des § 46 Satz 1 des Bundeswasserstraßengesetzes" are both of the WaStrG."""
    if ref.law_kind is not None:
        return ref
    for head, key, words in reversed(heads):
        if head < ref.start:
            if _NEXT_BASIS.search(clean_between(head, ref.start)):
                break  # a later "auf Grund" opens an item of its own
            return _with_law(ref, key, words)
    for pos, key, words in names:
        if pos >= ref.end:
            if _ITEM_BREAK.search(clean_between(ref.end, pos)):
                return ref  # the next item of a dash list names its own law: this one's was not read
            return _with_law(ref, key, words)
    return ref


def _with_law(ref: RawRef, key: str | None, words: str | None = None) -> RawRef:
    """``ref`` with the law named after it: its key, or the words of a law the registry does not know."""
    kind = "named" if key else "unknown"
    return RawRef(**{**ref.__dict__, "law_key": key, "law_kind": kind,
                     "law_cited": ref.law_cited or words or ("named later" if key else "unnamed law")})


def _list_heads(clean: str, names: list[tuple[int, str | None, str | None]]
                ) -> list[tuple[int, str | None, str | None]]:
    """(offset, law key, words) of each "folgender Bestimmungen des X" that names the law of the list
    after it."""
    out = []
    for m in _LIST_HEAD.finditer(clean):
        named = next(((k, w) for pos, k, w in names if m.end() < pos <= m.end() + 4), (None, None))  # "des "
        out.append((m.end(), *named))
    return out


def read_preamble(text: str, registry: LawRegistry) -> Preamble:
    """The enabling references and the issuing body of one Eingangsformel."""
    cleaned = _Cleaned(text)
    clean = cleaned.text
    basis_at = [m.start() for m in _BASIS.finditer(clean)]
    names: list[tuple[int, str | None, str | None]] | None = None
    heads: list[tuple[int, str | None, str | None]] = []
    refs: list[EnablingRef] = []
    for chain in scan(clean, registry, relative=False):
        if not basis_at or basis_at[0] > chain.start:
            continue  # "Artikel 79 Abs. 2 des Grundgesetzes ist eingehalten": no basis named before it
        start, end = cleaned.back(chain.start), cleaned.back(chain.end, end=True)
        role, prev_end = "basis", chain.start
        for ref in chain.refs:
            if ref.unit is None or ref.para is None or _word_as_letter(ref):
                continue
            gap = clean[prev_end:ref.start]
            if _IVM.search(gap):
                role = "in_connection"
            elif _RESTART.search(gap) or prev_end == chain.start:
                role = "in_connection" if _IVM.search(clean[max(0, chain.start - 25):chain.start]) else "basis"
            if ref.law_kind is None:
                if names is None:
                    names = _law_names(clean, registry)
                    heads = _list_heads(clean, names)
                ref = _law_of(ref, names, lambda a, b: clean[a:b], heads)
            refs.append(EnablingRef(ref, role, start, end, text[start:end]))
            prev_end = ref.end
    return Preamble(text, issuing_body(clean), refs)


#: words the citation grammar may take for a Buchstabe after "Buchstabe b und": "§ 9 Absatz 2 Nummer 2
#: Buchstabe b und des § 21 ..." reads a second § 9 ... Buchstabe "des" (a gap of the grammar's letter
#: lists; its reference is dropped here)
_NOT_LETTERS = frozenset({"des", "der", "dem", "den", "die", "das", "und", "oder", "sowie", "bis", "mit"})


def _word_as_letter(ref: RawRef) -> bool:
    return any(ref.levels.get(k) in _NOT_LETTERS for k in ("buchstabe", "doppelbuchstabe"))


_ID_LEVELS = ("absatz", "satz", "nummer", "buchstabe", "doppelbuchstabe")
#: how deep a unit sits below its §, and how deep a reference's deepest level asks for ("exact": reached)
_DEPTH = {Level.PARAGRAPH: 0, Level.ABSATZ: 1, Level.SATZ: 2, Level.NUMMER: 3, Level.BUCHSTABE: 4,
          Level.DOPPELBUCHSTABE: 5}
_DEPTH_OF = {"absatz": 1, "satz": 2, "nummer": 3, "buchstabe": 4, "doppelbuchstabe": 5}
_RANGE_CAP = 60
#: the date a preamble gives right after a law's name: "des Berufsbildungsgesetzes vom 14. August 1969",
#: "der Handwerksordnung in der Fassung der Bekanntmachung vom 24. September 1998"
_NAMED_DATE = re.compile(r"\s*(?:\([^()]*\)\s*)?,?\s*(?:vom|von|v\.|in\s+der\s+(?:Neu)?[Ff]assung\s+(?:der\s+"
                         r"Bekanntmachung\s+)?(?:vom|von))\s+\d{1,2}\.\s*(?:\d{1,2}\.|[A-Za-zäÄ]+)\s*(\d{4})")
_KEY_YEAR = re.compile(r"\s(\d{4})$")


def issuer_of(preamble: str | None) -> str | None:
    """The issuing body of a preamble (None without one)."""
    return issuing_body(_Cleaned(preamble).text) if preamble else None


def _paras(ref: RawRef) -> list[str]:
    """'§§ 10 bis 12' -> §10, §11, §12 (numbers only; a lettered range gives its two ends)."""
    head = "§" if ref.unit == "§" else "Art"
    a, b = ref.para or "", ref.para_to
    if b and a.isdigit() and b.isdigit() and 0 < int(b) - int(a) <= _RANGE_CAP:
        return [f"{head}{v}" for v in range(int(a), int(b) + 1)]
    if ref.ff == "f" and a.isdigit():
        return [f"{head}{a}", f"{head}{int(a) + 1}"]
    return [f"{head}{a}"] + ([f"{head}{b}"] if b else [])


@dataclass
class EnablingFacts:
    """What one law's preamble says it rests on: edges to existing units (``target`` set) and the
    references that reach no unit, with their status (as citations are: ``law_not_in_graph``,
    ``unknown_law``, ``no_law``, ``missing_unit``, ``repealed``)."""

    issuer: str | None = None
    edges: list[dict] = field(default_factory=list)
    unresolved: list[dict] = field(default_factory=list)


def enabling_facts(law: Law, registry: LawRegistry, known: Container[str], repealed: Container[str],
                   graph_laws: Container[str] | None = None) -> EnablingFacts:
    """``AUTHORIZED_BY`` rows of one law: from its Gesetz node to the deepest unit each reference
    of its Eingangsformel names that exists. ``graph_laws``: the law keys of the graph (a
    ``KnownUnits.laws``), to tell a law outside the graph from a missing unit."""
    preamble = getattr(law, "preamble", None)
    if not preamble:
        return EnablingFacts()
    read = read_preamble(preamble, registry)
    out = EnablingFacts(issuer=read.body)
    seen: set[tuple[str, str]] = set()
    for er in read.refs:
        ref = er.ref
        base = {"role": er.role, "text": er.text, "start": er.start, "end": er.end, "issuer": read.body}
        levels = {k: v for k, v in ref.levels.items() if k in _ID_LEVELS}
        key = ref.law_key if ref.law_kind == "named" else None
        for para in _paras(ref):
            human = Citation(law=key or ref.law_cited or "?", para=para, **levels).human()
            # law_name: the law as the record names it (the key, else the preamble's words)
            row = {**base, "citation": human, "law": key, "law_name": key or ref.law_cited}
            status = _status(ref, key, graph_laws)
            if status is None and (former_law(key, preamble, er.end) or enacted_before(law, key)):
                status = "unknown_law"  # a former law of that name, not in the graph
                row["law_name"] = f"{ref.law_cited or key} (former law)"
                row["citation"] = Citation(law=row["law_name"], para=para, **levels).human()
            target = None
            if status is None:
                c = Citation(law=key, para=para, **levels)
                target = resolve_under(para_variants(key, para), c, known)
                status = ("missing_unit" if target is None
                          else ("repealed" if target in repealed else None))
            if status is not None:
                out.unresolved.append({**row, "status": status, "target": target})
                continue
            if (er.role, target) in seen:
                continue
            seen.add((er.role, target))
            level = level_of_id(target)
            out.edges.append({**row, "source": law.key, "target": target, "level": level.value,
                              "exact": _DEPTH[level] >= max((_DEPTH_OF[k] for k in levels), default=0)})
    return out


def former_law(key: str | None, preamble: str, end: int) -> bool:
    """The preamble names, by its date, a law older than the law of that name in the graph: "des
    Berufsbildungsgesetzes vom 14. August 1969" is not the BBiG 2005 (the year in a law key marks a law
    enacted anew under an old name), nor "des Pflanzenschutzgesetzes in der Fassung der Bekanntmachung
    vom 14. Mai 1998" the PflSchG 2012. ``end``: where the reference's words end in the preamble."""
    year = _KEY_YEAR.search(key or "")
    named = _NAMED_DATE.match(preamble, end) if year else None
    return bool(named) and int(named.group(1)) < int(year.group(1))


#: the year of enactment in a gii document number ("BJNR254210009": 2009, "DDNR514670990": 1990)
_DOKNR_YEAR = re.compile(r"^[A-Z]{4}\w{7}(\d{2})$")


def enacted_before(law: Law, key: str | None) -> bool:
    """The ordinance was enacted before the year in the key of the law it names ("BNatSchG 2009", a law
    enacted anew under an old name): an ordinance of 1990 naming "§§ 12 und 14 des
    Bundesnaturschutzgesetzes" without a date rests on the former BNatSchG, not on the BNatSchG 2009.
    The year of the ordinance is that of its gii document number."""
    year = _KEY_YEAR.search(key or "")
    own = _DOKNR_YEAR.match(getattr(law, "doknr", None) or "")
    if not (year and own):
        return False
    yy = int(own.group(1))
    return (1900 + yy if yy >= 49 else 2000 + yy) < int(year.group(1))


def _status(ref: RawRef, key: str | None, graph_laws: Container[str] | None) -> str | None:
    """The status of a reference whose law is not at hand (the values of ``vocab.EnablingStatus``,
    which the loaders check; this floor cannot import the vocabulary)."""
    if key is None:
        return "no_law" if ref.law_kind is None else "unknown_law"
    if graph_laws is not None and key not in graph_laws:
        return "law_not_in_graph"
    return None
