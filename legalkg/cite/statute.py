"""References written inside a statute -> ``CITES`` edges between graph nodes.

Why here and not in the parser: resolving "Absatz 2" or "§§ 10 bis 12" needs the citing unit's
position and the set of existing nodes (ranges include suffixed §§ such as 10a; "Nr. 1" hides its
Satz). The parser gives the tree; this module reads each unit's *own* text (text of the unit minus
what its child units hold), so a reference is counted once, at the most specific unit that holds it.

Rules (documented in docs/citations.md):
- "§ 12 f." = § 12 and the next § in document order; "§ 12 ff." = § 12 only (the extent is
  not determined by the text, so no edge is invented).
- "§§ 10 bis 12" = every § from 10 to 12 in document order of the cited law (10, 10a, 11, 12).
- a reference to a unit that does not exist falls back to its nearest existing ancestor
  (counted as ``fallback``), unless even the § is missing: then it is unresolved.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Container, Iterable
from dataclasses import dataclass, field, replace
from typing import Literal

from pydantic import BaseModel, Field

from ..model import TEXT_LEVELS, Citation, Law, Level, Unit, level_of_id
from .grammar import RANK, RawRef
from .registry import LawRegistry
from .resolve import para_variants, resolve_under
from .tokens import tokenize
from .unitscan import unit_chains

_ID_LEVELS = (("absatz", "Abs", Level.ABSATZ), ("satz", "S", Level.SATZ),
              ("nummer", "Nr", Level.NUMMER), ("buchstabe", "Bst", Level.BUCHSTABE),
              ("doppelbuchstabe", "DBst", Level.DOPPELBUCHSTABE))
#: the same, longest prefix first ("DBst" before "Bst"), as an id segment is matched against them
_ID_LEVELS_LONGEST_FIRST = tuple(sorted(_ID_LEVELS, key=lambda x: -len(x[1])))
_LEVEL_RANK = {Level.PARAGRAPH: 0, Level.ABSATZ: 1, Level.SATZ: 2, Level.NUMMER: 3,
               Level.BUCHSTABE: 4, Level.DOPPELBUCHSTABE: 5}
_RANGE_CAP = 200
#: levels whose text is a list item: a lead-in of their parent may name the law they cite
_LIST_LEVELS = frozenset({Level.NUMMER, Level.BUCHSTABE, Level.DOPPELBUCHSTABE})
#: Laws whose bare "§ n" means another law's § when they have no such § themselves: the EGBGB is
#: organised in Artikel and its text says "§ 1128" for the BGB's § 1128.
_COMPANION = {"EGBGB": "BGB"}


class Edge(BaseModel):
    source_id: str
    target_id: str
    kind: Literal["intra", "cross"]
    target_level: Level
    text: str = Field(description="the reference as written in the source unit")
    spans: list[tuple[int, int]] = Field(
        default_factory=list, description="(start, end) of each chain in the source unit's text that cites the "
                                          "target, as character offsets; the first is where ``text`` stands")


class EdgeStats(BaseModel):
    references: int = 0
    edges: int = 0
    by_kind: dict[str, int] = Field(default_factory=dict)
    by_level: dict[str, int] = Field(default_factory=dict)
    unresolved: dict[str, int] = Field(default_factory=dict)
    fallback_to_ancestor: int = 0
    self_references: int = 0
    duplicates: int = 0
    examples: dict[str, list[str]] = Field(default_factory=dict,
                                           description="up to 5 'source_id: text' per unresolved reason")

    def note(self, reason: str, source_id: str, text: str) -> None:
        self.unresolved[reason] = self.unresolved.get(reason, 0) + 1
        ex = self.examples.setdefault(reason, [])
        if len(ex) < 5:
            ex.append(f"{source_id}: {text}")

    def merge(self, other: EdgeStats) -> EdgeStats:
        out = self.model_copy(deep=True)
        out.references += other.references
        out.edges += other.edges
        out.fallback_to_ancestor += other.fallback_to_ancestor
        out.self_references += other.self_references
        out.duplicates += other.duplicates
        for name in ("by_kind", "by_level", "unresolved"):
            mine = getattr(out, name)
            for k, v in getattr(other, name).items():
                mine[k] = mine.get(k, 0) + v
        for k, v in other.examples.items():
            ex = out.examples.setdefault(k, [])
            ex.extend(v[: max(0, 5 - len(ex))])
        return out


def _ref_key(ref: RawRef, text: str) -> tuple:
    return (text, ref.unit, ref.para, ref.para_to, ref.ff,
            tuple(sorted(ref.levels.items())), ref.law_cited)


class _Context:
    """Where a unit sits: its para id prefix and its own Abs/S/Nr/Bst values."""

    def __init__(self, unit_id: str) -> None:
        segs = unit_id.split("/")
        self.law = segs[0]
        head: list[str] = [segs[0]]
        self.levels: dict[str, str] = {}
        self.ids: dict[str, str] = {}
        para_done = False
        for seg in segs[1:]:
            if seg.startswith("Gl"):
                head.append(seg)
                continue
            if seg.startswith(("§", "Art", "Anl")) and not self.levels:
                head.append(seg)
                para_done = True
                continue
            if not para_done:
                head.append(seg)
                continue
            for name, prefix, _ in _ID_LEVELS_LONGEST_FIRST:
                if seg.startswith(prefix) and name not in self.levels:
                    self.levels[name] = seg[len(prefix):]
                    break
        self.para_id = "/".join(h for h in head if not h.startswith("Gl")) if para_done else None


def _para_order(law: Law) -> list[str]:
    return [u.id for u in law.units if u.level == Level.PARAGRAPH]


class KnownUnits:
    """The unit ids citation targets resolve against, with what is derived from them built once:
    the laws in the graph and every law's § order. Derived per call, an ingest is quadratic
    (each of 6,821 laws walking a million ids); pass one ``KnownUnits`` to every call instead."""

    def __init__(self, ids: Iterable[str]) -> None:
        self.ids: set[str] | frozenset[str] = ids if isinstance(ids, (set, frozenset)) else set(ids)
        self.laws: set[str] = {i.partition("/")[0] for i in self.ids}
        self.para_index: dict[str, list[str]] = _para_index(self.ids)

    def __contains__(self, node_id: object) -> bool:
        return node_id in self.ids

    def __len__(self) -> int:
        return len(self.ids)


@dataclass
class _Scope:
    """What the references of one law resolve against: the law, the law names, the existing and the
    repealed unit ids and the § orders (of this law and of every law in the graph)."""

    law: Law
    registry: LawRegistry
    known_ids: Container[str]
    repealed_ids: Container[str]
    graph_laws: Container[str] | None
    order: list[str]
    order_index: dict[str, int]
    para_index: dict[str, list[str]]

    @classmethod
    def of(cls, law: Law, registry: LawRegistry, known_ids: Container[str],
           repealed_ids: Container[str]) -> _Scope:
        if not isinstance(known_ids, KnownUnits) and isinstance(known_ids, Iterable):
            known_ids = KnownUnits(known_ids)  # one law: derive the law set and § order here
        graph_laws: Container[str] | None = None
        para_index: dict[str, list[str]] = {}
        if isinstance(known_ids, KnownUnits):
            graph_laws, para_index, known_ids = known_ids.laws, known_ids.para_index, known_ids.ids
        order = _para_order(law)
        order_index = {pid: i for i, pid in enumerate(order)}
        return cls(law, registry, known_ids, repealed_ids, graph_laws, order, order_index, para_index)


@dataclass
class _Tally:
    """The edges found so far, the (source, target) pairs they join and their statistics."""

    stats: EdgeStats = field(default_factory=EdgeStats)
    edges: list[Edge] = field(default_factory=list)
    #: (source, target) -> its edge, which a later chain of the same unit citing the target adds its span to
    seen: dict[tuple[str, str], Edge] = field(default_factory=dict)
    #: every unresolved reference, where the caller asked for them (``legalkg references --broken``)
    broken: list[BrokenRef] | None = None


@dataclass(frozen=True)
class BrokenRef:
    """One reference that reaches no unit: the citing unit, the chain as written, why, and the unit
    the reference names (a human citation, or the repealed unit's id)."""

    source: str
    text: str
    status: str
    target: str
    #: the reference names its law ("§ 5 des BGB"); False: the citing law was taken (or it is relative)
    law_named: bool = False


#: per unit: (reference, its chain's text, its key, the chain's (start, end) in the unit's text)
_Found = list[tuple[RawRef, str, tuple, tuple[int, int]]]


def statute_edges(law: Law, registry: LawRegistry, known_ids: Container[str],
                  repealed_ids: Container[str] = frozenset(), broken: list[BrokenRef] | None = None
                  ) -> tuple[list[Edge], EdgeStats]:
    """All citation edges whose source is a unit of ``law``, and statistics about them.

    ``known_ids``: the existing unit ids (a set, or a :class:`KnownUnits` built once for many laws).
    ``broken``: a list that gets every reference that reaches no unit (:class:`BrokenRef`).
    """
    scope = _Scope.of(law, registry, known_ids, repealed_ids)
    units = [u for u in law.units if u.level in TEXT_LEVELS]
    children: dict[str, list[Unit]] = defaultdict(list)
    for u in units:
        children[u.parent_id].append(u)
    # a parent subtracts what its children hold
    found, counts = _own_references(units, registry)
    by_id = {u.id: u for u in units}
    tally = _Tally(broken=broken)
    lead_laws: dict[str, str | None] = {}
    for u in units:
        if not found[u.id]:
            continue  # most units cite nothing: no context to build
        below: Counter = Counter()
        for c in children.get(u.id, ()):
            if c.id in counts:
                below.update(counts[c.id])
        _unit_edges(u, own_refs(found[u.id], below, child_regions(u, children.get(u.id, ()))),
                    scope, by_id, lead_laws, tally)
    return tally.edges, tally.stats


def _own_references(units: list[Unit], registry: LawRegistry) -> tuple[dict[str, _Found], dict[str, Counter]]:
    """Every unit's references with their chain's text and key, and per citing unit the count of
    each key (what a parent's text repeats of its children's)."""
    found: dict[str, _Found] = {}
    counts: dict[str, Counter] = {}
    chains_of = unit_chains(units, registry)  # each text tokenized once, not once per level
    for u in units:
        if not u.text or u.repealed:
            found[u.id] = []
            continue
        refs: _Found = []
        for chain in chains_of[u.id]:
            chain_text = u.text[chain.start:chain.end]
            for ref in chain.refs:
                refs.append((ref, chain_text, _ref_key(ref, chain_text), (chain.start, chain.end)))
        found[u.id] = refs
        if refs:
            counts[u.id] = Counter(key for _, _, key, _ in refs)
    return found, counts


def child_regions(u: Unit, children: Iterable[Unit]) -> list[tuple[int, int]]:
    """Where the children's texts stand in ``u``'s text, found in order (a child not found is left out)."""
    regions, at = [], 0
    for c in children:
        pos = u.text.find(c.text, at) if c.text and u.text else -1
        if pos >= 0:
            regions.append((pos, pos + len(c.text)))
            at = pos + len(c.text)
    return regions


def own_refs(refs: _Found, below: Counter, regions: list[tuple[int, int]]) -> _Found:
    """The references of a unit's text less those its children hold (``below``: their keys counted).
    A key held by a child is taken off where it stands inside a child's text first, so the span kept
    is the one in the unit's own words (a lead-in and its list may cite the same §)."""
    below = Counter(below)
    inside = [any(a <= span[0] and span[1] <= b for a, b in regions) for _, _, _, span in refs]
    drop = [False] * len(refs)
    for first_pass in (True, False):
        for i, (_, _, key, _) in enumerate(refs):
            if not drop[i] and below[key] > 0 and (inside[i] or not first_pass):
                below[key] -= 1
                drop[i] = True
    return [r for r, d in zip(refs, drop, strict=True) if not d]


def _unit_edges(u: Unit, refs: _Found, scope: _Scope, by_id: dict[str, Unit],
                lead_laws: dict[str, str | None], tally: _Tally) -> None:
    """The edges of the references in one unit's own text (``own_refs``: those its children do not hold)."""
    ctx: _Context | None = None  # built at the first reference a child does not hold
    list_law = None
    for ref, text, _, span in refs:
        if ctx is None:
            ctx = _Context(u.id)
            if u.level in _LIST_LEVELS:  # siblings share their lead-in: read it once
                if u.parent_id not in lead_laws:
                    lead_laws[u.parent_id] = _list_law(u, by_id, scope.registry)
                list_law = lead_laws[u.parent_id]
        if list_law is not None and ref.unit is not None and ref.law_kind is None:
            ref = replace(ref, law_key=list_law, law_kind="named")
        tally.stats.references += 1
        targets, reason = _targets(ref, ctx, scope)
        if ref.para_to is not None and len(targets) > 1:
            kept = [t for t in targets if t[0] not in scope.repealed_ids]
            if len(kept) < len(targets):
                tally.stats.unresolved["repealed_in_range"] = (
                    tally.stats.unresolved.get("repealed_in_range", 0) + len(targets) - len(kept))
            targets = kept  # "§§ 506 bis 513" spans the repealed § 509: no reference to it
        if reason is not None:
            tally.stats.note(reason, u.id, text)
            if tally.broken is not None:
                tally.broken.append(BrokenRef(u.id, text, reason, _named(ref, ctx, scope), ref.law_kind == "named"))
            continue
        _add_edges(u.id, targets, text, scope, tally, ref.law_kind == "named", where=span)


def _add_edges(source: str, targets: list[tuple[str, int]], span: str, scope: _Scope, tally: _Tally,
               law_named: bool = False, where: tuple[int, int] | None = None) -> None:
    """One reference's resolved targets as edges, less repealed targets, self references and duplicates
    (whose chain's offsets ``where`` join the first edge's ``spans``)."""
    stats = tally.stats
    for target, wanted_rank in targets:
        if target in scope.repealed_ids:
            stats.note("repealed", source, span)
            if tally.broken is not None:
                tally.broken.append(BrokenRef(source, span, "repealed", target, law_named))
            continue
        if target == source or source.startswith(target + "/"):
            stats.self_references += 1
            continue
        level = level_of_id(target)
        if _LEVEL_RANK.get(level, 0) < wanted_rank:
            stats.fallback_to_ancestor += 1
        first = tally.seen.get((source, target))
        if first is not None:
            stats.duplicates += 1
            if where is not None and where not in first.spans:
                first.spans.append(where)
            continue
        kind = "intra" if target.split("/")[0] == scope.law.key else "cross"
        edge = Edge(source_id=source, target_id=target, kind=kind, target_level=level, text=span,
                    spans=[where] if where is not None else [])
        tally.seen[(source, target)] = edge
        tally.edges.append(edge)
        stats.edges += 1
        stats.by_kind[kind] = stats.by_kind.get(kind, 0) + 1
        stats.by_level[level.value] = stats.by_level.get(level.value, 0) + 1


def _named(ref: RawRef, ctx: _Context, scope: _Scope) -> str:
    """The unit a reference names, as a citation: '§ 5a Abs. 2 BGB'; a relative one below its §."""
    levels = {k: v for k, v in ref.levels.items() if k in ("absatz", "satz", "nummer", "buchstabe", "doppelbuchstabe")
              and not v.startswith("<")}
    if ref.unit is None:
        return Citation(law=ctx.law, para=(ctx.para_id or "").rsplit("/", 1)[-1] or None, **levels).human()
    law = ref.law_key if ref.law_kind == "named" else (ref.law_cited if ref.law_kind == "unknown" else scope.law.key)
    para = f"{'§' if ref.unit == '§' else 'Art'}{ref.para}"
    return Citation(law=law or "?", para=para, **levels).human()


def _list_law(unit: Unit, by_id: dict[str, Unit], registry: LawRegistry) -> str | None:
    """The law a list's lead-in names for its items: StPO § 100a Abs. 2 Nr. 1 "aus dem
    Strafgesetzbuch:" makes "§§ 146 und 151" in its Buchstabe e) StGB sections."""
    if unit.level not in _LIST_LEVELS:
        return None
    parent = by_id.get(unit.parent_id)
    hops = 0
    while parent is not None and hops < 3:
        lead, colon, _ = parent.text.partition(":")
        if colon and len(lead) < 400:
            toks = [t for t in tokenize(lead) if t.text != "."]
            for back in range(min(6, len(toks)), 0, -1):
                hit = registry.match(toks, len(toks) - back)
                if hit is not None and hit[0] == len(toks) and toks[len(toks) - back - 1].low in (
                        "dem", "des", "der", "den"):
                    return hit[1]
        parent = by_id.get(parent.parent_id)
        hops += 1
    return None


def _natural(label: str) -> tuple:
    digits = "".join(ch for ch in label if ch.isdigit())
    return (int(digits) if digits and len(digits) < 9 else 0, label)


def _para_index(known_ids: Iterable[str]) -> dict[str, list[str]]:
    """law key -> its para labels ('§10', '§10a', ...) in natural order (for cross-law ranges)."""
    out: dict[str, list[str]] = defaultdict(list)
    for node_id in known_ids:
        law, _, rest = node_id.partition("/")
        if rest and "/" not in rest and rest.startswith(("§", "Art")):
            out[law].append(rest)
    for law in out:
        out[law].sort(key=lambda p: (p[:1], _natural(p)))
    return out


def _wanted_rank(levels: dict[str, str]) -> int:
    rank = 0
    for name, _, level in _ID_LEVELS:
        if name in levels:
            rank = _LEVEL_RANK[level]
    return rank


def _targets(ref: RawRef, ctx: _Context, scope: _Scope) -> tuple[list[tuple[str, int]], str | None]:
    """Resolved target ids (with the rank the reference asked for) or an unresolved reason."""
    id_levels = {k: v for k, v in ref.levels.items() if k in dict((n, 1) for n, _, _ in _ID_LEVELS)}
    wanted = _wanted_rank(id_levels)
    if ref.unit is None:
        return _relative_targets(ref, ctx, scope.law, scope.known_ids, wanted)
    key, reason = _target_law(ref, scope)
    if key is None:
        return [], reason
    prefix = "§" if ref.unit == "§" else "Art"
    paras = _expand(ref, key, prefix, scope)
    own_art = ctx.para_id.rsplit("/", 1)[-1] if ctx.para_id else ""
    if ref.law_kind is None and prefix == "§" and own_art.startswith("Art") and "§" in own_art:
        # "§ 5" inside EGBGB Art. 229 § 6 means Art. 229 § 5
        art = own_art.split("§", 1)[0]
        out = _resolve_paras(key, [art + para for para in paras], id_levels, scope.known_ids, wanted)
        if out:
            return out, None
    out = _resolve_paras(key, paras, id_levels, scope.known_ids, wanted)
    if not out and ref.law_kind is None and key in _COMPANION and prefix == "§":
        out = _resolve_paras(_COMPANION[key], paras, id_levels, scope.known_ids, wanted)
    if not out:
        if ref.law_kind is None and not any(p.rsplit("/", 1)[-1].startswith(prefix) for p in scope.order):
            return [], "law_not_read"  # "Artikel 247 § 12 ... des EGBGB" in the BGB: its law was not read
        if prefix == "Art" and any(p.startswith(f"Art{ref.para}§") for p in scope.para_index.get(key, ())):
            return [], "article_of_sections"  # "Artikel 249 EGBGB": an Artikel made of §§, no unit of its own
        return [], "missing_unit"
    return out, None


def _target_law(ref: RawRef, scope: _Scope) -> tuple[str | None, str | None]:
    """The key of the law a reference cites, or None and why it cannot be resolved."""
    if ref.law_kind == "unknown":
        return None, "unknown_law"
    key = ref.law_key if ref.law_kind == "named" else scope.law.key
    if key is None:
        return None, "unknown_law"
    if scope.graph_laws is not None and key not in scope.graph_laws:
        return None, "law_not_in_graph"
    return key, None


def _resolve_paras(key: str, paras: list[str], id_levels: dict[str, str], known_ids: Container[str],
                   wanted: int) -> list[tuple[str, int]]:
    """The existing units the paras of law ``key`` (with the reference's levels) resolve to."""
    out: list[tuple[str, int]] = []
    for para in paras:
        c = Citation(law=key, para=para, **{k: v for k, v in id_levels.items()})
        target = resolve_under(para_variants(key, para), c, known_ids)
        if target is not None:
            out.append((target, wanted))
    return out


def _expand(ref: RawRef, key: str, prefix: str, scope: _Scope) -> list[str]:
    """Para labels ('§10', '§10a') a reference covers; see the module rules for f./ff./bis."""
    law, order, order_index, para_index = scope.law, scope.order, scope.order_index, scope.para_index
    first = f"{prefix}{ref.para}"
    if ref.para_to is None and ref.ff != "f":
        return [first]
    if key == law.key and f"{key}/{first}" in order_index:
        i = order_index[f"{key}/{first}"]
        if ref.ff == "f":
            nxt = order[i + 1: i + 2]
            return [first] + [p.split("/")[-1] for p in nxt]
        last = f"{key}/{prefix}{ref.para_to}"
        if last in order_index and order_index[last] >= i:
            return [p.split("/")[-1] for p in order[i: order_index[last] + 1]][:_RANGE_CAP]
    a, b = ref.para or "", ref.para_to or ""
    others = para_index.get(key)
    if others:
        ids = [p for p in others if p.startswith(prefix)]
        if first in ids:
            i = ids.index(first)
            if ref.ff == "f":
                return ids[i: i + 2]
            last = f"{prefix}{b}"
            if last in ids and ids.index(last) >= i:
                return ids[i: ids.index(last) + 1][:_RANGE_CAP]
    if ref.ff == "f" and a.isdigit():
        return [first, f"{prefix}{int(a) + 1}"]
    if a.isdigit() and b.isdigit() and 0 <= int(b) - int(a) <= _RANGE_CAP:
        return [f"{prefix}{v}" for v in range(int(a), int(b) + 1)]
    return [first] + ([f"{prefix}{b}"] if b else [])


def _relative_targets(ref: RawRef, ctx: _Context, law: Law, known_ids: Container[str],
                      wanted: int) -> tuple[list[tuple[str, int]], str | None]:
    if ctx.para_id is None:
        return [], "relative_no_context"
    levels = {k: v for k, v in ref.levels.items() if k in ("absatz", "satz", "nummer", "buchstabe",
                                                            "doppelbuchstabe")}
    if not levels:
        return [], "relative_no_context"
    top = min(levels, key=lambda k: RANK[k])
    direction = levels[top] if levels[top].startswith("<") else None
    if direction is not None:
        cur = ctx.levels.get(top)
        if cur is None or not cur.isdigit():
            return [], "relative_no_context"
        value = int(cur) - 1 if direction == "<prev>" else int(cur) + 1
        if value < 1:
            return [], "relative_no_context"
        levels[top] = str(value)
    inherited = {k: v for k, v in ctx.levels.items() if RANK[k] < RANK[top]}
    tries = [{**inherited, **levels}]
    if top == "nummer" and "satz" in inherited:
        tries.append({k: v for k, v in {**inherited, **levels}.items() if k != "satz"})
    head = [ctx.para_id]
    for n, fields in enumerate(tries):
        c = Citation(law=ctx.law, para="x", **fields)
        target = resolve_under(head, c, known_ids)
        if target is None:
            continue
        exact = _LEVEL_RANK.get(level_of_id(target), 0) >= wanted
        if not exact and n < len(tries) - 1:
            continue  # try the next reading before falling back to an ancestor
        if target == ctx.para_id and wanted > 0:
            return [], "missing_unit"  # only the own § is left: the relative target is missing
        return [(target, wanted)], None
    return [], "missing_unit"
