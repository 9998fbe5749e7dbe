"""The BGB as retrieval targets (§§) and base units (subsection, sentence, proposition) (pure).

Decisions (docs/chunking-study.md):
- Targets are the non-repealed §§ of the law (``BGB/§433``); repealed ones are not indexed.
- Subsection = an Absatz; a § without numbered Absätze is its own single subsection.
- Sentence = a Satz as the parser cuts it (a list belongs to the Satz that introduces it).
- Proposition = ``propositionize`` of each Satz (lead-in + each Nummer / Buchstabe, else whole).
- Section text for indexing = '§ heading' + the § text, the base units are the plain statute text;
  the contextual strategies add the breadcrumb prefix (``context.context_prefix``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import NamedTuple

from pydantic import BaseModel

from legalkg.model import Law, Level, Unit

from .context import context_prefix, section_heading
from .propositions import Item, propositionize

_ITEM_LEVELS = (Level.NUMMER, Level.BUCHSTABE, Level.DOPPELBUCHSTABE)


class BaseUnit(NamedTuple):
    """One indexable piece of text and the § it belongs to."""

    id: str
    section: str
    text: str


class Corpus(BaseModel):
    """Everything the strategies need from one parsed law, in document order."""

    law: str
    sections: list[BaseUnit]  # id == section
    subsections: list[BaseUnit]
    sentences: list[BaseUnit]
    propositions: list[BaseUnit]
    prefixes: dict[str, str]  # section id -> breadcrumb > § heading
    titles: dict[str, str]

    def base(self, kind: str) -> list[BaseUnit]:
        """Base units by name: 'section', 'subsection', 'sentence', 'proposition'."""
        return {"section": self.sections, "subsection": self.subsections,
                "sentence": self.sentences, "proposition": self.propositions}[kind]


def _items(unit: Unit, children: dict[str, list[Unit]]) -> tuple[Item, ...]:
    return tuple(Item(c.label or "", c.text, _items(c, children))
                 for c in children[unit.id] if c.level in _ITEM_LEVELS)


def _section_of(unit: Unit, by_id: dict[str, Unit]) -> str | None:
    cur: Unit | None = unit
    while cur is not None and cur.level != Level.PARAGRAPH:
        cur = by_id.get(cur.parent_id)
    return cur.id if cur is not None else None


def build_corpus(law: Law, sections: set[str] | None = None,
                 split: Callable[[str, tuple[Item, ...]], list[str]] = propositionize) -> Corpus:
    """Targets and base units of ``law``; ``sections`` (ids) restricts it to a slice.

    ``split`` turns one Satz (text, its list items) into propositions: the deterministic
    ``propositionize`` by default, an LLM with ``chunking-study --llm`` (``llm.llm_propositions``).
    """
    by_id = law.by_id()
    children: dict[str, list[Unit]] = defaultdict(list)
    for u in law.units:
        children[u.parent_id].append(u)

    def keep(u: Unit) -> bool:
        return (u.level == Level.PARAGRAPH and not u.repealed and bool(u.text.strip())
                and u.text.strip() not in ("(weggefallen)", "-")
                and (sections is None or u.id in sections))

    paras = [u for u in law.units if keep(u)]
    kept = {p.id for p in paras}
    secs, subs, sents, props = [], [], [], []
    for p in paras:
        secs.append(BaseUnit(p.id, p.id, f"{section_heading(p)}\n{p.text}"))
        absaetze = [c for c in children[p.id] if c.level == Level.ABSATZ and c.text.strip()]
        if absaetze:
            subs.extend(BaseUnit(a.id, p.id, a.text) for a in absaetze)
        else:
            subs.append(BaseUnit(p.id, p.id, p.text))
    for u in law.units:
        if u.level != Level.SATZ or not u.text.strip():
            continue
        sec = _section_of(u, by_id)
        if sec not in kept:
            continue
        sents.append(BaseUnit(u.id, sec, u.text))
        for i, text in enumerate(split(u.text, _items(u, children)), 1):
            props.append(BaseUnit(f"{u.id}/P{i}", sec, text))
    # a § whose text the sentence splitter left without Sätze still needs sentence/proposition units
    covered = {s.section for s in sents}
    for p in paras:
        if p.id not in covered:
            sents.append(BaseUnit(p.id, p.id, p.text))
            props.append(BaseUnit(f"{p.id}/P1", p.id, p.text))
    order = {p.id: i for i, p in enumerate(paras)}
    sents.sort(key=lambda b: order[b.section])
    props.sort(key=lambda b: order[b.section])
    return Corpus(law=law.key, sections=secs, subsections=subs, sentences=sents, propositions=props,
                  prefixes={p.id: context_prefix(by_id, p.id) for p in paras},
                  titles={p.id: p.title or "" for p in paras})
