"""One-hop expansion of seeds: their parent (``parent``), the units they cite (``citation``), both
(``hybrid``), the § most often cited together with theirs (``cocited``), or the § that the court
decisions citing theirs cite most (``decisions``).

One batched mechanism for every caller: ``contexts`` reads one hop's context of many seeds
(``cypher/retrieve/expand_<hop>``, ``ID_BATCH`` seed ids per round trip),
and ``assemble`` turns the contexts into one query's expansion: hop by hop (parent first), seed by
seed in rank order, each unit once and never a seed again, named after the first seed that reached
it. ``legalkg search`` expands its seeds with them, and ``legalkg eval`` reads each distinct seed's
context once for all its cells.

The ``cocited`` hop comes from cases, not from the statute text: for each seed, the ``COCITED_PER_SEED``
§§ with the highest npmi to the seed's § (``legalkg.predict.cocite``) in the co-citation table of the
query task's predictor (``Engine.models.cocitation``: its own training cases, so a CV fold's engine expands
with its fold's table); the graph gives their texts. A seed below the § stands for its §.

The ``decisions`` hop comes from the court decisions in the graph (``legalkg ingest-cases``): for each
seed, the ``DECISIONS_PER_SEED`` §§ that the most decisions citing the seed's § (the § or a unit in
it) also cite. It reads the graph; an evaluation passes the decisions it scores as ``exclude`` (under
``--cv`` those of the fold being scored), so no case is expanded with its own citations.

``one_trip`` gives the same result for one search in one round trip instead of two or three: the
seeds and their hops in one statement (``cypher/retrieve/vector_expand`` / ``fulltext_expand``, as
neo4j-graphrag's VectorCypherRetriever runs its retrieval query). A strategy whose seeds are one
index look-up offers it (``Strategy.seeds_with_hops``). Chunks are no tree nodes: they are never
expanded.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence

from ..fusion import overfetch
from ..graph.cypher import query
from ..predict.labels import paragraph_of
from ..vocab import Expansion, Mode, Task
from .base import Engine
from .hits import Hit, from_record, ranked

#: Seed ids per round trip.
ID_BATCH = 2000
#: The hop -> its Cypher file.
HOP_QUERIES: dict[Expansion, str] = {Expansion.PARENT: "retrieve/expand_parent",
                                     Expansion.CITATION: "retrieve/expand_citation",
                                     Expansion.COCITED: "retrieve/expand_cocited",
                                     Expansion.DECISIONS: "retrieve/expand_decisions"}
#: Co-cited §§ per seed: one, as in the ranker benchmark that measured the hop first
#: (eval/ranker/README.md); the comparison with the other hops is in eval/expand/.
COCITED_PER_SEED = 1
#: §§ per seed that the decisions citing the seed's § cite most often: one, as ``COCITED_PER_SEED``
#: (not tuned; the comparison with the other hops is in eval/expand-decisions/).
DECISIONS_PER_SEED = 1
#: Context: hop -> seed id -> the units that hop reaches from it.
Context = Mapping[Expansion, Mapping[str, Sequence[Hit]]]


def hops(how: Expansion) -> tuple[Expansion, ...]:
    """The hops of an expansion, parent first."""
    return tuple(h for h, on in ((Expansion.PARENT, how.parent), (Expansion.CITATION, how.citation),
                                 (Expansion.COCITED, how.cocited), (Expansion.DECISIONS, how.decisions)) if on)


def cocited_pairs(table, seed_ids: Sequence[str], per_seed: int = COCITED_PER_SEED) -> list[dict]:
    """``{seed, id}`` rows: each seed's ``per_seed`` strongest co-cited §§ in ``table`` (a
    ``CoCitation``, or None: no rows), strongest first, never the seed's own §."""
    rows: list[dict] = []
    for seed in seed_ids:
        para = paragraph_of(seed)
        if table is None or para is None:
            continue
        rows += [{"seed": seed, "id": uid} for uid, _, _ in table.neighbours(para, per_seed)]
    return rows


def hop_params(engine: Engine, seed_ids: Sequence[str], hop: Expansion, task: Task | None,
               exclude: Sequence[str] = ()) -> dict:
    """The parameters of ``hop``'s statement for ``seed_ids`` (``exclude``: decision ids the
    ``decisions`` hop must not read)."""
    if hop is Expansion.COCITED:
        return {"pairs": cocited_pairs(engine.models.cocitation(task), seed_ids)}
    if hop is Expansion.DECISIONS:
        rows = [{"seed": seed, "para": paragraph_of(seed)} for seed in seed_ids]
        return {"seeds": [r for r in rows if r["para"]], "per_seed": DECISIONS_PER_SEED, "exclude": list(exclude)}
    return {"ids": list(seed_ids)}


def contexts(engine: Engine, seed_ids: Sequence[str], hop: Expansion, task: Task | None = None,
             exclude: Sequence[str] = ()) -> dict[str, list[Hit]]:
    """seed id -> the units one ``hop`` reaches from it, for every distinct seed id (``task``: whose
    co-citation table the ``cocited`` hop reads; ``exclude``: the decisions the ``decisions`` hop
    skips, an evaluation's own cases)."""
    out: dict[str, list[Hit]] = defaultdict(list)
    ids = list(dict.fromkeys(seed_ids))
    for start in range(0, len(ids), ID_BATCH):
        part = ids[start:start + ID_BATCH]
        params = hop_params(engine, part, hop, task, exclude)
        for r in engine.graph.read(query(HOP_QUERIES[hop]), params):
            out[r["seed"]].append(from_record(r, hop, seed=r["seed"]))
    return dict(out)


def assemble(seeds: Sequence[Hit], context: Context, how: Expansion) -> list[Hit]:
    """One query's expansion from the hops' contexts (module docstring: the order and the rule)."""
    seen = {h.id for h in seeds}
    out: list[Hit] = []
    for hop in hops(how):
        per_seed = context.get(hop, {})
        for seed in seeds:
            if seed.covers:
                continue
            for h in per_seed.get(seed.id, ()):
                if h.id not in seen:
                    seen.add(h.id)
                    out.append(h)
    return out


def expand(engine: Engine, seeds: Mapping[str, Sequence[Hit]], how: Expansion,
           task: Task | None = None) -> dict[str, list[Hit]]:
    """query id -> the expansion of its seeds (one batch of look-ups for all queries); ``task``
    names the co-citation table of ``cocited``."""
    ids = [h.id for hits in seeds.values() for h in hits if not h.covers]
    context = {hop: contexts(engine, ids, hop, task) for hop in hops(how)} if ids else {}
    return {q: assemble(hits, context, how) for q, hits in seeds.items()}


def trip_params(k: int, how: Expansion) -> dict:
    """The parameters every one-trip statement takes: ``k``, the over-fetch, and which hops."""
    return {"k": k, "fetch": overfetch(k), "parent": how.parent, "citation": how.citation}


def one_trip(engine: Engine, statement: str, params: dict, via: Mode, how: Expansion) -> tuple[list[Hit], list[Hit]]:
    """Seeds and their expansion from one statement (``cypher/<statement>``) that returns each seed
    with its ``parents`` and ``cited`` units: the same hits as the strategy's ``seeds`` and
    ``expand``, assembled by the one rule (``assemble``). The strategies that can call it say so in
    ``Strategy.seeds_with_hops``."""
    recs = engine.graph.read(query(statement), params)
    seeds = ranked(recs, via)
    context = {hop: {r["id"]: [from_record(m, hop, seed=r["id"]) for m in r[key]] for r in recs}
               for hop, key in ((Expansion.PARENT, "parents"), (Expansion.CITATION, "cited"))}
    return seeds, assemble(seeds, context, how)
