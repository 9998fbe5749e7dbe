"""Statute citations in running text (court decisions, questions) -> normalised tuples.

This is the evaluation side of the grammar: every cited unit becomes one ``CitationMatch`` whose
``.citation`` is the same ``model.Citation`` tuple a graph node id decodes to, so gold and
retrieved units compare without any mapping table.
"""

from __future__ import annotations

from collections.abc import Container

from pydantic import BaseModel, Field

from ..errors import UserError
from ..fastmodel import builder
from ..model import Citation
from .caselaw import case_spans, holds
from .decide import decide
from .grammar import Chain, RawRef, scan
from .lawstatus import LawStatus, status_of
from .normalize import normalize
from .registry import LawRegistry
from .resolve import resolve_citation
from .tokens import tokenize

_RANGE_CAP = 60
# The longest LER BGH decision has 52,350 characters; a limit 20 times that still refuses a text that
# only a caller who forgot to split a file (or a hostile one) would pass.
MAX_CHARS = 1_000_000


class TextTooLong(UserError):
    """A text longer than ``extract`` reads in one call: its matches would be bounded but large."""
_LAW_WORD_PARTS = ("gesetz", "ordnung", "gesetzbuch")


class CitationMatch(BaseModel):
    """One cited unit found in a text. Offsets are character offsets, end exclusive."""

    start: int
    end: int
    text: str
    chain_start: int = Field(description="start of the whole citation chain this unit belongs to")
    chain_end: int
    law_cited: str | None = Field(None, description="the law as written ('SGB V', 'des BGB')")
    law_key: str | None = Field(None, description="resolved law key (id segment); None = unknown")
    unit: str | None = Field(None, description="'§' | 'Art'; None for a bare law mention")
    para: str | None = Field(None, description="as in model ids: '§433', 'Art20', 'Art229§5'")
    absatz: str | None = None
    satz: str | None = None
    nummer: str | None = None
    buchstabe: str | None = None
    doppelbuchstabe: str | None = None
    halbsatz: str | None = None
    alternative: str | None = None
    ff: str | None = Field(None, description="'f' / 'ff' as written after the number")
    version: str | None = Field(None, description="'aF' / 'nF' when the citation names a version")
    reason: str | None = Field(None, description=(
        "without a law key: 'no_law', 'unknown_law', 'law_repealed', 'eu_law', 'state_law'; with one: "
        "'default_law' (the caller's default law was taken), 'law_after_break' (the law was read past a "
        "token the grammar skipped), 'units_decided' (the units that exist chose between readings)"))
    law_ended: int | None = Field(None, description="law_repealed: the year the law ended")
    successor: str | None = Field(None, description="law_repealed: the law that replaced it, if any")

    @property
    def citation(self) -> Citation:
        return Citation(law=self.law_key or self.law_cited or "", para=self.para,
                        absatz=self.absatz, satz=self.satz, nummer=self.nummer,
                        buchstabe=self.buchstabe, doppelbuchstabe=self.doppelbuchstabe)

    @property
    def node_id(self) -> str | None:
        """The id decoded from the tuple (no graph check); None without a law key or para."""
        if self.law_key is None or self.para is None:
            return None
        return self.citation.to_id()


_new_match = builder(CitationMatch)


def _para_id(unit: str | None, para: str) -> str:
    return f"§{para}" if unit == "§" else f"Art{para}"


def _expand_paras(ref: RawRef, budget: list[int]) -> list[str]:
    """Paras a reference covers without a graph: '10 bis 12' -> 10, 11, 12; '312 f.' -> 312, 313.

    ``budget`` ([values left]) is shared by a text's ranges: past it a range gives its two ends only,
    so a text of ranges ("§§ 1 bis 60, " x 15,000) cannot give 60 matches per 10 characters.
    """
    para = ref.para or ""
    if ref.para_to:
        span = int(ref.para_to) - int(para) if para.isdigit() and ref.para_to.isdigit() else 0
        if 0 < span <= min(_RANGE_CAP, budget[0]):
            budget[0] -= span
            return [str(v) for v in range(int(para), int(ref.para_to) + 1)]
        return [para, ref.para_to]
    if ref.ff == "f" and para.isdigit():
        return [para, str(int(para) + 1)]
    return [para]


def _law_of(ref: RawRef, default_law: str | None) -> tuple[str | None, str | None, LawStatus | None]:
    """(law key, reason, status of a law that is not federal law in force) of one reference."""
    if ref.law_kind == "named" and ref.law_key:
        return ref.law_key, ref.note, None
    if (ref.law_kind == "own" or ref.law_cited is None) and default_law:
        return default_law, "default_law", None  # never silently: the caller's law was taken
    if not ref.law_cited:
        return None, "no_law", None
    status = status_of(ref.law_cited)
    return None, (status.status if status else "unknown_law"), status


def _matches(text: str, chain: Chain, default_law: str | None, budget: list[int],
             known: Container[str] | None = None) -> list[CitationMatch]:
    out: list[CitationMatch] = []
    for ref in chain.refs:
        if ref.unit is None or ref.para is None:
            continue
        key, reason, status = _law_of(ref, default_law)
        if known is not None and key is not None:
            ref, decided = decide(ref, key, known)
            if decided and reason is None:
                reason = "units_decided"
        for para in _expand_paras(ref, budget):
            lv = ref.levels
            # every field, typed already (ints, strings, None): built without pydantic's validation,
            # 333,000 times for 1 MB of "§§ 1, 1, 1, …" (legalkg.fastmodel)
            out.append(_new_match({
                "start": ref.start, "end": ref.end, "text": text[ref.start:ref.end],
                "chain_start": chain.start, "chain_end": chain.end,
                "law_cited": ref.law_cited, "law_key": key, "unit": ref.unit,
                "para": _para_id(ref.unit, para), "absatz": lv.get("absatz"), "satz": lv.get("satz"),
                "nummer": lv.get("nummer"), "buchstabe": lv.get("buchstabe"),
                "doppelbuchstabe": lv.get("doppelbuchstabe"), "halbsatz": lv.get("halbsatz"),
                "alternative": lv.get("alternative"), "ff": ref.ff, "version": ref.version, "reason": reason,
                "law_ended": status.ended if status else None,
                "successor": status.successor if status else None}))
    return out


def _law_mentions(text: str, registry: LawRegistry, taken: list[tuple[int, int]]) -> list[CitationMatch]:
    """Bare law names outside citation chains ('der Zivilprozessordnung', 'SGB XII', 'UKlaG')."""
    tokens = tokenize(text)
    out: list[CitationMatch] = []
    spans = sorted(taken)
    si = 0
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        while si < len(spans) and spans[si][1] <= tok.start:
            si += 1
        if si < len(spans) and spans[si][0] <= tok.start < spans[si][1]:
            i += 1
            continue
        if tok.kind != "word" or not tok.text[0].isupper():
            i += 1
            continue
        hit = registry.match(tokens, i)
        if hit is None:
            i += 1
            continue
        end_i, key = hit
        words = [t.text for t in tokens[i:end_i] if t.text != "."]
        name = " ".join(words)
        single = len(words) == 1
        upper = sum(ch.isupper() for ch in words[0])
        abbrev = single and upper >= 2
        long_name = (not single) or any(p in words[0].lower() for p in _LAW_WORD_PARTS)
        if not (abbrev or long_name) or (single and len(name) < 2):
            i += 1
            continue
        if _secondary_mention(tokens, i, end_i):
            i = end_i
            continue
        end = tokens[end_i - 1].end
        while end > tok.start and text[end - 1] == ".":
            end -= 1
        out.append(CitationMatch(start=tok.start, end=end, text=text[tok.start:end],
                                 chain_start=tok.start, chain_end=end, law_cited=name, law_key=key))
        i = end_i
    return out


_AFTER_SECONDARY = frozenset({"aufl", "neubearb", "bd", "ed", "rn", "rdn", "rdnr", "kommentar",
                              "komm", "hrsg", "lfg", "stand"})


def _secondary_mention(tokens: list, i: int, j: int) -> bool:
    """A law name that titles a commentary ('Fischer, StGB, 65. Aufl.'), a reporter ('BGHR StGB
    § 46') or a journal ('BKR 2017, 123') rather than naming the statute."""
    k = j
    while k < len(tokens) and tokens[k].text in (",", "."):
        k += 1
    if k < len(tokens):
        nxt = tokens[k]
        if nxt.low in _AFTER_SECONDARY or nxt.kind == "sect" or nxt.text in ("/", "Art"):
            return True
        if nxt.kind == "num":
            after = tokens[k + 1] if k + 1 < len(tokens) else None
            after2 = tokens[k + 2] if k + 2 < len(tokens) else None
            if after is not None and after.text == "." and after2 is not None and after2.low == "aufl":
                return True
            if len(nxt.text) == 4 and after is not None and after.text == ",":
                return True  # journal: 'BKR 2017 , 123'
    if i > 0 and tokens[i - 1].text in ("BGHR", "/"):
        return True
    return False


def check_length(text: str, max_chars: int = MAX_CHARS) -> None:
    """Refuse a text over ``max_chars`` with one line (``TextTooLong``) before any work is done."""
    if len(text) > max_chars:
        raise TextTooLong(f"the text has more than {max_chars:,} characters, the most a citation scan reads "
                          f"at once: split it (e.g. by paragraph) and scan each part")


def extract(text: str, default_law: str | None = None, registry: LawRegistry | None = None,
            *, law_mentions: bool = False, max_chars: int = MAX_CHARS,
            known: Container[str] | None = None) -> list[CitationMatch]:
    """Every statute citation in ``text``, one ``CitationMatch`` per cited unit, in text order.

    ``default_law`` is the law key for citations without a law ("§ 5", "dieses Gesetzes").
    ``law_mentions=True`` also yields bare law names (unit/para None), as the LER gold tags them.
    A text over ``max_chars`` raises ``TextTooLong`` (a ``UserError``): time, memory and the number
    of matches grow linearly with the text, and the limit keeps a service's worst case bounded.
    ``known`` (unit ids, e.g. a ``KnownUnits``) lets the units that exist decide between readings the
    text leaves open ("§ 312 f BGB": § 312f where the law has it; "Art. 3 II Nr. 1, 4": Art. 4 where
    Art. 3 Abs. 2 has no Nr. 4). The text is read after ``normalize`` (entities, odd spaces, soft
    hyphens); offsets and texts of the matches are those of ``text`` as passed.
    """
    check_length(text, max_chars)
    reg = registry or LawRegistry.default()
    norm, offsets = normalize(text)
    chains = [c for c in scan(norm, reg, relative=False) if not holds(norm, c.start, c.end)]
    out: list[CitationMatch] = []
    budget = [len(norm) // 4 + _RANGE_CAP]
    for chain in chains:
        out.extend(_matches(norm, chain, default_law, budget, known))
    if law_mentions:
        taken = [(c.start, c.end) for c in chains] + [(c.start, c.end) for c in case_spans(norm)]
        out.extend(_law_mentions(norm, reg, taken))
        out.sort(key=lambda m: (m.chain_start, m.start))
    if offsets is not None:
        out = [_moved(m, text, offsets) for m in out]
    elif norm != text:  # blanks for odd spaces, one for one: the offsets hold, the texts are the input's
        out = [m.model_copy(update={"text": text[m.start:m.end]}) for m in out]
    return out


def _moved(m: CitationMatch, text: str, offsets) -> CitationMatch:
    s, e = offsets.span(m.start, m.end)
    cs, ce = offsets.span(m.chain_start, m.chain_end)
    return m.model_copy(update={"start": s, "end": e, "text": text[s:e], "chain_start": cs, "chain_end": ce})


def spans(matches: list[CitationMatch]) -> list[tuple[int, int]]:
    """Distinct chain spans (start, end) in order: the unit a masker or span metric works on."""
    return sorted({(m.chain_start, m.chain_end) for m in matches})


def mask(text: str, placeholder: str = "[NORM]", registry: LawRegistry | None = None,
         *, law_mentions: bool = True) -> str:
    """``text`` with every citation chain (and by default every bare law name) replaced.

    Used to build evaluation queries that do not give the answer away; bare "§ 5" is masked too.
    """
    matches = extract(text, registry=registry, law_mentions=law_mentions)
    out: list[str] = []
    pos = 0
    for s, e in spans(matches):
        if s < pos:
            continue
        out.append(text[pos:s])
        out.append(placeholder)
        pos = e
    out.append(text[pos:])
    return "".join(out)


def resolve(match_or_citation: CitationMatch | Citation, known_ids: Container[str]) -> str | None:
    """Most specific existing node id for a match or tuple, or None (unknown law / missing §)."""
    if isinstance(match_or_citation, CitationMatch):
        if match_or_citation.law_key is None:
            return None
        cit = match_or_citation.citation
    else:
        cit = match_or_citation
    return resolve_citation(cit, known_ids)
