"""Training examples from lay-question JSONL or LER-form decisions: text in, cited unit ids out.

Two forms, one result (``Example``):

* lay: ``{id, question, gold}``; gold strings as written ("BGB § 551") or node ids.
* case (LER form): ``{id, text, norms: [{start, end, text}], other_norms?, court?}``, ``.gz``
  allowed. The gold spans (and ``other_norms``) are masked out of the text by offset and every
  citation the grammar still finds is masked too, exactly as ``legalkg eval`` builds its queries,
  or the model would learn to read the answer off the input.

Labels are graph ids: each gold citation resolved with ``legalkg.cite.resolve`` to the most
specific unit that exists, plus that unit's ancestors down to the §. So "§ 574 Abs. 2 Nr. 2 ZPO"
labels ``ZPO/§574``, ``ZPO/§574/Abs2``, ``ZPO/§574/Abs2/S1`` and ``ZPO/§574/Abs2/S1/Nr2``, and
"BGB § 551" labels only ``BGB/§551``: deeper where the gold is deeper. Without known ids the
citation's own id is used (tests, data whose laws are not parsed).
"""

from __future__ import annotations

from collections.abc import Container, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .. import jsonl
from ..cases.gold import parse_gold_spans, parse_gold_strings
from ..cases.query import DEFAULT_MAX_WORDS, DEFAULT_PLACEHOLDER, build_query
from ..cite import mask, resolve
from ..errors import UserError
from ..model import Citation, level_of_id
from .labels import LABEL_LEVELS

TASKS: tuple[str, ...] = ("lay", "case")
#: Chunked courts (no decision boundaries in the source) are grouped in runs of this many
#: consecutive chunks, so neighbouring chunks of one decision rarely land in two CV folds.
CHUNK_GROUP = 5


@dataclass(frozen=True)
class Example:
    """One training or evaluation case. ``gold`` keeps the citations as written (for scoring);
    ``labels`` are the unit ids the predictor learns."""

    id: str
    text: str
    labels: tuple[str, ...]
    gold: tuple[Citation, ...]
    group: str
    court: str | None = None


@dataclass
class TrainingSet:
    task: str
    examples: list[Example]
    sources: list[str] = field(default_factory=list)
    unresolved: int = 0


def _records(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    return jsonl.records(path, "training file", "pass an existing JSONL file (.gz allowed)")


def record_task(rec: dict[str, Any]) -> str | None:
    """'lay' for a ``question`` record, 'case' for the LER form, None for neither."""
    if isinstance(rec.get("question"), str):
        return "lay"
    if isinstance(rec.get("text"), str) and isinstance(rec.get("norms"), list):
        return "case"
    return None


def label_ids(citations: Sequence[Citation], known_ids: Container[str] | None) -> tuple[list[str], int]:
    """(distinct label ids at every label level, number of citations that resolve to no unit)."""
    out: dict[str, None] = {}
    missing = 0
    for cit in citations:
        uid = resolve(cit, known_ids) if known_ids is not None else cit.to_id()
        if uid is None:
            missing += 1
            continue
        parts = uid.split("/")
        for end in range(2, len(parts) + 1):
            prefix = "/".join(parts[:end])
            try:
                level = level_of_id(prefix)
            except ValueError:
                continue
            if level in LABEL_LEVELS:
                out.setdefault(prefix, None)
    return list(out), missing


def _group(rec: dict[str, Any], rid: str, index: int) -> str:
    if rec.get("segmentation") == "chunk40":
        return f"{rec.get('court') or 'chunks'}:{index // CHUNK_GROUP}"
    return rid


def _lay_example(rec: dict[str, Any], where: str, known_ids: Container[str] | None) -> tuple[Example, int]:
    gold = rec.get("gold")
    if isinstance(gold, str):
        gold = [gold]
    if not isinstance(gold, list):
        raise UserError(f"{where}: a lay record needs 'gold', a list of citations such as \"BGB § 551\"")
    cits = parse_gold_strings(gold).citations
    labels, missing = label_ids(cits, known_ids)
    rid = str(rec.get("id", where))
    return Example(rid, rec["question"], tuple(labels), tuple(cits), rid), missing


def _case_example(rec: dict[str, Any], where: str, index: int, known_ids: Container[str] | None,
                  max_words: int | None) -> tuple[Example, int]:
    text = rec["text"]
    try:
        gold_spans = [(int(n["start"]), int(n["end"])) for n in rec["norms"]]
        other = [(int(n["start"]), int(n["end"])) for n in rec.get("other_norms") or []]
    except (KeyError, TypeError, ValueError):
        raise UserError(f"{where}: every 'norms' entry needs integer 'start' and 'end' offsets "
                        "(the LER form)") from None
    if any(not 0 <= s <= e <= len(text) for s, e in gold_spans + other):
        raise UserError(f"{where}: a norm span lies outside the text; offsets are character offsets into 'text'")
    cits = parse_gold_spans(text, gold_spans).citations
    query = build_query(text, gold_spans + other, max_words=max_words, placeholder=DEFAULT_PLACEHOLDER,
                        mask=mask)
    labels, missing = label_ids(cits, known_ids)
    rid = str(rec.get("id", where))
    court = rec.get("court")
    return Example(rid, query.text, tuple(labels), tuple(cits), _group(rec, rid, index),
                   court if isinstance(court, str) else None), missing


def load_examples(data: Sequence[str | Path], task: str | None = None, known_ids: Container[str] | None = None,
                  *, max_words: int | None = DEFAULT_MAX_WORDS) -> TrainingSet:
    """Read every file, detect (or check) the task, and keep the examples that have a label.

    Raises ``UserError`` (one line) for a missing or unreadable file, a record of the wrong form,
    files of two tasks, a file without records, or data in which no record has usable gold.
    """
    if not data:
        raise UserError("no training data: pass --data PATH (repeatable)")
    if task is not None and task not in TASKS:
        raise UserError(f"unknown task {task!r}: use one of {', '.join(TASKS)}")
    chosen = task
    examples: list[Example] = []
    unresolved = 0
    for item in data:
        path = Path(item).expanduser()
        n_file = 0
        for lineno, rec in _records(path):
            where = f"{path}:{lineno}"
            kind = record_task(rec)
            if kind is None:
                raise UserError(f"{where}: neither a lay record (a 'question' string and 'gold') nor the LER "
                                "form ('text' and a 'norms' list)")
            if chosen is None:
                chosen = kind
            elif kind != chosen:
                raise UserError(f"{where}: a {kind} record in {chosen} data; train one task per run "
                                "(--task lay|case) and pass files of that form only")
            if kind == "lay":
                ex, missing = _lay_example(rec, where, known_ids)
            else:
                ex, missing = _case_example(rec, where, n_file, known_ids, max_words)
            n_file += 1
            unresolved += missing
            if ex.labels:
                examples.append(ex)
        if n_file == 0:
            raise UserError(f"{path}: no records; a training file holds one JSON object per line")
    if not examples:
        raise UserError(f"no record in {', '.join(map(str, data))} has gold that resolves to a statute unit; "
                        "check the gold citations (e.g. \"BGB § 551\") and the laws loaded")
    assert chosen is not None
    return TrainingSet(chosen, examples, [str(d) for d in data], unresolved)


def resolve_labels(data: TrainingSet, known_ids: Container[str]) -> TrainingSet:
    """The same examples with labels resolved against ``known_ids`` (the units of the graph or of
    the parsed laws); examples left without a label are dropped. Lets a caller check the files
    before it pays for parsing the statutes."""
    examples: list[Example] = []
    unresolved = 0
    for ex in data.examples:
        labels, missing = label_ids(ex.gold, known_ids)
        unresolved += missing
        if labels:
            examples.append(replace(ex, labels=tuple(labels)))
    if not examples:
        raise UserError(f"no gold citation in {', '.join(data.sources)} names a unit of the loaded laws; "
                        "load the laws the data cites (--laws)")
    return TrainingSet(data.task, examples, data.sources, unresolved)
