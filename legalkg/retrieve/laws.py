"""The law router's pure rule: which laws a query concerns, ranked, from three signals.

Why a step of its own: with all 6,821 laws in the graph, a search over every law meets many
distractors, and a user who does not know which law governs a question cannot pass ``--law``.
The router ranks laws; ``legalkg search --law auto`` narrows the search to its first law, and
``benchmarks/law_routing.py`` measures it alone (docs/scale.md, "Law routing").

Signals, each a ranking of law ids (``law_runs`` reads them from the query and the graph):

* ``cited``: the laws the query names, in its citations ("§ 573 BGB") or bare ("das BGB"), in
  text order (``legalkg.cite``).
* ``predictor``: the statute predictor's § predictions (``legalkg.predict``; its labels carry their
  law), collapsed to laws by :func:`predicted_laws`: each law's summed § scores over its share of
  the predictor's training citations to the power ``PRIOR_POWER``. The lay predictor's cases are
  mostly BGB (GerLayQA), so by summed scores or ranks alone BGB tops nearly every question, even one
  about holidays or traffic points; divided by the full prior (power 1), questions about BGB go
  elsewhere. The square root keeps both (eval/law-router-lay/prior/).
* ``fulltext``: the top § full-text hits over all laws (``cypher/retrieve/law_route``), collapsed
  the same way.
* ``corpus``: the corpus router over every § of the graph (``legalkg.predict.corpus``: votes of
  the top §§ by BM25 and by static cosine, and each law's title and § titles), which reads lay
  words for every law, not only the laws the predictor's cases cite.
* ``laws``: the learned law router (``legalkg.predict.lawrouter``): each law of the graph scored
  by the lay questions asked about it and by the words the statute gives itself (titles,
  abbreviations, § headings, Gliederung titles), for every law of gii.

Fusion is the one weighted RRF (``legalkg.fusion.weighted_rrf``). The corpus router and the
predictor count 1 (the lay predictor is trained on questions about every default code,
eval/lay-beyond-train, and its law scores are divided by its prior, so it no longer sends every
question to BGB), the full-text run 0.5 (it sees every law, but its hits follow shared words, not
the legal question); these were chosen, not tuned. The learned signal ``laws`` counts 100: its
weight was chosen by CV on the beyond-BGB lay questions (``benchmarks/law_router_lay.py``, nested:
each fold's weight by an inner CV on the other folds; eval/law-router-lay/learned/), and so high a
weight makes it lead while the other signals only break near-ties. A law the query names counts
200, twice the learned signal: a named law comes first.

:func:`laws_of` scores a law by the summed reciprocal ranks of its units in one ranking, so a law
with many good hits outranks one with a single lucky hit, and the first hits weigh most.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from .. import cite
from ..fusion import reciprocal_rank, weighted_rrf
from ..graph.cypher import query
from ..model import law_of_id
from ..predict import lawrouter
from ..predict.rankfeatures import law_shares
from ..vocab import RetrievalLevel, Run, Task
from . import learned as lm
from .base import Engine
from .fulltext import lucene_query

if TYPE_CHECKING:
    from ..predict import Predictor
    from ..predict.lawrouter import LawRouter

#: The value of ``--law`` / ``SearchRequest.law`` that asks the router for the law.
AUTO_LAW = "auto"
#: Weighted-RRF weight of each signal (module docstring: ``laws`` chosen by CV, the others chosen).
WEIGHTS: dict[str, float] = {Run.CITED: 200.0, Run.LAWS: 100.0, Run.CORPUS: 1.0, Run.PREDICTOR: 1.0,
                             Run.FULLTEXT: 0.5}
#: Laws read from the corpus router's ranking and from the learned router's.
CORPUS_LAWS = 20
SIGNALS: tuple[str, ...] = tuple(WEIGHTS)
#: § full-text hits read for the full-text signal (deep enough that a law's several §§ add up).
FULLTEXT_HITS = 100
#: § predictions read for the predictor signal.
PREDICTOR_HITS = 100
#: The power of a law's training prior that divides the predictor's law scores (module docstring).
PRIOR_POWER = 0.5
#: The prior given a law the predictor's training cases never cite (its scores are 0 there anyway).
MIN_PRIOR = 1e-4
#: Laws ``--law auto`` narrows a search to: the search's law filter takes one law.
AUTO_LAWS = 1


def laws_of(laws: Iterable[str]) -> list[str]:
    """A ranking of the laws of a ranked hit list (one law id per hit, best hit first): each law
    scored by the summed reciprocal ranks of its hits, best first, ties broken by the law id."""
    scores: dict[str, float] = {}
    for rank, law in enumerate(laws, 1):
        if law:
            scores[law] = scores.get(law, 0.0) + reciprocal_rank(rank)
    return [law for law, _ in sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))]


def predicted_laws(rows: Iterable[tuple[str, float]], prior: Mapping[str, float],
                   power: float = PRIOR_POWER) -> list[str]:
    """The laws of the predictor's § rows (id, score), ranked by their summed scores over their
    ``prior`` (law -> share of the training citations) to ``power``, best first, ties by law id."""
    mass: dict[str, float] = {}
    for uid, score in rows:
        law = law_of_id(uid)
        mass[law] = mass.get(law, 0.0) + max(float(score), 0.0)
    lift = {law: m / max(prior.get(law, 0.0), MIN_PRIOR) ** power for law, m in mass.items()}
    return [law for law, _ in sorted(lift.items(), key=lambda kv: (-kv[1], kv[0]))]


def law_prior(predictor: Predictor) -> dict[str, float]:
    """Law -> its share of the predictor's § training citations (``rankfeatures.law_shares``)."""
    para = predictor.levels.get(RetrievalLevel.PARAGRAPH.value)
    return law_shares(dict(zip(para.labels, map(float, para.popularity))), 0) if para else {}


def cited_laws(text: str, registry: cite.LawRegistry) -> list[str]:
    """The laws the query names, in its citations ("§ 573 BGB") or bare ("nach dem BGB"), in text
    order, each once."""
    out: dict[str, None] = {}
    for m in cite.extract(text, registry=registry, law_mentions=True):  # the grammar loads on first use
        if m.law_key:
            out.setdefault(m.law_key, None)
    return list(out)


def route(runs: Mapping[str, Sequence[str]], weights: Mapping[str, float] | None = None,
          k: int | None = None) -> list[tuple[str, float, dict[str, float]]]:
    """The routed laws: (law, score, {signal: its share}), best first, top ``k`` (all with None),
    by weighted RRF of the signals' law rankings (``weights`` default: ``WEIGHTS``)."""
    return weighted_rrf(runs, WEIGHTS if weights is None else weights, k)


def routed_laws(runs: Mapping[str, Sequence[str]], k: int, weights: Mapping[str, float] | None = None) -> list[str]:
    """The ids of the top ``k`` routed laws."""
    return [law for law, _, _ in route(runs, weights, k)]


def law_runs(engine: Engine, text: str, task: Task | None = None,
             predictor: Predictor | None = None, router: LawRouter | None = None) -> dict[str, list[str]]:
    """The signals for a query: signal -> law ids, best first. ``predictor``: a model to ask instead
    of the task's (the benchmark's out-of-fold ones); the predictor signal is left out where the
    task's run weights switch the predictor off. ``router``: a learned law router to ask instead of
    the shipped one (the benchmark's fold routers); it ranks only the laws of the graph."""
    engine.graph.check_ready()
    runs = {Run.CITED: cited_laws(text, engine.models.law_registry())}
    q = lucene_query(text)
    recs = engine.graph.read(query("retrieve/law_route"), {"index": f"fulltext_{RetrievalLevel.PARAGRAPH}", "q": q,
                                                     "fetch": FULLTEXT_HITS}) if q else []
    runs[Run.FULLTEXT] = laws_of(r["law"] for r in recs)
    corpus = engine.models.corpus()[1]
    runs[Run.CORPUS] = [law for law, _ in corpus.top_laws(text, CORPUS_LAWS)]
    router = lawrouter.shipped() if router is None else router
    runs[Run.LAWS] = [law for law, _ in router.top_laws(text, CORPUS_LAWS, corpus.laws)]
    task = lm.choose_task(text, task)
    if predictor is None and engine.models.weights_for(task).get(Run.PREDICTOR):
        predictor = engine.models.predictor(task)
    if predictor is not None:
        rows = predictor.predict([text], PREDICTOR_HITS, RetrievalLevel.PARAGRAPH)[0]
        runs[Run.PREDICTOR] = predicted_laws(rows, law_prior(predictor))
    return runs


def route_laws(engine: Engine, text: str, k: int = AUTO_LAWS, task: Task | None = None) -> list[str]:
    """The ``k`` laws the query most likely concerns (``route`` over ``law_runs``)."""
    return routed_laws(law_runs(engine, text, task), k)
