"""The law a citation names: 'BGB', 'des Bürgerlichen Gesetzbuchs', 'dieses Gesetzes', 'SGB V § 13'.

Why apart from the chain walk: a chain reads a law name at several places (after a reference, before
its head, past a token it skipped), and each asks the same question of the registry and lexicon.
"""

from __future__ import annotations

from .lawstatus import registry as other_laws
from .reader import Reader
from .refs import RawRef
from .tokens import is_roman

#: (index after, cited text, law key, kind): kind "named" | "own" ("dieses Gesetzes") | "unknown"
LawHit = tuple[int, str, str | None, str]
#: How many tokens past a chain's end a law name may still close it ('§ 5 Abs. 2 (neu) BGB').
BREAK_LOOKAHEAD = 4


def law_at(p: Reader, i: int) -> LawHit | None:
    """A law name at i: (index after, cited text, law key, kind)."""
    if i >= p.n:
        return None
    own = p.phrase("own_law", i)
    if own is not None:
        return own[1], p.text(i, own[1]), None, "own"
    start = i
    if p.low(i) in p.lex.words("article"):
        i += 1
        if p.low(i) in p.lex.words("name_adjective"):
            i += 1  # "des deutschen Außensteuergesetzes"
    hit = p.reg.match(p.t, i, lower=start == i)
    if hit is not None:
        end, key = hit
        return short_form(p, end), p.text(start, end), key, "named"
    other = other_laws().match(p.t, i)
    if other is not None:
        return other[0], p.text(i, other[0]), None, "unknown"
    return law_word(p, start, i)


def law_word(p: Reader, start: int, i: int) -> LawHit | None:
    """A name no registry knows: a word with a law part ('Außensteuergesetzes'), maybe with its
    known short form in brackets, or (with no article before it) an abbreviation-like word."""
    tok = p.t[i] if i < p.n else None
    if tok is None or tok.kind != "word":
        return None
    named = tok.text[0].isupper() and any(part in tok.low for part in p.lex.words("law_part"))
    if named:
        short = bracketed(p, i + 1)  # "Bundesausbildungsförderungsgesetz (BAföG)"
        if short is not None:
            return short[0], p.text(start, i + 1), short[1], "named"
    if start != i:
        return (i + 1, p.text(start, i + 1), None, "unknown") if named else None
    upper = sum(1 for ch in tok.text if ch.isupper())
    if (upper >= 2 and 2 <= len(tok.text) <= 15 and tok.text[0].isupper()
            and tok.text not in p.lex.words("not_abbrev") and not is_roman(tok)
            and p.keywords.get(tok.low) is None):
        return i + 1, tok.text, None, "unknown"
    return None


def bracketed(p: Reader, i: int) -> tuple[int, str] | None:
    """'( BAföG )' at i: (index after ')', key of the short form) when the registry knows it."""
    if p.low(i) != "(" or i + 2 >= p.n:
        return None
    hit = p.reg.match(p.t, i + 1)
    if hit is None or hit[0] >= p.n or p.t[hit[0]].text != ")":
        return None
    return hit[0] + 1, hit[1]


def short_form(p: Reader, end: int) -> int:
    """A full name's bracketed short form belongs to the name: 'Sozialgesetzbuch (SGB)'."""
    short = bracketed(p, end)
    return short[0] if short is not None else end


def prefix_law(p: Reader, i: int) -> tuple[int, str, str] | None:
    """'SGB V § 13', 'BGB § 433': a known law name ending right before the head at i."""
    for back in (4, 3, 2, 1):
        s = i - back
        if s < 0:
            continue
        hit = p.reg.match(p.t, s)
        if hit is not None and hit[0] == i:
            return s, p.text(s, i), hit[1]
    return None


def law_after_break(p: Reader, j: int, refs: list[RawRef]) -> tuple[int, int] | None:
    """A chain that ended on a token the grammar does not read keeps the law that closes it:
    a law name within the next few tokens, with only numbers, punctuation and short tokens
    between ('§ 5 Abs. 2 (neu) BGB'). Those references say so (``note``)."""
    k = j
    while k < p.n and k < j + BREAK_LOOKAHEAD:
        tok = p.t[k]
        if tok.kind == "sect" or p.head(k) is not None:
            return None
        law = law_at(p, k) if k > j or tok.kind == "word" else None
        if law is not None and law[3] != "own":
            end, cited, key, kind = law
            for r in refs:
                r.law_cited, r.law_key, r.law_kind, r.note = cited, key, kind, "law_after_break"
            return end, p.t[end - 1].end
        if tok.kind == "word" and len(tok.text) > 1 and tok.text[0].islower():
            return None  # running text ("§ 5 ist die ZPO"): the chain really ended
        if tok.text in (".", ";", ":") and k + 1 < p.n and p.t[k + 1].text[:1].isupper():
            return None  # a sentence ends
        k += 1
    return None
