"""``--level auto``: for each § hit, the shortest unit inside it that carries the hit (pure rule).

Why: a § is 162 words on average in the 58 codes, and a reader (or a model fed the hits) pays for
every word delivered. A search ranks §§ well (the predictor's labels and the gold of lay questions
are mostly §§), but the evidence often sits in one Absatz, Satz or Nummer. So an auto search ranks
at § level and then, per § hit, goes down the tree as far as the evidence is unambiguous:

1. **Named units first** (``pinned``): rankings of deeper ids, applied in order, each best first:
   the units the query cites itself (``nach § 573 Abs. 2 BGB``), then the predictor's own
   predictions at its deeper label levels (the case model: Absatz, Satz, Nummer). From the current
   unit, the best-ranked id of the next ranking that lies below it (and in the graph) is taken, so a
   chain § -> Abs. 2 -> Abs. 2 Satz 1 follows predictions that agree with each other.
2. **Then the words** (``descend``): the query's stemmed words that the unit's text holds
   (``legalkg.predict.text.tokens``, the predictor's analyser) are the match. The search goes into
   a child when exactly one child holds every matched word: that child carries the match and the
   rest of the parent is not needed. Where none does, the one child that holds the most matched
   words (at least ``MIN_MATCH``, strictly more than any sibling) carries it; where two children
   hold every matched word, or the most are tied, the match is spread and the unit stays. A match
   of fewer than ``MIN_MATCH`` distinct words is too weak to
   pick a sentence by (one shared word such as "Vermieter" occurs all over tenancy law), and a unit
   of ``MIN_WORDS`` words or fewer is not split by words (it reads at a glance); a § title is not
   text of any child, so title words do not count.
3. **No empty steps** (``collapse``): a unit with the same number of words as its parent (a §
   with a single Absatz, an Absatz of one Satz) gives the parent instead, the shorter citation.

A § without children, or without a matched word and a named unit, stays the §. Chunks are never
refined (they are windows, not tree units). The rule is chosen, not tuned; ``legalkg eval`` scores
it with raw recall, ToER, ToER^m and delivered words side by side.

``refine`` applies the rules to the § hits of any strategy, reading each hit's subtree from the graph
(``cypher/retrieve/subtree``); the engine calls it for every ``--level auto`` search, so the
evaluation scores the units ``legalkg search --level auto`` returns.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence, Set
from typing import NamedTuple

from ..graph.cypher import query
from ..model import law_of_id
from ..predict.text import tokens
from ..vocab import RetrievalLevel, Run, Task
from . import learned as lm
from .base import Engine
from .hits import Hit, from_record, hit_level

#: The level an auto search ranks at before each hit is refined.
BASE_LEVEL = RetrievalLevel.PARAGRAPH
#: A unit of at most this many words is not split by the word rule (about two sentences).
MIN_WORDS = 40
#: The word rule needs at least this many distinct query words in the unit.
MIN_MATCH = 2


class Unit(NamedTuple):
    """One node of a hit's subtree: its size, its stemmed words, its place in the tree."""

    words: int
    terms: frozenset[str]
    parent: str | None
    children: tuple[str, ...]


def query_terms(text: str) -> frozenset[str]:
    """The query's stemmed, stopword-free words (the same analyser as the units')."""
    return frozenset(tokens(text))


def build_tree(roots: Mapping[str, tuple[int, str]],
               rows: Iterable[tuple[str, str, int, str]]) -> dict[str, Unit]:
    """The subtrees of ``roots`` (id -> (words, text)) from ``rows`` (id, parent id, words, text),
    parents before children and siblings in document order, as ``cypher/retrieve/subtree`` gives."""
    parent_of: dict[str, str | None] = dict.fromkeys(roots)
    size: dict[str, int] = {uid: words for uid, (words, _) in roots.items()}
    terms: dict[str, frozenset[str]] = {uid: frozenset(tokens(text or "")) for uid, (_, text) in roots.items()}
    children: dict[str, list[str]] = {uid: [] for uid in roots}
    for uid, parent, words, text in rows:
        if uid in parent_of or parent not in parent_of:
            continue
        parent_of[uid] = parent
        size[uid] = int(words or 0)
        terms[uid] = frozenset(tokens(text or ""))
        children[uid] = []
        children[parent].append(uid)
    return {uid: Unit(size[uid], terms[uid], parent_of[uid], tuple(children[uid])) for uid in parent_of}


def below(uid: str, ancestor: str) -> bool:
    """Whether ``uid`` lies strictly inside ``ancestor`` (ids are paths: ``BGB/§551/Abs1``)."""
    return uid.startswith(ancestor + "/")


def follow_pins(root: str, tree: Mapping[str, Unit], pinned: Sequence[Sequence[str]]) -> str:
    """Rule 1: from ``root``, for each ranking in turn, the best id below the current unit."""
    node = root
    for ranking in pinned:
        for uid in ranking:
            if uid in tree and below(uid, node):
                node = uid
                break
    return node


def descend(start: str, tree: Mapping[str, Unit], words: Set[str], min_words: int = MIN_WORDS) -> str:
    """Rule 2: from ``start``, into the one child that holds every matched word, while there is one."""
    node = start
    matched = tree[node].terms & words
    if len(matched) < MIN_MATCH:
        return node
    while tree[node].words > min_words:
        carrying = [c for c in tree[node].children if matched <= tree[c].terms]
        if len(carrying) != 1:
            if carrying or not tree[node].children:
                break
            # no child holds every matched word: the one child that holds the most of them
            # (at least MIN_MATCH, strictly more than any sibling) carries the match
            counts = sorted(((len(matched & tree[c].terms), c) for c in tree[node].children), reverse=True)
            if counts[0][0] < MIN_MATCH or (len(counts) > 1 and counts[1][0] == counts[0][0]):
                break
            carrying = [counts[0][1]]
        node = carrying[0]
    return node


def collapse(uid: str, tree: Mapping[str, Unit], root: str) -> str:
    """Rule 3: the shallowest ancestor (up to ``root``) with the same number of words as ``uid``."""
    node = uid
    while node != root:
        parent = tree[node].parent
        if parent is None or tree[parent].words != tree[node].words:
            break
        node = parent
    return node


def carrier(root: str, tree: Mapping[str, Unit], words: Set[str],
            pinned: Sequence[Sequence[str]] = (), min_words: int = MIN_WORDS) -> str:
    """The shortest unit inside the hit ``root`` that carries it (the module docstring's rules);
    ``root`` itself where its subtree is not in ``tree``."""
    if root not in tree:
        return root
    node = follow_pins(root, tree, pinned)
    node = descend(node, tree, words, min_words)
    return collapse(node, tree, root)


def refine(engine: Engine, text: str, hits: Sequence[Hit], task: Task | None = None, law: str | None = None,
           learned: bool = True) -> list[Hit]:
    """For each § hit, best first, the shortest unit inside it that carries it (the rules above),
    keeping the hit's rank, score, ``via`` and ``components``; each hit's ``level`` names its
    unit's level. Chunk hits pass unchanged. ``learned``: also follow the predictor's own deeper
    predictions (the learned mode's)."""
    roots = {h.id: (h.words or 0, h.text or "") for h in hits if h.covers is None}
    recs = engine.graph.read(query("retrieve/subtree"), {"ids": list(roots)}) if roots else []
    tree = build_tree(roots, ((r["id"], r["parent"], r["words"], r["text"]) for r in recs))
    found = {r["id"]: r for r in recs}
    pinned = [lm.cited_ids(text, law, engine.models.law_registry)]
    if learned and roots:
        pinned.extend(deeper_predictions(engine, text, law, task))
    words = query_terms(text)
    out: list[Hit] = []
    for h in hits:
        uid = h.id if h.covers is not None else carrier(h.id, tree, words, pinned)
        hit = h if uid == h.id else from_record(found[uid], h.via, rank=h.rank).model_copy(
            update={"score": h.score, "components": h.components})
        out.append(hit.model_copy(update={"level": hit_level(hit)}))
    return out


def deeper_predictions(engine: Engine, text: str, law: str | None, task: Task | None) -> list[list[str]]:
    """The predictor's rankings at its label levels below §, shallow to deep (the case model:
    Absatz, Satz, Nummer; the lay model has none)."""
    task = lm.choose_task(text, task)
    if not engine.models.weights_for(task).get(Run.PREDICTOR):
        return []
    pred = engine.models.predictor(task)
    deeper = sorted((lv for lv in pred.levels if lm.depth(lv) > lm.depth(BASE_LEVEL)), key=lm.depth)
    return [[uid for uid, _ in pred.predict([text], lm.PREDICTOR_POOL, lv)[0]
             if law is None or law_of_id(uid) == law] for lv in deeper]
