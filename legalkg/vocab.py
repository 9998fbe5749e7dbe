"""The words a retrieval request is made of: levels, modes, expansions, and how user input maps to them.

Why one module: search, the evaluation grid, the CLI and the benchmarks all name the same levels,
modes and expansions. As enums they are spelled once; the aliases users type (``§``, ``naive``,
``Fusion``) are resolved here and nowhere else, and a wrong word gives the same one-line
``UserError`` naming the valid choices wherever it was typed.

The members are ``StrEnum``s: each equals, hashes and prints as its value (``RetrievalLevel.SATZ ==
"Satz"``), so they serve directly as Neo4j labels, index-name parts, dict keys and table cells.
"""

from __future__ import annotations

from enum import StrEnum

from .errors import UserError, short
from .model import Level


class RetrievalLevel(StrEnum):
    """A level one search runs at: the statute levels that carry text, and the naive chunks."""

    PARAGRAPH = Level.PARAGRAPH.value
    ABSATZ = Level.ABSATZ.value
    SATZ = Level.SATZ.value
    NUMMER = Level.NUMMER.value
    BUCHSTABE = Level.BUCHSTABE.value
    DOPPELBUCHSTABE = Level.DOPPELBUCHSTABE.value
    #: Naive 100-word windows (the paper's Naive-100w): not statute units, never expanded.
    CHUNK = "Chunk"
    #: ``--level auto``: rank at § level, then give for each hit the shortest unit inside it that
    #: carries it (``legalkg.retrieve.auto``); no index of its own, each hit names its own level.
    AUTO = "auto"

    @property
    def expandable(self) -> bool:
        """Only statute units sit in the tree and cite: a chunk has no parent and no citations."""
        return self is not RetrievalLevel.CHUNK

    @property
    def indexed(self) -> bool:
        """Whether the level has nodes and indexes of its own (``auto`` is searched at § level)."""
        return self is not RetrievalLevel.AUTO


class Mode(StrEnum):
    """How the seeds are found."""

    VECTOR = "vector"
    FULLTEXT = "fulltext"
    #: Reciprocal rank fusion of the vector and full-text rankings (``legalkg.fusion``).
    FUSION = "fusion"
    #: The one engine over the graph (``legalkg.retrieve.learned``): the statute predictor of
    #: ``legalkg.predict``, full-text, vector and the query's own citations, fused by weighted RRF.
    #: ``ranked`` (the old name of the learned mode) parses to it (``MODE_ALIASES``).
    LEARNED = "learned"

    @classmethod
    def _missing_(cls, value: object) -> Mode | None:
        """Aliases: ``Mode("ranked")`` is ``Mode.LEARNED``, so every parser and ``Mode(...)`` agree."""
        return MODE_ALIASES.get(value.strip().lower()) if isinstance(value, str) else None

    @property
    def uses_vectors(self) -> bool:
        """Whether the mode needs the query embedded with the index's model."""
        return self in (Mode.VECTOR, Mode.FUSION)


#: Old or alternative mode names -> the mode (resolved by ``Mode`` itself, so by every parser).
MODE_ALIASES: dict[str, Mode] = {"ranked": Mode.LEARNED}


class Expansion(StrEnum):
    """The one-hop context added to each seed."""

    NONE = "none"
    PARENT = "parent"
    CITATION = "citation"
    #: The paper's hybrid expansion: parent and citation.
    HYBRID = "hybrid"
    #: The § that the predictor's training cases cite most often together with the seed's §
    #: (npmi, ``legalkg.predict.cocite``): learned from cases, not read from the statute text.
    COCITED = "cocited"
    #: The § that the court decisions in the graph citing the seed's § cite most often besides it
    #: (``legalkg ingest-cases``): read from decisions, not from the statute text.
    DECISIONS = "decisions"

    @property
    def parent(self) -> bool:
        return self in (Expansion.PARENT, Expansion.HYBRID)

    @property
    def citation(self) -> bool:
        return self in (Expansion.CITATION, Expansion.HYBRID)

    @property
    def cocited(self) -> bool:
        return self is Expansion.COCITED

    @property
    def decisions(self) -> bool:
        return self is Expansion.DECISIONS

    @property
    def from_cases(self) -> bool:
        """Whether the hop's context comes from court cases, not from the statute text: the
        graph-wide words per unit (W^m) cannot price it, so a run's own words do."""
        return self in (Expansion.COCITED, Expansion.DECISIONS)


class Task(StrEnum):
    """The kind of query the statute predictor was trained for (``legalkg.predict``)."""

    #: A question in everyday words (GerLayQA).
    LAY = "lay"
    #: Decision text (LER): a court's reasons, citing statutes.
    CASE = "case"


class PackReason(StrEnum):
    """Why a context pack holds a unit (``legalkg.context.select``); ``rank`` and ``cited_by`` of
    the unit say which § of the engine's ranking it stands for."""

    #: The whole § as the engine ranked it for the question.
    RANKED = "ranked"
    #: The Absatz or Satz of a ranked § that the engine ranks best for the question.
    PART = "part"
    #: A further Absatz or Satz of a ranked §, next in the engine's order.
    MORE = "more"
    #: A unit that a ranked § cites.
    CITED = "cited"


class Run(StrEnum):
    """The rankings the learned mode fuses (``legalkg.retrieve.learned``)."""

    PREDICTOR = "predictor"
    CITED = "cited"
    FULLTEXT = "fulltext"
    VECTOR = "vector"
    #: the law router's own signal: every § of the graph by BM25 and cosine (``predict.corpus``)
    CORPUS = "corpus"
    #: the law router's learned signal: laws scored by lay questions and their statute words
    #: (``predict.lawrouter``)
    LAWS = "laws"


class FoldRanker(StrEnum):
    """Whether each CV fold's learned engine orders its predictor's § run with a ranker of its own
    (``legalkg eval --fold-ranker``, ``legalkg.eval.folds``)."""

    #: As the shipped engine does: a ranker stacked on the fold's training cases (``ranker.fit_stacked``,
    #: what ``legalkg train --ranker-out`` runs) wherever a ranker is shipped for the task.
    SHIPPED = "shipped"
    #: No ranker in the folds: the predictor's own fused order (the engine before the ranker).
    NONE = "none"


class RankerFeatures(StrEnum):
    """Which features a trained ranker reads (``legalkg train --ranker-features``, ``legalkg eval
    --ranker-features``; the sets themselves: ``predict.ranker.RANKER_FEATURES``)."""

    #: The task's shipped design (``predict.ranker.TASK_FEATURES``).
    DEFAULT = "default"
    #: Candidates from every § of the graph, trained with the statutes' own pairs as well (lay's).
    GRAPH = "graph"
    #: ``graph`` plus the learned law router: its laws' §§ as candidates, its law score as a feature.
    ROUTER = "router"
    #: ``router`` plus each §'s best Absatz by BM25 and vector (its §§ as candidates) and its citation degrees.
    PASSAGE = "passage"
    #: ``router`` with the graph BM25 over the compound parts of the query's words no § text uses.
    COMPOUNDS = "compounds"
    #: ``router`` with the entropy of the predictor's neighbour votes (how sure its labels are).
    CONFIDENCE = "confidence"
    #: The predictor's candidates only, with its law share as a feature (case's).
    PREDICTOR = "predictor"


class GoldCount(StrEnum):
    """How gold is counted per depth (``legalkg.eval.metric``, ``legalkg eval --gold-count``)."""

    FIXED = "fixed"
    DEDUP = "dedup"
    NAMED = "named"


class EnablingStatus(StrEnum):
    """Why a reference of an ordinance's Eingangsformel reaches no unit (issue 45; the statuses of
    citations): its law is outside the graph, unknown (a former law, a title the registry does not
    know), not named at all, or the unit is missing or repealed."""

    LAW_NOT_IN_GRAPH = "law_not_in_graph"
    UNKNOWN_LAW = "unknown_law"
    NO_LAW = "no_law"
    MISSING_UNIT = "missing_unit"
    REPEALED = "repealed"

    @property
    def law_outside(self) -> bool:
        """The named law itself is not in the graph: the reference is kept as an unresolved
        ``AUTHORIZED_BY`` edge to a ``CitedLaw`` node (``graph.enabling``)."""
        return self in (EnablingStatus.LAW_NOT_IN_GRAPH, EnablingStatus.UNKNOWN_LAW)


#: What users may type for a level (lower-cased) -> the level.
LEVEL_ALIASES: dict[str, RetrievalLevel] = {
    **{lv.value.lower(): lv for lv in RetrievalLevel},
    "§": RetrievalLevel.PARAGRAPH, "para": RetrievalLevel.PARAGRAPH, "section": RetrievalLevel.PARAGRAPH,
    "abs": RetrievalLevel.ABSATZ, "subsection": RetrievalLevel.ABSATZ,
    "sentence": RetrievalLevel.SATZ, "nr": RetrievalLevel.NUMMER,
    "naive": RetrievalLevel.CHUNK, "naive-100w": RetrievalLevel.CHUNK, "naive100": RetrievalLevel.CHUNK,
}
#: ``--mode auto``: resolved by ``SearchRequest`` (``auto_mode``), never a ``Mode``.
AUTO_MODE = "auto"
#: Levels at which ``--mode auto`` picks the learned mode: those the statute predictor has labels
#: for (``legalkg.predict.LABEL_LEVELS``) and ``auto`` (ranked at § level); deeper levels and chunks
#: fall back to vector search.
LEARNED_LEVELS: tuple[RetrievalLevel, ...] = (RetrievalLevel.PARAGRAPH, RetrievalLevel.ABSATZ,
                                              RetrievalLevel.SATZ, RetrievalLevel.NUMMER, RetrievalLevel.AUTO)
#: The range of ``-k`` (seeds per query) everywhere.
K_MIN, K_MAX = 1, 1000

#: The engine's defaults, written once: what ``legalkg search``, ``SearchRequest``, ``Retriever.search``
#: and the API use. The learned mode at § level is the best measured engine for a user's question
#: (docs/retrieval.md); ``legalkg eval`` differs where it measures the paper's design card
#: (``legalkg.eval.request``, which says why).
DEFAULT_LEVEL = RetrievalLevel.PARAGRAPH
DEFAULT_MODE = Mode.LEARNED
DEFAULT_EXPANSION = Expansion.NONE
DEFAULT_K = 5


def names(enum: type[StrEnum]) -> str:
    """The values of ``enum`` as a comma list, for help texts and error messages."""
    return ", ".join(m.value for m in enum)


def parse_level(value: str | None) -> RetrievalLevel:
    """A level or one of its aliases (any case) -> the level; a one-line ``UserError`` otherwise."""
    found = LEVEL_ALIASES.get((value or "").strip().lower())
    if found is None:
        raise UserError(f"unknown level {short(value)}: choose one of {names(RetrievalLevel)} (or §, naive)")
    return found


def parse_mode(value: str | None, what: str = "retrieval mode", also: str = "") -> Mode:
    """A mode in any case -> the mode. ``what`` names it in the error, ``also`` adds choices
    the caller accepts beside the modes (e.g. ``" or all"``)."""
    return _parse(Mode, value, what, also)


def parse_expansion(value: str | None, also: str = "") -> Expansion:
    """An expansion in any case -> the expansion; a one-line ``UserError`` otherwise."""
    return _parse(Expansion, value, "expansion", also)


def _parse(enum: type[StrEnum], value: str | None, what: str, also: str) -> StrEnum:
    try:
        return enum((value or "").strip().lower())
    except ValueError:
        raise UserError(f"unknown {what} {short(value)}: choose one of {names(enum)}{also}") from None


def check_k(k: int) -> int:
    """``k`` if it is in K_MIN..K_MAX; a one-line ``UserError`` otherwise."""
    if not K_MIN <= k <= K_MAX:
        raise UserError(f"-k must be between {K_MIN} and {K_MAX}, not {k}")
    return k


def parse_task(value: str | None) -> Task | None:
    """``lay`` / ``case`` (any case) or None (the learned mode then chooses by the query's length)."""
    if value is None:
        return None
    return _parse(Task, str(value), "task", " (or leave it out: decision-length text is read as case, "
                                             "anything shorter as lay)")


def parse_gold_count(value: str | None) -> GoldCount:
    """A gold count in any case -> the enum; a one-line ``UserError`` otherwise."""
    return _parse(GoldCount, value, "gold count", "")


def parse_ranker_features(value: str | None) -> RankerFeatures:
    """``default`` / ``graph`` / ``predictor`` (any case) -> the enum; a one-line ``UserError`` otherwise."""
    return _parse(RankerFeatures, value, "ranker feature set", "")


def parse_fold_ranker(value: str | None) -> FoldRanker:
    """``shipped`` / ``none`` (any case) -> the enum; a one-line ``UserError`` otherwise."""
    return _parse(FoldRanker, value, "fold ranker", "")
