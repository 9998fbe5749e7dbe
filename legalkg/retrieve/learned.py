"""The learned mode's pure core: which predictor task, which runs, how ids map to the level asked.

The learned mode (``Mode.LEARNED``) is one strategy over the graph (``LearnedStrategy``, at the end
of this module, reads the graph through its ``Retriever``); the rules it applies to what it reads
are the pure functions above it, so each rule is tested on hand-made cases:

* **Runs.** Four rankings of unit ids at the level asked: ``predictor`` (``legalkg.predict``, the
  units that similar questions or decisions cite), ``fulltext`` and ``vector`` (the level's
  indexes; vector only where the index holds vectors) and ``cited`` (the units the query names
  itself, found by ``legalkg.cite``). They are fused by ``legalkg.fusion.weighted_rrf``.
* **Weights** (``WEIGHTS``): the predictor and the query's own citations count 1, full-text and
  vector 0.5 each. Chosen, not tuned: the predictor is the strongest single run
  (eval/predictor/README.md), and the two index runs together weigh as much as it does.
  ``parse_weights`` reads an override (``legalkg eval --weights fulltext=0,vector=0``), so each run
  can be switched off for the ablation (eval/learned-ablation/); a weight of 0 drops the run.
  ``choose_weights`` picks the index runs' weights from ``GRID`` by the recall@k they give on
  cases the predictor was not trained on; ``legalkg eval --tune-weights`` calls it inside each
  outer CV fold on that fold's training cases only (nested CV, ``legalkg.eval.folds``).
  ``WEIGHTS`` is the fallback: ``legalkg search`` uses a task's tuned weights where
  ``legalkg/data/fusion-weights.json`` has them (``legalkg.retrieve.weights``).
* **Task.** ``lay`` (a question in everyday words) or ``case`` (decision text): the caller's
  choice, else ``choose_task`` by length: GerLayQA's questions have at most 494 words (99 % under
  462), LER queries are windows of up to 512, so ``CASE_WORDS`` = 480 words or more means case.
* **Levels.** The predictor predicts § ids, and deeper ids where its training gold is deeper (the
  case model: Absatz, Satz, Nummer). At a level it has labels for, its own predictions of that
  level are the run. At a deeper level, each predicted unit of its deepest level above stands for
  its descendants at the level asked, ranked within the unit by the index runs (descendants the
  index runs did not find follow in document order): a predicted § 551 at Absatz level becomes
  § 551 Abs. 1-4, the Absatz the text search found first leading. Citations in the query map the
  same way, and a citation deeper than the level is cut to its ancestor at the level. Chunks get
  no predictor or citation run (a chunk is not a statute unit).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future
from contextlib import contextmanager
from contextvars import ContextVar
from itertools import product

import numpy as np

from .. import cite
from ..fusion import overfetch, parse_weight_spec, rrf, weighted_rrf
from ..graph.cypher import query
from ..model import TEXT_LEVELS, Level, law_of_id, level_of_id
from ..predict.ranker import FOUND, RANKED
from ..vocab import Expansion, Mode, RetrievalLevel, Run, Task
from .base import Engine, Texts, Vectors
from .fulltext import FulltextStrategy
from .hits import Hit, from_record
from .vector import VectorStrategy

#: Weighted-RRF weight of each run (module docstring: chosen, not tuned).
WEIGHTS: dict[str, float] = {Run.PREDICTOR: 1.0, Run.CITED: 1.0, Run.FULLTEXT: 0.5, Run.VECTOR: 0.5}
RUNS: tuple[str, ...] = tuple(WEIGHTS)
#: Weights tried for each tuned run (``choose_weights``).
GRID: tuple[float, ...] = (0.0, 0.25, 0.5)
#: The runs whose weights are tuned: the predictor and the query's own citations stay at 1.
TUNED: tuple[str, ...] = (Run.FULLTEXT, Run.VECTOR)
#: The runs read from the level's indexes (the only ones at chunk level).
INDEX_RUNS: tuple[str, ...] = (Run.FULLTEXT, Run.VECTOR)
#: A query of at least this many words is read as decision text (task ``case``).
CASE_WORDS = 480
#: Ranker features shown per hit by ``--explain`` (those with the largest contributions).
RANKER_SHOWN = 3
#: Predictions asked of the predictor per query (deeper than k: fusion needs agreement to show).
PREDICTOR_POOL = 100
#: The predictor's rows kept inside ``keeping_predictions`` (None outside it).
_KEPT: ContextVar[dict | None] = ContextVar("legalkg_predicted_kept", default=None)
#: Whether the ranker's feature contributions are computed (inside ``explaining``).
_EXPLAIN: ContextVar[bool] = ContextVar("legalkg_ranker_explain", default=False)


@contextmanager
def keeping_predictions() -> Iterator[None]:
    """Inside the block, the predictor's rows of one text are computed once per model and level:
    a context pack ranks its query at three levels, and the predictor's § ranking (with the ranker's
    LightGBM pass) is the same each time. Scoped to the block (one request), not kept across
    requests, so a repeated question costs what a new one costs."""
    token = _KEPT.set({})
    try:
        yield
    finally:
        _KEPT.reset(token)


@contextmanager
def explaining(on: bool = True) -> Iterator[None]:
    """Inside the block (with ``on``), ranked hits carry the ranker's feature contributions
    (``Hit.ranker``). Why a scope and not a default: LightGBM's contributions cost about as much as
    the rest of the ranker, and only a reader of ``--explain`` looks at them; evaluations and
    searches that do not ask skip them. Set by ``Retriever.search`` from ``SearchRequest.explain``."""
    token = _EXPLAIN.set(on)
    try:
        yield
    finally:
        _EXPLAIN.reset(token)


_DEPTH = {lv: i for i, lv in enumerate(TEXT_LEVELS)}


def parse_weights(spec: str | None, base: Mapping[str, float] | None = None) -> dict[str, float]:
    """``base`` (default ``WEIGHTS``) with the runs named in ``spec`` ("fulltext=0,vector=0.25")
    set to the values given; one line for an unknown run, a bad number or every run at 0."""
    return parse_weight_spec(spec, WEIGHTS if base is None else base, RUNS, "run", "fulltext=0,vector=0.25",
                             "--weights")


def weights_label(weights: Mapping[str, float]) -> str:
    """``predictor=1,cited=1,fulltext=0.5,vector=0.5``: the weights as ``--weights`` reads them."""
    return ",".join(f"{name}={weights.get(name, 0.0):g}" for name in RUNS)


def weight_grid(base: Mapping[str, float] | None = None, runs: Sequence[str] = TUNED,
                values: Sequence[float] = GRID) -> list[dict[str, float]]:
    """``base`` (default ``WEIGHTS``) with every combination of ``values`` for ``runs``, in grid order."""
    start = dict(WEIGHTS if base is None else base)
    return [{**start, **dict(zip(runs, combo))} for combo in product(values, repeat=len(runs))]


def gold_at(labels: Iterable[str], level: RetrievalLevel | str) -> set[str]:
    """The gold units of a case at ``level``: its labels at that depth or deeper, cut to it."""
    want = depth(level)
    out = {ancestor_at(u, level) for u in labels if depth(level_of_id(u)) >= want}
    return {u for u in out if u is not None}


def recall_at(ranked: Sequence[str], gold: set[str], k: int) -> float:
    return len(gold.intersection(ranked[:k])) / len(gold) if gold else 0.0


def choose_weights(cases: Sequence[tuple[Mapping[str, Sequence[str]], set[str]]], k: int,
                   grid: Sequence[Mapping[str, float]]) -> tuple[dict[str, float], float]:
    """The weights of ``grid`` with the highest mean recall@k over ``cases`` (each: the runs'
    rankings and the gold ids at their level; cases without gold are left out), and that mean.
    Ties go to the earlier grid entry, so the choice is deterministic."""
    scored = [(runs, gold) for runs, gold in cases if gold]
    best: tuple[dict[str, float], float] | None = None
    for weights in grid:
        total = sum(recall_at([u for u, _, _ in weighted_rrf(runs, weights, k)], gold, k) for runs, gold in scored)
        mean = total / len(scored) if scored else 0.0
        if best is None or mean > best[1] + 1e-12:
            best = (dict(weights), mean)
    if best is None:
        raise ValueError("an empty weight grid")
    return best


def run_weights(weights: Mapping[str, float], level: RetrievalLevel | str) -> dict[str, float]:
    """The weights a search at ``level`` fuses with. At chunk level only the index runs exist (a
    chunk is not a statute unit), so where the task's weights switch both off (the shipped ``case``
    entry), they count with ``WEIGHTS``' values instead of leaving every chunk search empty."""
    out = dict(weights)
    if str(level) == RetrievalLevel.CHUNK.value and not any(out.get(r, 0.0) > 0 for r in INDEX_RUNS):
        out.update({r: WEIGHTS[r] for r in INDEX_RUNS})
    return out


def with_index_runs(weights: Mapping[str, float]) -> dict[str, float]:
    """``weights`` with every index run it switches off at ``WEIGHTS``' value: the fallback of a
    search whose weighted runs found fewer than k units (``LearnedStrategy.hits``)."""
    return {**weights, **{r: WEIGHTS[r] for r in INDEX_RUNS if weights.get(r, 0.0) <= 0}}


def choose_task(text: str, task: Task | None = None) -> Task:
    """``task`` if given, else ``case`` for decision-length text and ``lay`` for a question."""
    if task is not None:
        return Task(task)
    return Task.CASE if len(text.split()) >= CASE_WORDS else Task.LAY


def depth(level: Level | RetrievalLevel | str) -> int:
    """Position of a statute level in the hierarchy (Paragraph 0 ... Doppelbuchstabe 5)."""
    return _DEPTH[Level(level)]


def ancestor_at(uid: str, level: RetrievalLevel | str) -> str | None:
    """The id of ``uid``'s ancestor (or itself) at ``level``; None where the id skips that level
    (``BGB/§437/S1`` has no Absatz)."""
    parts = uid.split("/")
    target = Level(level)
    for end in range(len(parts), 1, -1):
        prefix = "/".join(parts[:end])
        try:
            if level_of_id(prefix) == target:
                return prefix
        except ValueError:
            return None
    return None


def source_level(levels: Iterable[str], level: RetrievalLevel | str) -> str | None:
    """The predictor level whose predictions feed ``level``: ``level`` itself if the model has
    labels there, else its deepest label level above; None if none is (or for chunks)."""
    if str(level) == RetrievalLevel.CHUNK.value:
        return None
    want = depth(level)
    above = [lv for lv in levels if depth(lv) <= want]
    return max(above, key=depth) if above else None


def to_level(ids: Sequence[str], level: RetrievalLevel | str, children: Mapping[str, Sequence[str]],
             order: Mapping[str, int] | None = None) -> list[str]:
    """Units of ``level`` for a ranking of ids of any level, first-seen order kept.

    A deeper id is cut to its ancestor at ``level``; a shallower id becomes its descendants at
    ``level`` (``children``: id -> descendants in document order), those with a smaller
    ``order`` value (a rank from other runs) first.
    """
    want = depth(level)
    rank = order or {}
    out: dict[str, None] = {}
    for uid in ids:
        d = depth(level_of_id(uid))
        if d == want:
            out.setdefault(uid, None)
        elif d > want:
            up = ancestor_at(uid, level)
            if up is not None:
                out.setdefault(up, None)
        else:
            kids = list(children.get(uid, ()))
            pos = {c: i for i, c in enumerate(kids)}
            for c in sorted(kids, key=lambda c: (c not in rank, rank.get(c, 0), pos[c])):
                out.setdefault(c, None)
    return list(out)


def shallower(ids: Iterable[str], level: RetrievalLevel | str) -> list[str]:
    """The ids above ``level`` (they need their descendants looked up), first-seen order."""
    want = depth(level)
    return list(dict.fromkeys(u for u in ids if depth(level_of_id(u)) < want))


def cited_ids(text: str, law: str | None, registry: cite.LawRegistry | Callable[[], cite.LawRegistry]) -> list[str]:
    """Unit ids the query cites itself ("nach § 573 Abs. 2 BGB"), in text order; a citation
    without a law counts for ``law`` (the search's law filter) or is dropped. ``registry`` may be a
    function that gives it, called only for a text with a § or Art. sign (building the registry
    costs a cold search about half a second, eval/cli-startup/)."""
    if "§" not in text and "Art" not in text:
        return []  # the grammar needs a § or Art. sign; skipping it saves its tokeniser
    if not isinstance(registry, cite.LawRegistry):  # the grammar loads here, on first use (legalkg.cite)
        registry = registry()
    out: dict[str, None] = {}
    for m in cite.extract(text, default_law=law, registry=registry):
        uid = m.node_id
        if uid is not None and (law is None or m.law_key == law):
            out.setdefault(uid, None)
    return list(out)


def spread(shares: Mapping[str, float], outer: float, prefix: str = "") -> dict[str, float]:
    """``outer`` (a run's share of a fused score) split in proportion to ``shares`` (the run's own
    components), so ``--explain`` names the predictor's parts and the parts still sum to the score."""
    total = sum(shares.values())
    if total <= 0:
        return {}
    return {f"{prefix}{name}": outer * value / total for name, value in shares.items()}


def explain_components(run_shares: Mapping[str, float], inner: Mapping[str, float] | None) -> dict[str, float]:
    """A fused hit's components: each run's share, with the predictor's split into its parts; where
    the learned ranker ordered the predictor's run, its share is ``predictor.ranker`` (the shares
    still add up to the score; ``ranker_features`` says what moved the unit)."""
    out: dict[str, float] = {}
    for run, share in run_shares.items():
        if run == Run.PREDICTOR and is_ranked(inner):
            out[f"{Run.PREDICTOR}.ranker"] = share
            continue
        parts = spread(inner or {}, share, f"{Run.PREDICTOR}.") if run == Run.PREDICTOR else {}
        out.update(parts or {run: share})
    return out


def is_ranked(inner: Mapping[str, float] | None) -> bool:
    """Whether the ranker ordered a predicted unit: its parts are the ranker's mark (``ranker``)
    and, where asked for, its feature contributions (``ranker.*``)."""
    return bool(inner) and all(name == RANKED or name.startswith(("ranker.", FOUND)) for name in inner)


def ranker_features(inner: Mapping[str, float] | None) -> dict[str, float]:
    """The ``RANKER_SHOWN`` features that moved a ranked unit most (LightGBM contributions to the
    ranker's score, largest magnitude first, names without the prefix); {} for an RRF-fused one."""
    if not is_ranked(inner):
        return {}
    top = sorted(((n, v) for n, v in inner.items() if n.startswith("ranker.")), key=lambda kv: -abs(kv[1]))
    return {name.removeprefix("ranker."): value for name, value in top[:RANKER_SHOWN]}


def found_by(inner: Mapping[str, float] | None) -> list[str]:
    """The candidate sources that proposed a ranked unit (``rankfeatures.SOURCES``' names, in the
    order the candidate stage met them); [] for an RRF-fused one or without ``--explain``."""
    return [name.removeprefix(FOUND) for name in inner or {} if name.startswith(FOUND)] if is_ranked(inner) else []


class Inheritance:
    """uid -> the predictor's component shares for it: its own, or those of the predicted unit it
    was mapped from (an ancestor, or a descendant cut to ``uid``); the first such unit in the
    predictor's order where several are. Indexed once per query, so each hit costs its depth,
    not a scan of every predicted unit (a context pack asks for hundreds of hits)."""

    def __init__(self, inner: Mapping[str, Mapping[str, float]]) -> None:
        self.inner = inner
        self.order = {source: i for i, source in enumerate(inner)}
        #: a proper "/"-prefix of a predicted unit -> the first predicted unit below it
        self.below: dict[str, str] = {}
        for source in inner:
            parts = source.split("/")
            for n in range(1, len(parts)):
                self.below.setdefault("/".join(parts[:n]), source)

    def __call__(self, uid: str) -> Mapping[str, float] | None:
        if uid in self.inner:
            return self.inner[uid]
        parts = uid.split("/")
        found = [p for p in ("/".join(parts[:n]) for n in range(1, len(parts))) if p in self.inner]
        if uid in self.below:
            found.append(self.below[uid])
        return self.inner[min(found, key=self.order.__getitem__)] if found else None


def inherited(uid: str, inner: Mapping[str, Mapping[str, float]]) -> Mapping[str, float] | None:
    """One unit's shares (``Inheritance``, for a single look-up)."""
    return Inheritance(inner)(uid)


Runs = tuple[dict[str, list[str]], dict[str, Hit], dict[str, dict[str, float]]]


class LearnedStrategy:
    """The learned mode: the predictor, full-text, vector (where the level has vectors) and the
    query's own citations at the level asked, fused by weighted RRF (the rules above).

    The index look-ups wait on the server, so they run in the engine's reader threads while this
    thread embeds the query and runs the predictor: over all laws they are server time (the socket
    wait releases the GIL) and overlap the Python work instead of adding to it
    (eval/search-latency/README.md)."""

    uses_predictor = True

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.fulltext = FulltextStrategy(engine)
        self.vector = VectorStrategy(engine)

    def seeds(self, texts: Texts, level: RetrievalLevel, k: int, law: str | None = None,
              vectors: Vectors | None = None, task: Task | None = None) -> dict[str, list[Hit]]:
        vecs = vectors or {}
        return {q: self.hits(text, level, k, law, task, vecs.get(q)) for q, text in texts.items()}

    def seeds_with_hops(self, text: str, level: RetrievalLevel, k: int, law: str | None,
                        vector: np.ndarray | None, how: Expansion) -> None:
        """Several runs fused: no single statement returns them with their hops."""
        return None

    def hits(self, text: str, level: RetrievalLevel, k: int, law: str | None = None, task: Task | None = None,
             vector: np.ndarray | None = None) -> list[Hit]:
        """One query's fused hits; each hit's ``components`` holds every run's share, the
        predictor's split into its parts."""
        task = choose_task(text, task)
        weights = run_weights(self.engine.models.weights_for(task), level)
        rankings, known, inner = self.runs(text, level, k, law, task, vector, weights)
        fused = weighted_rrf(rankings, weights, k)
        if len(fused) < k and (backup := with_index_runs(weights)) != weights:
            # the weighted runs hold fewer than k units (a law the predictor never saw, a --law
            # filter): the index runs switched off fill the list, as they do for chunks
            rankings, known, inner = self.runs(text, level, k, law, task, vector, backup)
            fused = weighted_rrf(rankings, backup, k)
        missing = [uid for uid, _, _ in fused if uid not in known]
        if missing:  # texts of the predicted and cited units, for the top k only
            recs = self.engine.graph.read(query("retrieve/units_by_id"), {"ids": missing})
            known = {**known, **{r["id"]: from_record(r, Mode.LEARNED) for r in recs}}
        fused = [row for row in fused if row[0] in known]  # a unit deleted since it was looked up
        shares_of = Inheritance(inner)
        out = []
        for rank, (uid, score, shares) in enumerate(fused, 1):
            own = shares_of(uid)
            out.append(known[uid].model_copy(update={"score": score, "rank": rank, "via": Mode.LEARNED,
                                                     "components": explain_components(shares, own),
                                                     "ranker": ranker_features(own), "found": found_by(own)}))
        return out

    def runs(self, text: str, level: RetrievalLevel, k: int, law: str | None = None, task: Task | None = None,
             vector: np.ndarray | None = None, weights: Mapping[str, float] | None = None) -> Runs:
        """The runs before fusion: (run -> unit ids at ``level``, id -> the hit of each unit the
        index runs found, id -> the predictor's component shares). Apart from ``hits`` so that
        weights can be chosen by fusing the same runs many times (``legalkg.eval.folds``). Units
        the graph lacks are dropped from every run.

        A run switched off (weight 0) is not computed: the predictor anywhere, an index run at §
        level, where nothing is shallower than the level, so its ranking orders no descendants.
        ``weights``: those of the task at ``level`` unless given."""
        engine = self.engine
        engine.graph.check_level(level)
        task = choose_task(text, task)
        weights = run_weights(engine.models.weights_for(task), level) if weights is None else weights
        pending = self._index_runs(text, level, k, law, vector, weights)
        inner: dict[str, dict[str, float]] = {}
        if level.expandable:
            predicted, inner = self._predicted(text, level, law, task) if weights.get(Run.PREDICTOR) else ([], {})
            cited = cited_ids(text, law, engine.models.law_registry)
        index_runs = {name: future.result()["q"] for name, future in pending.items()}
        rankings = {name: [h.id for h in hits] for name, hits in index_runs.items()}
        if level.expandable:
            index_rank = {uid: r for r, (uid, _) in enumerate(rrf(rankings.values()))}
            children = engine.graph.descendants(shallower(predicted + cited, level), level)
            rankings[Run.PREDICTOR] = to_level(predicted, level, children, index_rank)
            rankings[Run.CITED] = to_level(cited, level, children, index_rank)
        known = {h.id: h for hits in index_runs.values() for h in hits}
        present = engine.graph.in_graph([u for name in (Run.PREDICTOR, Run.CITED) for u in rankings.get(name, [])
                                   if u not in known])
        rankings = {name: [u for u in ids if u in known or present[u]] for name, ids in rankings.items()}
        return rankings, known, inner

    def _index_runs(self, text: str, level: RetrievalLevel, k: int, law: str | None,
                    vector: np.ndarray | None, weights: Mapping[str, float]) -> dict[str, Future]:
        """The full-text and vector look-ups, submitted to the reader threads."""
        engine = self.engine
        needed = {r: level is not RetrievalLevel.PARAGRAPH or weights.get(r, 0.0) > 0 for r in INDEX_RUNS}
        pool = overfetch(k)
        pending: dict[str, Future] = {}
        if needed[Run.FULLTEXT]:
            pending[Run.FULLTEXT] = engine.graph.readers().submit(self.fulltext.seeds, {"q": text}, level, pool, law)
        if needed[Run.VECTOR] and (vector is not None or engine.graph.index_model(level) is not None):
            vecs = engine.queries.for_level({"q": text}, level, None if vector is None else {"q": vector})
            pending[Run.VECTOR] = engine.graph.readers().submit(self.vector.seeds, {"q": text}, level, pool, law, vecs)
        return pending

    def _predicted(self, text: str, level: RetrievalLevel, law: str | None,
                   task: Task) -> tuple[list[str], dict[str, dict[str, float]]]:
        """The predictor's ids for ``level`` (at its own level, or the deepest level above it) and
        each id's component shares."""
        pred = self.engine.models.predictor(task)
        source = source_level(pred.levels, level)
        if source is None:
            return [], {}
        ranker = self.engine.models.ranker(task) if source == Level.PARAGRAPH.value else None
        rows = [r for r in self.predicted_rows(pred, ranker, source, text) if law is None or law_of_id(r[0]) == law]
        return [uid for uid, _, _ in rows], {uid: parts for uid, _, parts in rows}

    def predicted_rows(self, pred, ranker, source: str, text: str) -> list[tuple[str, float, dict[str, float]]]:
        """The predictor's (or ranker's) rows for ``text`` at ``source``; inside
        ``keeping_predictions`` computed once per models and text (callers never change them)."""
        kept = _KEPT.get()
        contributions = _EXPLAIN.get()
        key = (id(pred), id(ranker), source, text, contributions)
        if kept is not None and key in kept and kept[key][0] is pred and kept[key][1] is ranker:
            return kept[key][2]
        rows = (ranker.explain(pred, [text], PREDICTOR_POOL, contributions) if ranker else
                pred.explain([text], PREDICTOR_POOL, source))[0]
        if kept is not None:
            kept[key] = (pred, ranker, rows)
        return rows
