"""The chain walker: from a head ('§', '§§', 'Art.') on, references joined by connectors until a
token ends the chain; law names name the references that wait for them.

Why a walk with a small state (``Walk``): what a bare value after a connector means ('§§ 3, 5': a
new §; 'Abs. 1 und 2': a sibling Absatz) depends on the head, the last reference and where a later
law name may reach back to. Each step reads one piece and says whether the chain goes on.
"""

from __future__ import annotations

from dataclasses import dataclass

from .lawname import LawHit, law_after_break, law_at, prefix_law
from .levels import expand_letters, parse_levels, parse_para
from .reader import Reader
from .refs import RANK, Chain, RawRef, add_alts, leading_int
from .tokens import is_roman


@dataclass
class Walk:
    """Where the reading of one chain stands: its references, the current one, the unit type of the
    last head and the boundaries that a law name read later does not reach back over."""

    unit: str
    multi: bool
    cur: RawRef
    refs: list[RawRef]
    j: int = 0
    chain_end: int = 0
    group_start: int = 0  # refs[group_start:] still wait for a law name
    law_found: bool = False
    ivm_boundary: int = 0
    unit_boundary: int = 0


def parse_chain(p: Reader, i: int) -> tuple[Chain, int] | None:
    """The chain whose head is at i, and the index after it."""
    head = p.head(i)
    if head is None:
        return None
    unit, multi, j = head
    chain_start = p.t[i].start
    cur, j = parse_para(p, unit, j, chain_start)
    w = Walk(unit=unit, multi=multi, cur=cur, refs=[cur])
    w.j = parse_levels(p, cur, j, allow_roman=True)
    w.chain_end = cur.end
    while w.j < p.n and step(p, w):
        pass
    chain_start = law_outside_chain(p, w, i, chain_start)
    return Chain(chain_start, w.chain_end, expand_letters(p, w.refs)), w.j


def step(p: Reader, w: Walk) -> bool:
    """Read the next piece of a chain at ``w.j``: a law name, a keyword or a connector and what
    follows it. False ends the chain."""
    law = law_at(p, w.j)
    if law is not None:
        went = on_law(p, w, law)
        if went is not None:
            return went
    # a bare keyword right after a value continues the current reference's sibling logic
    kw = p.keyword(w.j)
    if kw is not None:
        next_level(p, w, kw[0], w.j)
        return True
    con = p.connector(w.j)
    if con is None:
        return False
    return on_connector(p, w, *con)


def on_law(p: Reader, w: Walk, law: LawHit) -> bool | None:
    """A law name in the chain names the references that wait for it; the chain goes on after it
    only through a connector to a new head (None: read that head on) or, in a '§§' list, a number."""
    end, cited, key, kind = law
    # a genitive name ("des Bürgerlichen Gesetzbuchs") reaches back to the last
    # "in Verbindung mit"; any name stops where the unit type changed (§ ... Art ...)
    genitive = p.low(w.j) in p.lex.words("article") or kind == "own"
    first = max(w.group_start, w.unit_boundary, w.ivm_boundary if genitive else 0)
    for r in w.refs[first:]:
        r.law_cited, r.law_key, r.law_kind = cited, key, kind
    w.group_start = len(w.refs)
    w.law_found = True
    w.chain_end = p.t[end - 1].end
    w.j = end
    ver = p.version_at(w.j)
    if ver is not None:
        for r in w.refs:
            if r.law_cited == cited and r.version is None:
                r.version = ver[1]
        w.j = ver[0]
        w.chain_end = p.t[w.j - 1].end
    con = p.connector(w.j)
    if con is None:
        return False
    k = con[1]
    nxt_head = p.head(k)
    if nxt_head is None and not (w.multi and p.is_num(k)):
        return False
    w.j = k
    if nxt_head is None:
        next_para(p, w, w.unit, k, p.t[k].start)
        return True
    return None


def on_connector(p: Reader, w: Walk, kind: str, k: int) -> bool:
    """What follows a connector: a new head, a level keyword, a sibling value or a new §."""
    if k < p.n and p.low(k) in p.lex.words("article") and p.keyword(k + 1):
        k += 1  # "und des Absatzes 2"
    nxt_head = p.head(k)
    if nxt_head is not None:
        return on_new_head(p, w, kind, k, nxt_head)
    read = after_connector(p, w.cur, kind, k, w.multi)
    if read is not None:
        if read[0] is not w.cur:
            w.refs.append(read[0])
        w.cur, w.j = read
        w.chain_end = w.cur.end
        return True
    if kind == ";":
        return False
    kw = p.keyword(k)
    if kw is not None:
        cur = w.cur
        if kind == "," and cur.deepest is not None and RANK[kw[0]] > RANK[cur.deepest]:
            w.j = parse_levels(p, cur, k, allow_roman=False)  # "Nr. 1 , Buchst. a"
            w.chain_end = cur.end
        else:
            next_level(p, w, kw[0], k)
        return True
    return on_sibling(p, w, kind, k) or on_number(p, w, kind, k)


def on_new_head(p: Reader, w: Walk, kind: str, k: int, nxt_head: tuple[str, bool, int]) -> bool:
    """A connector before a new '§'/'Art.': a range of heads ends the chain; 'i. V. m.', ';' and a
    change of unit type set the boundaries a later law name does not reach back over."""
    if kind == "range":
        return False
    if kind == "ivm":
        w.ivm_boundary = len(w.refs)
    if kind == ";":
        w.group_start = len(w.refs)  # "(§ 361; § 69 der FGO)": the law after ';' does not reach back
    if nxt_head[0] != w.unit:
        w.unit_boundary = len(w.refs)
    w.unit, w.multi, nj = nxt_head
    next_para(p, w, w.unit, nj, p.t[k].start)
    return True


def on_sibling(p: Reader, w: Walk, kind: str, k: int) -> bool:
    """A bare value after a connector as a sibling of the deepest level ('Abs. 1 und 2',
    'Nr. 2 bis 4', 'Nr. 2a und b'); False when it is not one."""
    cur = w.cur
    deepest = cur.deepest
    if deepest is None:
        return False
    val = p.value(deepest, k)
    prev = cur.levels[deepest]
    if (val is None and deepest in ("nummer", "satz") and k < p.n
            and p.t[k].kind == "word" and len(p.t[k].text) == 1
            and p.t[k].text.islower() and prev[-1:].isalpha()):
        val = (p.t[k].text, k + 1)  # "Nr. 2a und b"
    if val is None or not sibling_ok(p, cur, deepest, val[0], w.multi, kind, val[1]):
        return False
    values = p.expand(prev, val[0]) if kind == "range" else [val[0]]
    if (deepest in ("nummer", "satz") and len(val[0]) == 1 and val[0].isalpha()
            and prev[:-1].isdigit()):
        values = [prev.rstrip("abcdefghijklmnopqrstuvwxyz") + val[0]]  # "Nr. 2a und b"
    for v in values:
        levels = cur.truncated_above(deepest)
        levels[deepest] = v
        new = RawRef(unit=cur.unit, para=cur.para, start=p.t[k].start,
                     end=p.t[val[1] - 1].end, levels=levels)
        w.refs.append(new)
    w.cur = w.refs[-1]
    w.j = parse_levels(p, w.cur, val[1], allow_roman=False)
    if len(values) == 1 and kind != "range":
        add_alts(w.cur, deepest)
    w.chain_end = w.cur.end
    return True


def sibling_ok(p: Reader, cur: RawRef, deepest: str, value: str, multi: bool, kind: str, after: int) -> bool:
    """After a connector, is a bare value a sibling of the deepest level (not a new §)?"""
    if kind == "ivm" or not multi or deepest in ("buchstabe", "doppelbuchstabe"):
        return True
    prev = leading_int(cur.levels[deepest])
    val = leading_int(value)
    if prev is None or val is None:
        return False
    nxt = p.keyword(after)
    if nxt is not None and RANK[nxt[0]] <= RANK[deepest]:
        return False  # "§§ 3 Abs. 1, 4 Abs. 2": the value opens a new §
    return 0 < val - prev <= 3 or (val == prev and value != cur.levels[deepest])


def on_number(p: Reader, w: Walk, kind: str, k: int) -> bool:
    """A number after a connector: the end of a '§§ 10 bis 12' range or a new § of the chain."""
    if not p.is_num(k):
        return False
    cur = w.cur
    if kind == "range":
        if cur.deepest is None and cur.para_to is None and cur.ff is None:
            cur.para_to = p.t[k].text
            cur.end = p.t[k].end
            w.chain_end = cur.end
            w.j = k + 1
            return True
        return False
    next_para(p, w, cur.unit or w.unit, k, p.t[k].start)
    return True


def next_para(p: Reader, w: Walk, unit: str, k: int, start: int) -> None:
    """A new § (or article) at token k joins the chain, read with its levels."""
    cur, j = parse_para(p, unit, k, start)
    w.refs.append(cur)
    w.cur = cur
    w.j = parse_levels(p, cur, j, allow_roman=True)
    w.chain_end = cur.end


def next_level(p: Reader, w: Walk, level: str, k: int) -> None:
    """A level keyword at token k opens a sibling of the current reference at that level."""
    cur = w.cur
    new = RawRef(unit=cur.unit, para=cur.para, start=p.t[k].start, end=cur.end,
                 levels=cur.truncated_above(level))
    w.refs.append(new)
    w.cur = new
    w.j = parse_levels(p, new, k, allow_roman=False)
    w.chain_end = new.end


def law_outside_chain(p: Reader, w: Walk, i: int, chain_start: int) -> int:
    """A chain without a law name of its own takes one written before its head ('BGB § 433') or,
    in court texts, just after the token it ended on; returns where the chain starts."""
    if w.law_found:
        return chain_start
    pre = prefix_law(p, i)
    if pre is not None:
        start_idx, cited, key = pre
        for r in w.refs:
            r.law_cited, r.law_key, r.law_kind = cited, key, "named"
        chain_start = p.t[start_idx].start
        w.refs[0].start = chain_start
    elif not p.relative:
        after = law_after_break(p, w.j, w.refs[w.group_start:])
        if after is not None:
            w.j, w.chain_end = after
    return chain_start


def after_connector(p: Reader, cur: RawRef, kind: str, k: int, multi: bool) -> tuple[RawRef, int] | None:
    """The readings after a connector that decide by what follows the value, before the plain
    sibling logic: '§§ 52 Abs. 1; 53' (a new § after ';'), '1. Halbsatz' (an ordinal part of the
    current unit), 'Art. 20 I, 21a I' (a value before a Roman Absatz is a new article) and
    'Abs. 1 S. 2, 3 S. 4' (a value before the deepest level's keyword is the level above it)."""
    if k >= p.n:
        return None
    deepest = cur.deepest
    ordv = p.ordinal(k)
    if ordv is not None and deepest is not None and RANK[ordv[0]] > RANK[deepest] and kind != ";":
        return cur, parse_levels(p, cur, k, allow_roman=False)
    if p.t[k].kind != "num" or kind == "range" or (kind == ";" and (not multi or p.is_dot(k + 1))):
        return None  # "§§ 90 und 90a Abs. 2; 4. Landesverrat": after ';' a "4." is a list item
    nxt = p.t[k + 1] if k + 1 < p.n else None
    new_para = kind == ";" or (nxt is not None and is_roman(nxt) and p.reg.match(p.t, k + 1) is None)
    kw = p.keyword(k + 1)
    if kw is not None and deepest is not None and not multi and kw[0] == deepest:
        above = [lv for lv in cur.levels if RANK[lv] < RANK[kw[0]]]
        if above:
            parent = max(above, key=RANK.__getitem__)
            levels = cur.truncated_above(parent)
            levels[parent] = p.t[k].text
            new = RawRef(unit=cur.unit, para=cur.para, start=p.t[k].start, end=p.t[k].end, levels=levels)
            return new, parse_levels(p, new, k + 1, allow_roman=False)
        new_para = True  # the deepest level's keyword again, with no level above it: a new §
    if new_para:
        new, j = parse_para(p, cur.unit or "§", k, p.t[k].start)
        return new, parse_levels(p, new, j, allow_roman=True)
    return None
