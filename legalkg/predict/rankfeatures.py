"""Features of (query, § candidate) pairs for the learned ranker, from one predictor's outputs (pure).

Why these: weighted RRF keeps only each component's rank and drops every score and every interaction
between them; the predictor's Recall@100 is far above its Recall@10 (eval/predictor/), so the order is
where a ranker can gain. Per candidate:

* each component's score, rank (1 = best) and gap to the query's best score: ``nb`` (Complement NB),
  ``knn`` (neighbour votes), ``bridge`` (translated lay words), ``pop`` (training citations) and
  ``lex``, the plain TF-IDF cosine of the query with the § text over the statute vocabulary (the
  lexical run that needs no graph); a component that abstains (no evidence) gives missing values;
* the predictor's own fused score and rank (RRF of the components);
* unit facts: the § text's length (log words), the share of the query's stems in its title, and the
  share of training cases citing its law;
* co-citation (``cocite.py``) with the query's other top ``CONTEXT`` fused candidates: sum and maximum
  of positive npmi and how many of them were cited together with it at least ``MIN_COUNT`` times;
* the query against the whole § text (``textmatch.py``): Okapi BM25 over ``text.tokens`` and the
  cosine of the default static encoder's vectors, each as score, rank among the query's candidates
  and gap to their best (the graph's full-text and vector runs, computed from the same texts);
* the § in the citation graph: how many other §§ cite it and how many it cites (``units.cites_degrees``,
  the ingest's ``CITES_*`` edges rolled up to §). Computed at training time from the parsed laws and
  stored in the ranker's file (``rankfile.py``): at search time the ranker gets the § texts only, and
  the extraction over the 58 codes costs half a minute, too much for each Retriever's start.

The last two groups (``TEXT_FEATURES``) are computed but not used by default (``DEFAULT_FEATURES``):
in eval/ranker/ they did not beat the other features beyond the CI on either task. (On GerLayQA
the vector feature looks strong over all questions, but the shipped static encoder was tuned on
gerlayqa/train.jsonl's question-§ pairs, so it has seen those questions' gold; on dev.jsonl, which
it has not seen, the gain is within the CI.)

Not a feature: whether the § is repealed. Both unit sources leave repealed §§ out (``units.unit_texts``
and ``cypher/retrieve/unit_texts``), and every candidate is a training label or one of those texts, so
the flag would be 0 on every row (tests/predict/test_rankfeatures_text.py checks a repealed §).

Candidates: the union of every component's top ``PER_COMPONENT`` and the fused top ``PER_COMPONENT``,
so the ranker can lift a unit that one component alone likes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from .cocite import CoCitation
from .corpus import Corpus
from .lawrouter import LawRouter
from .passages import Passages
from .sparse import top_dense
from .text import tokens
from .textmatch import Bm25, VectorCache, score_rank_gap

COMPONENT_FEATURES: tuple[str, ...] = ("nb", "knn", "bridge", "pop", "lex")
PER_COMPONENT = 30
CONTEXT = 10
#: Components whose 0 means "no evidence" (like the predictor's fusion, which stops at them).
ABSTAINING = ("knn", "bridge", "lex", "gbm25", "pbm25")
#: The features a ranker uses unless it is given others (``ranker.fit_stacked``): those of issue 34.
#: ``TEXT_FEATURES`` did not beat them beyond the CI in eval/ranker/ (README, results-*-features.md),
#: so they are computed only for a ranker that names them.
DEFAULT_FEATURES: tuple[str, ...] = tuple(
    f"{c}_{what}" for c in COMPONENT_FEATURES for what in ("score", "rank", "gap")
) + ("rrf_score", "rrf_rank", "words_log", "title_match", "law_share", "cocite_sum", "cocite_max", "cocite_n")
#: The features on the whole § text and the citation graph (``TEXT_FEATURES``' columns follow the others).
TEXT_FEATURES: tuple[str, ...] = ("bm25_score", "bm25_rank", "bm25_gap", "vec_score", "vec_rank", "vec_gap",
                                  "cites_in", "cites_out")
#: Components over every § of the graph (``corpus.py``), ranked over all §§, not only the predictor's.
GRAPH_COMPONENTS: tuple[str, ...] = ("gbm25", "gvec")
#: The learned law router's (``lawrouter.LawRouter``) score, rank and gap to its best law for the
#: candidate's law (NaN where no learned router is attached: ``UnitFacts.router``).
LAWROUTER_FEATURES: tuple[str, ...] = ("lawrouter_score", "lawrouter_rank", "lawrouter_gap")
#: The graph's features: each graph component's score, rank and gap, the corpus router's score, rank
#: and gap for the candidate's law, the share of the query's words the predictor knows (``coverage``)
#: and the predictor's best fused score (``pred_top``): the last two say how far its labels reach.
GRAPH_FEATURES: tuple[str, ...] = tuple(
    f"{c}_{what}" for c in GRAPH_COMPONENTS for what in ("score", "rank", "gap")
) + ("router_score", "router_rank", "router_gap", "coverage", "pred_top")
#: Components over every § of the graph scored by its best Absatz (``passages.py``): BM25 and vector
#: cosine of the best passage, each as score, rank over all §§ and gap (``PASSAGE_FEATURES``); a
#: ranker that names them also gets each one's top ``PER_COMPONENT`` §§ as candidates.
PASSAGE_COMPONENTS: tuple[str, ...] = ("pbm25", "pvec")
PASSAGE_FEATURES: tuple[str, ...] = tuple(
    f"{c}_{what}" for c in PASSAGE_COMPONENTS for what in ("score", "rank", "gap"))
#: The § in the statute's structure: the share of the query's stems found in the titles of the §'s
#: Gliederung ancestors (``outline_match``, ``units.outline_titles``), and for a § that cites or is
#: cited by one of the query's ``ANCHORS`` strongest candidates the first-stage rank of the best such
#: anchor (``neighbour_anchor``, 1 = the strongest; NaN for none). A ranker that names
#: ``neighbour_anchor`` also gets those neighbours as candidates (``neighbour_candidates``).
STRUCTURE_FEATURES: tuple[str, ...] = ("outline_match", "neighbour_anchor")
#: The first stage that picks the anchors: reciprocal-rank fusion (constant ``ANCHOR_RRF_K``, as the
#: predictor's) of the graph components' and the passage components' ranks over all §§ and the
#: predictor's fused rank; its top ``ANCHORS`` §§ each add their ``PER_ANCHOR`` citation neighbours
#: best by BM25 (a § cited by hundreds must not flood the list). Chosen, not tuned: five anchors as
#: the head a reader sees, ten neighbours each, so at most 50 candidates more.
ANCHORS = 5
PER_ANCHOR = 10
ANCHOR_RRF_K = 60
#: Features that the statutes' own pairs (``graphpairs``) hold by construction, left missing in their
#: training rows (``ranker.fit_stacked``): a citation pair's text is a Satz of the citing §, which leads
#: BM25 and becomes an anchor, and its gold is the § it cites, so the gold is always that anchor's
#: neighbour, a rule no question obeys.
CONSTRUCTED: tuple[str, ...] = ("neighbour_anchor",)
#: The candidate sources as ``--explain`` names them: the predictor's fused top ("predictor"), each
#: component's own top (its name; the graph's BM25 and vectors as "bm25" and "vector"), the corpus
#: router's laws' best §§ ("router") and the learned law router's laws' best §§ ("lawrouter").
SOURCES: dict[str, str] = {**{c: c for c in COMPONENT_FEATURES}, "gbm25": "bm25", "gvec": "vector",
                           "fused": "predictor", "routed": "router", "learned_routed": "lawrouter",
                           "pbm25": "passage-bm25", "pvec": "passage-vector", "neighbour": "neighbour"}
#: The compound parts' share of the graph BM25 (eval/ranker/compound-bm25/): a ranker that names it
#: reads ``gbm25`` (and ``pbm25``) with each query word that no § text uses expanded by its compound
#: parts (``textmatch.query_terms``: "Ladendiebstahl" -> laden, diebstahl), and this feature, the
#: BM25 of the added parts alone (``corpus.Corpus.part_bm25``; 0 for a query whose words the texts
#: all use), so it can tell a § the user's own words found from one that only a part found.
COMPOUND_FEATURES: tuple[str, ...] = ("gbm25_parts",)
#: Components that are features only, never a candidate source (``choose``) nor ranked.
FEATURE_ONLY: tuple[str, ...] = COMPOUND_FEATURES
#: How sure the predictor is of a query (issue 42, "know when not to trust the labels"), beside
#: ``coverage``: the Shannon entropy, in nats, of its neighbour votes (``knn``) over the §§ they name,
#: normalised to sum 1 (``vote_entropy``). 0 where the similar training questions all cite one §, high
#: where they scatter; NaN where no neighbour votes. One value per query, on each of its candidates.
CONFIDENCE_FEATURES: tuple[str, ...] = ("knn_entropy",)
#: Every column ``assemble`` fills, in order; a ranker reads the columns of its own features.
FEATURES: tuple[str, ...] = (DEFAULT_FEATURES + TEXT_FEATURES + GRAPH_FEATURES + LAWROUTER_FEATURES + PASSAGE_FEATURES
                              + STRUCTURE_FEATURES + COMPOUND_FEATURES + CONFIDENCE_FEATURES)
#: The features of a ranker over the whole graph's candidates: the predictor's without its law prior
#: (``law_share`` names a law, and every lay training case cites BGB) and the graph's, without the
#: learned law router's (``LAWROUTER_FEATURES``: a ranker that names them also gets that router's
#: laws' §§ as candidates).
GRAPH_RANKER_FEATURES: tuple[str, ...] = tuple(f for f in DEFAULT_FEATURES if f != "law_share") + GRAPH_FEATURES
#: ``GRAPH_RANKER_FEATURES`` with the learned law router's: the shipped lay design since
#: eval/ranker/router-candidates/ measured it (``ranker.TASK_FEATURES``).
ROUTER_RANKER_FEATURES: tuple[str, ...] = GRAPH_RANKER_FEATURES + LAWROUTER_FEATURES
#: ``ROUTER_RANKER_FEATURES`` with the passage components (``PASSAGE_FEATURES``, their §§ as
#: candidates), the §'s citation in- and out-degree (``cites_in``, ``cites_out``) and its place in the
#: structure (``STRUCTURE_FEATURES``, the anchors' citation neighbours as candidates); the degrees,
#: Gliederung titles and citation pairs are stored in the ranker's file: eval/ranker/passage-candidates/.
PASSAGE_RANKER_FEATURES: tuple[str, ...] = (ROUTER_RANKER_FEATURES + PASSAGE_FEATURES + ("cites_in", "cites_out")
                                            + STRUCTURE_FEATURES)
#: ``ROUTER_RANKER_FEATURES`` with the graph BM25 over the query's compound parts (``COMPOUND_FEATURES``
#: says how): eval/ranker/compound-bm25/.
COMPOUND_RANKER_FEATURES: tuple[str, ...] = ROUTER_RANKER_FEATURES + COMPOUND_FEATURES
#: ``ROUTER_RANKER_FEATURES`` with the predictor's vote entropy (``CONFIDENCE_FEATURES``):
#: eval/ranker/confidence/.
CONFIDENCE_RANKER_FEATURES: tuple[str, ...] = ROUTER_RANKER_FEATURES + CONFIDENCE_FEATURES
#: §§ of each of the router's top ``ROUTED_LAWS`` laws added to the candidates: their best by BM25.
ROUTED_LAWS = 3
PER_ROUTED_LAW = 10
#: §§ of each of the learned law router's top ``LEARNED_LAWS`` laws (of the graph) added to the
#: candidates: their best ``PER_LEARNED_LAW`` by BM25 and their best ``PER_LEARNED_LAW`` by vector
#: cosine (eval/ranker/router-candidates/README.md says why these sizes).
LEARNED_LAWS = 3
PER_LEARNED_LAW = 20


def log_words(text: str) -> float:
    """log(1 + words) of a unit text."""
    return float(np.log1p(len(text.split())))


def title_stems(text: str) -> frozenset[str]:
    """The stems of a § text's title line (none where the text is one line, i.e. has no title)."""
    first, _, rest = text.partition("\n")
    return frozenset(tokens(first)) if rest else frozenset()


class PerUnit(Mapping):
    """id -> ``fact(text)`` for the ids given, each computed when first read. Why lazy: a ranker over
    the whole graph holds the 16,000 §§ of the 58 codes, a search reads a few hundred of them, and
    stemming every title was a sixth of a cold ``legalkg search``."""

    def __init__(self, units: Mapping[str, str], ids: Sequence[str], fact) -> None:
        self._units, self._ids, self._fact = units, list(dict.fromkeys(ids)), fact
        self._known = set(self._ids)
        self._done: dict[str, object] = {}

    def __getitem__(self, uid: str):
        if uid not in self._done:
            if uid not in self._known:
                raise KeyError(uid)
            self._done[uid] = self._fact(self._units.get(uid, ""))
        return self._done[uid]

    def __iter__(self):
        return iter(self._ids)

    def __len__(self) -> int:
        return len(self._ids)


@dataclass
class UnitFacts:
    """Per § id: log word count and title stems (from the unit texts the bridge reads), the BM25
    and vector matchers over those texts, and the citation degrees (in, out)."""

    words_log: Mapping[str, float]
    titles: Mapping[str, frozenset[str]]
    bm25: Bm25 | None = None
    vectors: VectorCache | None = None
    degrees: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    #: every § of the graph (the graph components and the router), for a ranker of ``GRAPH_FEATURES``
    corpus: Corpus | None = None
    #: the learned law router (``lawrouter.LawRouter``) for ``LAWROUTER_FEATURES`` and its laws'
    #: candidates; a CV fold's own (``LawRouter.with_lay``), else the shipped one
    router: LawRouter | None = None
    #: every § of the corpus by its best Absatz (``passages.Passages``), for ``PASSAGE_FEATURES``
    passages: Passages | None = None
    #: per § the stems of its Gliederung ancestors' titles (``outline_match``; empty: not computed)
    outline: Mapping[str, frozenset[str]] = field(default_factory=dict)
    #: per § the §§ it cites or that cite it (``neighbour_anchor`` and its candidates; empty: none)
    neighbours: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: what those two are made of: § -> its Gliederung titles, and the (citing §, cited §) pairs
    outline_titles: Mapping[str, str] = field(default_factory=dict)
    cites: Sequence[tuple[str, str]] = ()
    #: whether the graph BM25 reads the query's compound parts (``COMPOUND_FEATURES``)
    compounds: bool = False

    @classmethod
    def build(cls, units: Mapping[str, str], ids: Sequence[str],
              degrees: Mapping[str, tuple[int, int]] | None = None, matchers: bool = True) -> UnitFacts:
        """The facts of ``ids``; the BM25 and vector matchers only with ``matchers`` (they cost a second
        or two for a few thousand §§, and a ranker without ``TEXT_FEATURES`` never reads them)."""
        words, titles = PerUnit(units, ids, log_words), PerUnit(units, ids, title_stems)
        if not matchers:
            return cls(words, titles, None, None, dict(degrees or {}))
        return cls(words, titles, Bm25(units, ids), VectorCache(units).encode(ids), dict(degrees or {}))

    def text_features(self, text: str, cand: Sequence[str]) -> np.ndarray:
        """(len(cand), len(TEXT_FEATURES)): BM25 and vector score/rank/gap, citation degrees (NaN
        where a matcher or a degree is missing)."""
        out = np.full((len(cand), len(TEXT_FEATURES)), np.nan, dtype=np.float32)
        if self.bm25 is not None:
            out[:, 0:3] = score_rank_gap(self.bm25.scores(text, cand))
        if self.vectors is not None:
            out[:, 3:6] = score_rank_gap(self.vectors.cosines(text, cand))
        if self.degrees:
            out[:, 6:8] = [self.degrees.get(u, (np.nan, np.nan)) for u in cand]
        return out


@dataclass
class Candidates:
    """One query's candidates: ids and their feature rows (len(ids), len(FEATURES)); a ranker reads
    the columns of its features."""

    ids: list[str]
    x: np.ndarray
    #: per candidate the sources that proposed it (``SOURCES``' names), for ``legalkg search --explain``
    found: list[tuple[str, ...]] = field(default_factory=list)


@dataclass
class Layout:
    """The union of the components' ids (sorted), each id's column, each column's law, and each
    component's ids as columns."""

    universe: list[str]
    col: dict[str, int]
    uni_law: np.ndarray
    columns: dict[int, np.ndarray]


#: Layouts of recent id lists, by the lists' identities (with the lists, so an id is never reused).
_LAYOUTS: dict[tuple[int, ...], tuple[tuple[list[str], ...], tuple[int, ...], Layout]] = {}


def layout(id_lists: Sequence[list[str]]) -> Layout:
    """The ``Layout`` of ``id_lists``. Why kept: the components' id lists are the models' own (the
    labels, the statutes' and the corpus' ids), the same objects query after query, and laying out
    the graph's 16,000 §§ anew for every search was a third of the ranker's time."""
    key = tuple(id(ids) for ids in id_lists)
    sizes = tuple(len(ids) for ids in id_lists)
    kept = _LAYOUTS.get(key)
    if kept is not None and kept[1] == sizes and all(a is b for a, b in zip(kept[0], id_lists)):
        return kept[2]
    universe = sorted({u for ids in id_lists for u in ids})
    col = {u: j for j, u in enumerate(universe)}
    lay = Layout(universe, col, np.array([u.split("/", 1)[0] for u in universe]),
                 {id(ids): np.array([col[u] for u in ids], dtype=np.int64) for ids in id_lists})
    if len(_LAYOUTS) >= 16:
        _LAYOUTS.clear()
    _LAYOUTS[key] = (tuple(id_lists), sizes, lay)
    return lay


def dense_runs(parts: Mapping[str, tuple[list[str], np.ndarray]], lay: Layout) -> dict[str, np.ndarray]:
    """Each component's scores placed on the columns of the layout's universe (NaN where it has none)."""
    out = {}
    for name, (ids, scores) in parts.items():
        full = np.full((scores.shape[0], len(lay.universe)), np.nan, dtype=np.float32)
        full[:, lay.columns[id(ids)]] = scores
        if name in ABSTAINING:
            full[full <= 0] = np.nan
        full[~np.isfinite(full)] = np.nan
        out[name] = full
    return out


def ranks(scores: np.ndarray) -> np.ndarray:
    """1-based rank of each column per row (best first), NaN where the score is missing."""
    filled = np.where(np.isnan(scores), -np.inf, scores)
    order = np.argsort(-filled, axis=1, kind="stable")
    out = np.empty_like(scores)
    rows = np.arange(scores.shape[0])[:, None]
    out[rows, order] = np.arange(1, scores.shape[1] + 1, dtype=np.float32)[None, :]
    out[np.isnan(scores)] = np.nan
    return out


def law_shares(popularity: Mapping[str, float], n_cases: int) -> dict[str, float]:
    """Law -> share of training citations (of §s) that name it: a prior over laws."""
    total: dict[str, float] = {}
    for uid, count in popularity.items():
        law = uid.split("/", 1)[0]
        total[law] = total.get(law, 0.0) + count
    norm = max(sum(total.values()), 1.0)
    return {law: v / norm for law, v in total.items()}


def cocite_features(cocite: CoCitation | None, cand: list[str], context: list[str]) -> np.ndarray:
    """(len(cand), 3): sum and max of positive npmi with the context units (itself left out), and
    the number of context units it was cited together with."""
    out = np.zeros((len(cand), 3), dtype=np.float32)
    if cocite is None or not cand or not context:
        return out
    ci, xi = cocite.columns(cand), cocite.columns(context)
    ok_c, ok_x = np.flatnonzero(ci >= 0), np.flatnonzero(xi >= 0)
    if not len(ok_c) or not len(ok_x):
        return out
    sub = cocite.block(ci[ok_c], xi[ok_x])
    pos = np.clip(sub, 0, None)
    out[ok_c, 0] = pos.sum(axis=1)
    out[ok_c, 1] = pos.max(axis=1)
    out[ok_c, 2] = (sub != 0).sum(axis=1)
    return out


@dataclass
class Context:
    """What the features need beyond the component scores: unit facts, law shares, co-citation."""

    facts: UnitFacts
    law_share: Mapping[str, float]
    cocite: CoCitation | None


@dataclass
class QueryFacts:
    """Per query of a batch, what the graph features need beyond the components: the router's law
    scores (queries x ``laws``) and the share of its words the predictor knows."""

    route: np.ndarray
    laws: list[str]
    coverage: np.ndarray
    #: the learned law router's scores (queries x ``laws``), where one is attached
    learned: np.ndarray | None = None


def assemble(parts: Mapping[str, tuple[list[str], np.ndarray]], fused: Sequence[Sequence[tuple[str, float]]],
             texts: Sequence[str], ctx: Context, query: QueryFacts | None = None) -> list[Candidates]:
    """Per query its candidates and their ``FEATURES`` rows. ``parts``: the components' scores (with
    ``lex``, and the graph components where the corpus is given), ``fused``: the predictor's RRF
    ranking per query, best first; ``query``: the router and coverage (with the corpus)."""
    lay = layout([ids for ids, _ in parts.values()])
    col = lay.col
    runs = dense_runs(parts, lay)
    run_ranks = {name: ranks(s) for name, s in runs.items() if name not in FEATURE_ONLY}
    out = []
    for i, text in enumerate(texts):
        chosen = choose(runs, fused[i], lay, i, query)
        anchor_of: dict[str, int] = {}
        if ctx.facts.neighbours:
            anchor_of = neighbour_candidates(chosen, runs, run_ranks, fused[i], lay, i, ctx.facts.neighbours)
            for u in anchor_of:
                chosen.setdefault(u, []).append(SOURCES["neighbour"])
        cand = list(chosen)
        cols = np.array([col[u] for u in cand], dtype=np.int64)
        x = np.full((len(cand), len(FEATURES)), np.nan, dtype=np.float32)
        score_rank_gap_columns(x, COMPONENT_FEATURES, runs, run_ranks, i, cols)
        base = 3 * len(COMPONENT_FEATURES)
        fused_at = {u: (r, s) for r, (u, s) in enumerate(fused[i], 1)}
        x[:, base] = [fused_at.get(u, (np.nan, np.nan))[1] for u in cand]
        x[:, base + 1] = [fused_at.get(u, (np.nan, np.nan))[0] for u in cand]
        stems = set(tokens(text))
        x[:, base + 2] = [ctx.facts.words_log.get(u, np.nan) for u in cand]
        x[:, base + 3] = [len(stems & t) / len(t) if (t := ctx.facts.titles.get(u)) else np.nan for u in cand]
        x[:, base + 4] = [ctx.law_share.get(u.split("/", 1)[0], 0.0) for u in cand]
        x[:, base + 5:base + 8] = cocite_features(ctx.cocite, cand, [u for u, _ in fused[i][:CONTEXT]])
        x[:, base + 8:base + 8 + len(TEXT_FEATURES)] = ctx.facts.text_features(text, cand)
        if query is not None:
            g = len(DEFAULT_FEATURES) + len(TEXT_FEATURES)
            x[:, g:g + len(GRAPH_FEATURES)] = graph_features(runs, run_ranks, i, cols, cand, query, fused[i])
            lr = g + len(GRAPH_FEATURES)
            if query.learned is not None:
                x[:, lr:lr + len(LAWROUTER_FEATURES)] = law_score_rank_gap(query.learned[i],
                                                                          law_columns(cand, query.laws))
            p = lr + len(LAWROUTER_FEATURES)
            score_rank_gap_columns(x[:, p:p + len(PASSAGE_FEATURES)], PASSAGE_COMPONENTS, runs, run_ranks, i, cols)
        s = FEATURES.index(STRUCTURE_FEATURES[0])
        if ctx.facts.outline:
            x[:, s] = [len(stems & ctx.facts.outline.get(u, frozenset())) / len(stems) if stems else np.nan
                       for u in cand]
        if ctx.facts.neighbours:
            x[:, s + 1] = [anchor_of.get(u, np.nan) for u in cand]
        feature_only_columns(x, runs, i, cols)
        out.append(Candidates(cand, x, [tuple(dict.fromkeys(chosen[u])) for u in cand]))
    return out


def feature_only_columns(x: np.ndarray, runs: Mapping[str, np.ndarray], i: int, cols: np.ndarray) -> None:
    """Fill query ``i``'s columns that no candidate source has: ``FEATURE_ONLY`` components at the
    candidates' ``cols`` and the predictor's vote entropy (``CONFIDENCE_FEATURES``)."""
    for name in FEATURE_ONLY:
        if name in runs:
            x[:, FEATURES.index(name)] = runs[name][i][cols]
    if "knn" in runs:
        x[:, FEATURES.index(CONFIDENCE_FEATURES[0])] = vote_entropy(runs["knn"][i])


def vote_entropy(votes: np.ndarray) -> float:
    """Shannon entropy (nats) of the positive, finite ``votes`` normalised to sum 1; NaN for none."""
    v = votes[np.isfinite(votes) & (votes > 0)].astype(np.float64)
    if not len(v):
        return float("nan")
    p = v / v.sum()
    return float(-(p * np.log(p)).sum())


def choose(runs: Mapping[str, np.ndarray], fused: Sequence[tuple[str, float]], lay: Layout, i: int,
           query: QueryFacts | None) -> dict[str, list[str]]:
    """Query ``i``'s candidates, each with the sources that proposed it (``SOURCES``' names), in the
    order found: the fused top, each component's top ``PER_COMPONENT``, the corpus router's laws'
    §§ (``routed``) and the learned law router's (``learned_routed``)."""
    universe, uni_law = lay.universe, lay.uni_law
    chosen: dict[str, list[str]] = {}
    for u, _ in fused[:PER_COMPONENT]:
        chosen.setdefault(u, []).append(SOURCES["fused"])
    for name, s in runs.items():
        if name in FEATURE_ONLY:
            continue
        row = s[i]
        top = top_dense(np.where(np.isnan(row), -np.inf, row)[None, :], PER_COMPONENT)[0]
        for j in top:
            if not np.isnan(row[j]):
                chosen.setdefault(universe[j], []).append(SOURCES.get(name, name))
    if query is None or "gbm25" not in runs:
        return chosen
    for u in routed(runs["gbm25"][i], universe, uni_law, query.route[i], query.laws):
        chosen.setdefault(u, []).append(SOURCES["routed"])
    if query.learned is not None:
        text_runs = [runs["gbm25"][i]] + ([runs["gvec"][i]] if "gvec" in runs else [])
        for u in learned_routed(text_runs, universe, uni_law, query.learned[i], query.laws):
            chosen.setdefault(u, []).append(SOURCES["learned_routed"])
    return chosen


def neighbour_candidates(chosen: Mapping[str, list[str]], runs: Mapping[str, np.ndarray],
                         run_ranks: Mapping[str, np.ndarray], fused: Sequence[tuple[str, float]], lay: Layout,
                         i: int, neighbours: Mapping[str, Sequence[str]]) -> dict[str, int]:
    """Query ``i``'s citation neighbours of its ``ANCHORS`` strongest candidates (of ``chosen``, by
    the first stage's RRF: ``ANCHOR_RRF_K``), each anchor's best ``PER_ANCHOR`` by BM25 over the
    whole § (``gbm25``, else in id order), with the rank (1 = strongest) of the best anchor each one
    neighbours; an anchor that neighbours a stronger anchor counts as that one's neighbour."""
    cand = list(chosen)
    if not cand:
        return {}
    cols = np.array([lay.col[u] for u in cand], dtype=np.int64)
    rrf = np.zeros(len(cand), dtype=np.float64)
    for name in GRAPH_COMPONENTS + PASSAGE_COMPONENTS:
        if name in run_ranks:
            r = run_ranks[name][i][cols]
            rrf += np.where(np.isnan(r), 0.0, 1.0 / (ANCHOR_RRF_K + np.nan_to_num(r, nan=0.0)))
    fused_rank = {u: r for r, (u, _) in enumerate(fused, 1)}
    rrf += [1.0 / (ANCHOR_RRF_K + fused_rank[u]) if u in fused_rank else 0.0 for u in cand]
    anchors = [cand[j] for j in np.lexsort((np.arange(len(cand)), -rrf))[:ANCHORS]]
    bm25 = runs.get("gbm25")
    out: dict[str, int] = {}
    for rank, anchor in enumerate(anchors, 1):
        near = [u for u in neighbours.get(anchor, ()) if u in lay.col]
        if bm25 is not None:
            score = np.nan_to_num(bm25[i][[lay.col[u] for u in near]], nan=0.0) if near else np.zeros(0)
            near = [near[j] for j in np.lexsort((np.array(near), -score))] if near else []
        for u in near[:PER_ANCHOR]:
            out.setdefault(u, rank)
    return out


def routed(scores: np.ndarray, universe: list[str], uni_law: np.ndarray, route: np.ndarray,
           laws: list[str]) -> list[str]:
    """The best ``PER_ROUTED_LAW`` §§ by BM25 (``scores`` over ``universe``) of each of the router's
    top ``ROUTED_LAWS`` laws: a law the question is about gets candidates even where other laws'
    §§ fill the global top."""
    out: list[str] = []
    top_laws = [laws[j] for j in np.argsort(-route, kind="stable")[:ROUTED_LAWS] if route[j] > 0]
    for law in top_laws:
        cols = np.flatnonzero((uni_law == law) & np.isfinite(scores))
        best = cols[np.lexsort((cols, -scores[cols]))[:PER_ROUTED_LAW]]
        out.extend(universe[j] for j in best)
    return out


def learned_routed(scores: Sequence[np.ndarray], universe: list[str], uni_law: np.ndarray, route: np.ndarray,
                   laws: list[str]) -> list[str]:
    """The best ``PER_LEARNED_LAW`` §§ by each of ``scores`` (BM25 and vector cosine over
    ``universe``) of each of the learned law router's top ``LEARNED_LAWS`` laws (``route`` over
    ``laws``, the graph's): the router reads lay words that no § text holds, so the law it names
    gets candidates even where neither BM25 nor the vectors rank its §§ high over all laws."""
    out: list[str] = []
    top_laws = [laws[j] for j in np.argsort(-route, kind="stable")[:LEARNED_LAWS] if route[j] > 0]
    for law in top_laws:
        in_law = uni_law == law
        for run in scores:
            cols = np.flatnonzero(in_law & np.isfinite(run))
            best = cols[np.lexsort((cols, -run[cols]))[:PER_LEARNED_LAW]]
            out.extend(universe[j] for j in best)
    return list(dict.fromkeys(out))


def score_rank_gap_columns(out: np.ndarray, names: Sequence[str], runs: Mapping[str, np.ndarray],
                           run_ranks: Mapping[str, np.ndarray], i: int, cols: np.ndarray) -> None:
    """Fill columns 3j, 3j+1, 3j+2 of ``out`` with component ``names[j]``'s score, rank over all ids
    and gap to its best score for query ``i`` at the candidates' ``cols`` (left NaN for a component
    ``runs`` lacks)."""
    for c_i, name in enumerate(names):
        if name not in runs:
            continue
        row = runs[name][i]
        best = np.nanmax(row) if np.isfinite(row).any() else np.nan
        out[:, 3 * c_i] = row[cols]
        out[:, 3 * c_i + 1] = run_ranks[name][i][cols]
        out[:, 3 * c_i + 2] = row[cols] - best


def graph_features(runs: Mapping[str, np.ndarray], run_ranks: Mapping[str, np.ndarray], i: int, cols: np.ndarray,
                   cand: Sequence[str], query: QueryFacts, fused: Sequence[tuple[str, float]]) -> np.ndarray:
    """(len(cand), len(GRAPH_FEATURES)) for query ``i``: the graph components' score, rank over all
    §§ and gap, the corpus router's score, rank and gap of each candidate's law (``law_score_rank_gap``),
    coverage and the predictor's best fused score."""
    out = np.full((len(cand), len(GRAPH_FEATURES)), np.nan, dtype=np.float32)
    score_rank_gap_columns(out, GRAPH_COMPONENTS, runs, run_ranks, i, cols)
    base = 3 * len(GRAPH_COMPONENTS)
    out[:, base:base + 3] = law_score_rank_gap(query.route[i], law_columns(cand, query.laws))
    out[:, base + 3] = query.coverage[i]
    out[:, base + 4] = fused[0][1] if fused else 0.0
    return out


def law_columns(cand: Sequence[str], laws: Sequence[str]) -> list[int]:
    """Each candidate's law's column in ``laws`` (-1 where it is not there)."""
    law_col = {law: j for j, law in enumerate(laws)}
    return [law_col.get(u.split("/", 1)[0], -1) for u in cand]


def law_score_rank_gap(route: np.ndarray, at: Sequence[int]) -> np.ndarray:
    """(len(at), 3): a law router's score of each candidate's law (``at``: its column in ``route``,
    -1 for a law the router does not score: score 0, rank NaN), that law's rank (1 = best) and its gap
    to the best law's score."""
    out = np.full((len(at), 3), np.nan, dtype=np.float32)
    rank = np.empty(len(route), dtype=np.float32)
    rank[np.argsort(-route, kind="stable")] = np.arange(1, len(route) + 1)
    out[:, 0] = [route[j] if j >= 0 else 0.0 for j in at]
    out[:, 1] = [rank[j] if j >= 0 else np.nan for j in at]
    out[:, 2] = out[:, 0] - (route.max() if len(route) else 0.0)
    return out
