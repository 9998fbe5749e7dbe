"""Sentence splitting for German statute text (pure, no I/O).

Why a hand-written splitter: court citation practice counts Sätze ("Satz 2"), and statute text is
full of periods that do not end a sentence (``Abs.``, ``Nr.``, ``z. B.``, ``1. Januar``, ``2. Buch``)
while some sentences end right after a citation number (StPO § 266 Abs. 2: "... dem § 200 Abs. 1.").
"""

from __future__ import annotations

import re

#: Abbreviations (lower-cased, without the final period) after which a period never ends a sentence.
ABBREVIATIONS: frozenset[str] = frozenset("""
abs absatz abschn anh anl anm art az bd bek bgbl gbl rgbl vobl abl buchst doppelbuchst bzw bzgl ca
dr einschl ausschl etc evtl ff f gem ggf hs halbs i.v.m i.s.d i.s.v i.d.f i.v insb inkl jew kap lfd
max min mind mio mrd nr nrn pp prof rn rdnr rz s sog sp st std str tel tz u.a usw v.h vgl vorbem z.b
d.h a.f n.f zit ziff lit zzgl unterabs verz ges verf nachw u.ä o.ä u.u m.w.n sa so. s.o s.u ebd
allg amtl ausg beschl bes betr dgl eingetr einschl entspr erg evang ev gez hrsg jh kath lt nachf nr.
o.g od pkt rd sen sek techn tgl urspr vers vj vs zt zb dh usf ua ua. inh
""".split())

#: Words that introduce a citation number: a period right after that number can end a sentence.
CITATION_WORDS: frozenset[str] = frozenset("""
§ §§ abs. absatz absatzes absätze nr. nummer nummern nrn. s. satz satzes sätze art. artikel artikels
buchst. buchstabe buchstaben halbsatz halbsatzes anlage anhang ziff. ziffer teil teils kapitel
abschnitt abschnitts unterabschnitt titel buch buches doppelbuchst. doppelbuchstabe spiegelstrich
""".split())

MONTHS: frozenset[str] = frozenset(
    "januar februar märz april mai juni juli august september oktober november dezember".split())

_CANDIDATE = re.compile(r"[.!?][\"'“”»«)\]]*(?=\s+\S)")
_NUMBER = re.compile(r"^\(?(\d{1,3}[a-z]{0,2}|[IVXLC]+)$")
_YEARISH = re.compile(r"^\d{4}$")
_NEXT_WORD = re.compile(r"\s+(\S+)")
_CLOSERS = "\"'“”»«)]"


def _word_before(text: str, end: int) -> tuple[str, str]:
    """The whitespace-delimited word ending at ``end`` and the word before it."""
    start = text.rfind(" ", 0, end) + 1
    word = text[start:end]
    prev_end = start - 1
    prev_start = text.rfind(" ", 0, max(prev_end, 0)) + 1
    prev = text[prev_start:prev_end] if prev_end > 0 else ""
    return word, prev


def is_boundary(text: str, pos: int, end: int) -> bool:
    """Does the punctuation at ``text[pos]`` (group ending at ``end``) end a sentence?"""
    if text[pos] in "!?":
        return True
    word, prev = _word_before(text, pos)
    m = _NEXT_WORD.match(text, end)
    nxt = m.group(1) if m else ""
    first = nxt[0] if nxt else ""
    if first.islower():
        return False  # German sentences start with a capital, a digit, § or a bracket
    if end > pos + 1:  # closing quote or bracket after the period: "... (ABl. L 1 S. 1)."
        return True
    bare = word.lstrip("(\"'„“")
    low = bare.lower()
    if not bare:
        return True
    if bare.endswith(")"):
        return True
    if _NUMBER.match(bare):
        if prev.lower() in CITATION_WORDS:
            return True  # "... dem § 200 Abs. 1. Sie wird ..."
        if nxt.lower().rstrip(",.;") in MONTHS:
            return False  # "1. Januar 2002"
        return False  # ordinal: "2. Buch", "3. Abschnitt", "1. Halbsatz"
    if _YEARISH.match(bare):
        return True
    if low in ABBREVIATIONS or low.rstrip(".") in ABBREVIATIONS:
        return False
    if "." in bare:  # z.B. / i.V.m. / u.a. written without blanks
        return False
    if len(bare) == 1 and bare.isalpha():
        # "z. B.", "d. h.", initials -- but "nach Buchstabe a." ends a sentence
        return prev.lower() in CITATION_WORDS
    return True


def split_sentences(text: str) -> list[tuple[str, bool]]:
    """Split ``text`` into ``(sentence, closed)`` pairs; ``closed`` = ends with a sentence end.

    Every sentence but the last is closed; the last is closed when the text ends with a sentence
    end, which tells the caller whether text that follows (after a list) starts a new Satz.
    """
    text = " ".join(text.split())
    if not text:
        return []
    out: list[tuple[str, bool]] = []
    start = 0
    for m in _CANDIDATE.finditer(text):
        if is_boundary(text, m.start(), m.end()):
            out.append((text[start:m.end()].strip(), True))
            start = m.end()
    rest = text[start:].strip()
    if rest:
        out.append((rest, ends_sentence(rest)))
    return out


def ends_sentence(text: str) -> bool:
    """Does ``text`` end with a sentence end (not an abbreviation)? Used after lists and at ends."""
    text = " ".join(text.split())
    if not text:
        return False
    i = len(text)
    while i and text[i - 1] in _CLOSERS:
        i -= 1
    if not i or text[i - 1] not in ".!?":
        return False
    if text[i - 1] in "!?":
        return True
    # judge it as if a capitalised word followed
    probe = text + " X"
    return is_boundary(probe, i - 1, len(text))
