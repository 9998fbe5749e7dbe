"""What the static encoder learns from: the statute texts and the pairs the statute tree gives.

Why from the parsed XML and not from the graph: the same pairs the graph holds (a Satz and its §,
a § and its title, a unit and the unit it cites) come out of ``legalkg.parse`` and
``legalkg.cite`` without a running Neo4j, so ``legalkg train-encoder`` needs only the shared data.
Graph pairs contain no evaluation case, so they are free to use; questions and decisions are added
by ``questions_pairs`` from training files only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..cite import KnownUnits, LawRegistry, statute_edges
from ..codes import default_codes
from ..model import TEXT_LEVELS, Law, Level
from ..parse import iter_laws
from ..parse.errors import ParseError

#: Pair kinds (``Pair.kind``), in the order the training report lists them.
PAIR_KINDS = ("satz_para", "title_text", "cites", "question")


@dataclass(frozen=True)
class Pair:
    """Two texts that should be close: ``a`` (the shorter side or the query) and ``b``."""

    a: str
    b: str
    kind: str


@dataclass
class Corpus:
    """Unit texts by id (the graph's texts) and the § titles, of the laws read."""

    texts: dict[str, str] = field(default_factory=dict)
    titles: dict[str, str] = field(default_factory=dict)
    parent: dict[str, str] = field(default_factory=dict)
    laws: list[Law] = field(default_factory=list)


def read_corpus(slugs: Sequence[str] | None = None, source: str | Path | None = None) -> Corpus:
    """Parse the laws: ``slugs`` of the gii folder (None: the 58 default codes)."""
    corpus = Corpus()
    chosen = list(slugs) if slugs is not None else [c.slug for c in default_codes()]
    for _slug, law in iter_laws(source, chosen):
        if isinstance(law, ParseError):
            continue
        corpus.laws.append(law)
        for unit in law.units:
            corpus.parent[unit.id] = unit.parent_id
            if unit.repealed or unit.level not in TEXT_LEVELS or not unit.text.strip():
                continue
            corpus.texts[unit.id] = unit.text
            if unit.level == Level.PARAGRAPH and unit.title and unit.title.strip():
                corpus.titles[unit.id] = unit.title.strip()
    return corpus


def paragraph_of(uid: str, parent: dict[str, str], texts: dict[str, str]) -> str | None:
    """The § (or Art.) a unit lies in: the highest text unit on its path (pure)."""
    best = None
    node = uid
    while node in parent:
        if node in texts and "/" in node:
            best = node
        node = parent[node]
        if node == uid:
            break
    return best if best != uid else None


def tree_pairs(corpus: Corpus) -> list[Pair]:
    """Satz (and Absatz, Nummer) <-> its § text, and § title <-> § text."""
    out: list[Pair] = []
    for uid, text in corpus.texts.items():
        para = paragraph_of(uid, corpus.parent, corpus.texts)
        if para is not None and corpus.texts[para] != text:
            out.append(Pair(text, corpus.texts[para], "satz_para"))
    out.extend(Pair(title, corpus.texts[pid], "title_text") for pid, title in corpus.titles.items()
               if pid in corpus.texts)
    return out


def citation_pairs(corpus: Corpus) -> list[Pair]:
    """A unit <-> the unit it cites (the graph's ``CITES_*`` edges), both with text."""
    known = KnownUnits(set(corpus.texts))
    registry = LawRegistry.default()
    out: list[Pair] = []
    for law in corpus.laws:
        edges, _ = statute_edges(law, registry, known)
        for e in edges:
            a, b = corpus.texts.get(e.source_id), corpus.texts.get(e.target_id)
            if a and b and a != b:
                out.append(Pair(a, b, "cites"))
    return out


def question_pairs(examples: Iterable, texts: dict[str, str]) -> list[Pair]:
    """A training question or decision <-> each § it cites (``predict.Example``s; § level only,
    as the labels also name the Absätze below)."""
    out: list[Pair] = []
    for ex in examples:
        for label in ex.labels:
            if label.count("/") == 1 and label in texts:
                out.append(Pair(ex.text, texts[label], "question"))
    return out
