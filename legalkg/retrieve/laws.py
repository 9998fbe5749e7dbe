"""The law router's pure rule: which laws a query concerns, ranked, from three signals.

Why a step of its own: with all 6,821 laws in the graph, a search over every law meets many
distractors, and a user who does not know which law governs a question cannot pass ``--law``.
The router ranks laws; ``legalkg search --law auto`` narrows the search to its first law, and
``benchmarks/law_routing.py`` measures it alone (docs/scale.md, "Law routing").

Signals, each a ranking of law ids (``law_runs`` reads them from the query and the graph):

* ``cited``: the laws the query names, in its citations ("§ 573 BGB") or bare ("das BGB"), in
  text order (``legalkg.cite``).
* ``predictor``: the statute predictor's § predictions (``legalkg.predict``; its labels carry their
  law), collapsed to laws by :func:`laws_of`.
* ``fulltext``: the top § full-text hits over all laws (``cypher/retrieve/law_route``), collapsed
  the same way.
* ``corpus``: the corpus router over every § of the graph (``legalkg.predict.corpus``: votes of
  the top §§ by BM25 and by static cosine, and each law's title and § titles), which reads lay
  words for every law, not only the laws the predictor's cases cite.

Fusion is the one weighted RRF (``legalkg.fusion.weighted_rrf``). The weights are chosen, not
tuned on the scored cases: a law the query names and the corpus router count 1 (they see every
law), the predictor 0.5 (its laws are only those its training cases cite: the lay model's are BGB
alone, so at 1 it sent questions about holidays or traffic points to BGB), the full-text run 0.5
(it sees every law, but its hits follow shared words, not the legal question).

:func:`laws_of` scores a law by the summed reciprocal ranks of its units in one ranking, so a law
with many good hits outranks one with a single lucky hit, and the first hits weigh most.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from ..cite import LawRegistry, extract
from ..fusion import reciprocal_rank, weighted_rrf
from ..graph.cypher import query
from ..model import law_of_id
from ..vocab import RetrievalLevel, Run, Task
from . import learned as lm
from .base import Engine
from .fulltext import lucene_query

if TYPE_CHECKING:
    from ..predict import Predictor

#: The value of ``--law`` / ``SearchRequest.law`` that asks the router for the law.
AUTO_LAW = "auto"
#: Weighted-RRF weight of each signal (module docstring: chosen, not tuned).
WEIGHTS: dict[str, float] = {Run.CITED: 1.0, Run.CORPUS: 1.0, Run.PREDICTOR: 0.5, Run.FULLTEXT: 0.5}
#: Laws read from the corpus router's ranking.
CORPUS_LAWS = 20
SIGNALS: tuple[str, ...] = tuple(WEIGHTS)
#: § full-text hits read for the full-text signal (deep enough that a law's several §§ add up).
FULLTEXT_HITS = 100
#: § predictions read for the predictor signal.
PREDICTOR_HITS = 100
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


def cited_laws(text: str, registry: LawRegistry) -> list[str]:
    """The laws the query names, in its citations ("§ 573 BGB") or bare ("nach dem BGB"), in text
    order, each once."""
    out: dict[str, None] = {}
    for m in extract(text, registry=registry, law_mentions=True):
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
             predictor: Predictor | None = None) -> dict[str, list[str]]:
    """The signals for a query: signal -> law ids, best first. ``predictor``: a model to ask instead
    of the task's (the benchmark's out-of-fold ones); the predictor signal is left out where the
    task's run weights switch the predictor off."""
    engine.graph.check_ready()
    runs = {Run.CITED: cited_laws(text, engine.models.law_registry())}
    q = lucene_query(text)
    recs = engine.graph.read(query("retrieve/law_route"), {"index": f"fulltext_{RetrievalLevel.PARAGRAPH}", "q": q,
                                                     "fetch": FULLTEXT_HITS}) if q else []
    runs[Run.FULLTEXT] = laws_of(r["law"] for r in recs)
    runs[Run.CORPUS] = [law for law, _ in engine.models.corpus()[1].top_laws(text, CORPUS_LAWS)]
    task = lm.choose_task(text, task)
    if predictor is None and engine.models.weights_for(task).get(Run.PREDICTOR):
        predictor = engine.models.predictor(task)
    if predictor is not None:
        rows = predictor.predict([text], PREDICTOR_HITS, RetrievalLevel.PARAGRAPH)[0]
        runs[Run.PREDICTOR] = laws_of(law_of_id(uid) for uid, _ in rows)
    return runs


def route_laws(engine: Engine, text: str, k: int = AUTO_LAWS, task: Task | None = None) -> list[str]:
    """The ``k`` laws the query most likely concerns (``route`` over ``law_runs``)."""
    return routed_laws(law_runs(engine, text, task), k)
