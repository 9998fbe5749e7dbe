"""Evaluation datasets -> ``EvalCase`` lists (the file-reading side of the evaluation room).

Named datasets live under ``paths.eval_dir()`` (see /work/shared/data/eval/README.md):

``ler_bgh``
    115 BGH decisions (LER corpus). Gold = the annotated ``norms`` (GS) spans read by the citation
    grammar (one span may hold several §§). Query = the facts section if one is found, else the
    first ``max_words`` words (LER texts have no headings, so always the latter), with the gold
    spans and the ``other_norms`` spans (Verordnung, EU norm, Verwaltungsvorschrift) masked by
    offset and any remaining citation masked by ``legalkg.cite.mask``.
``gerlayqa``
    2,154 laypeople's questions with gold BGB §§; the question is the query. Its gold stops at the
    §, so it is scored at Code and § depth only (``meta["max_depth"] = 2``).
``bgh_strafsachen`` / ``bgh_civil``
    not available in the shared data: loading them raises a ``UserError`` naming the alternatives.

Any other argument is a path to a JSON Lines file (``.gz`` allowed). Each record is either

* generic: ``{"id", "question" | "query" | "text", "gold": [strings]}`` where a gold string is a
  citation as written ("BGB § 573", "§ 574 Abs. 2 Nr. 2 ZPO") or a node id ("BGB/§433/Abs1"); or
* an Open Legal Data case (API / bulk dump record: ``id``, ``slug``, ``court``, ``file_number``,
  ``date``, ``type``, ``ecli``, ``content`` = the decision in Legal HTML, no gold). The HTML is
  turned into text, gold = every statute citation the citation grammar finds in the whole
  decision, and the query is built from the same text like ``ler_bgh`` (Tatbestand section if
  present, citations masked).

All loaders drop gold citations without a § and report unreadable gold in ``meta``.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from .. import codes, paths
from ..errors import UserError
from ..model import Citation
from . import gold as goldmod
from .query import DEFAULT_MAX_WORDS, DEFAULT_PLACEHOLDER, build_query, html_to_text


class EvalCase(BaseModel):
    """One query with its gold citations; ``meta`` holds dataset-specific facts (source, depth cap)."""

    id: str
    query: str
    gold: list[Citation]
    meta: dict[str, Any] = Field(default_factory=dict)


#: Datasets with a fixed location under ``paths.eval_dir()``.
NAMED: dict[str, str] = {
    "ler_bgh": "ler_bgh/bgh_documents.jsonl",
    "gerlayqa": "gerlayqa/dev.jsonl",
}
#: Names users may expect from the paper that the shared data does not provide.
MISSING: dict[str, str] = {
    "bgh_strafsachen": "bgh_strafsachen/cases.jsonl",
    "bgh_civil": "bgh_civil/cases.jsonl",
}
#: Deepest evaluation depth each named dataset's gold supports.
MAX_DEPTH: dict[str, int] = {"gerlayqa": 2}


def _open_lines(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rt", encoding="utf-8") as fh:  # type: ignore[operator]
            for lineno, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError as err:
                    raise UserError(f"{path}:{lineno}: not valid JSON ({err.msg}); the dataset must be "
                                    "JSON Lines, one object per line") from None
                if not isinstance(rec, dict):
                    raise UserError(f"{path}:{lineno}: each line must be a JSON object")
                yield lineno, rec
    except FileNotFoundError:
        raise UserError(f"dataset file not found: {path}; pass an existing JSONL path or one of "
                        f"{', '.join(NAMED)}") from None


def _cite_mask():
    from ..cite import mask  # lazy: only query construction needs the grammar

    return mask


def load_ler_bgh(path: Path | None = None, *, max_words: int | None = DEFAULT_MAX_WORDS,
                 placeholder: str = DEFAULT_PLACEHOLDER, registry: Any = None) -> list[EvalCase]:
    """The LER BGH decisions: gold from the GS spans, query = masked facts or first words."""
    path = path or paths.eval_dir() / NAMED["ler_bgh"]
    mask = _cite_mask()
    cases: list[EvalCase] = []
    for _, rec in _open_lines(path):
        text = rec["text"]
        gold_spans = [(n["start"], n["end"]) for n in rec.get("norms", [])]
        other_spans = [(n["start"], n["end"]) for n in rec.get("other_norms", [])]
        parsed = goldmod.parse_gold_spans(text, gold_spans, registry)
        q = build_query(text, gold_spans + other_spans, max_words=max_words, placeholder=placeholder,
                        mask=lambda t, p: mask(t, p, registry))
        cases.append(EvalCase(id=rec["id"], query=q.text, gold=parsed.citations, meta={
            "dataset": "ler_bgh", "query_source": q.source, "query_words": q.n_words,
            "n_spans": len(gold_spans), "unparsed_gold": parsed.unparsed, "court": rec.get("court")}))
    return cases


def load_gerlayqa(path: Path | None = None, *, registry: Any = None) -> list[EvalCase]:
    """GerLayQA dev questions; scored at Code and § depth only."""
    path = path or paths.eval_dir() / NAMED["gerlayqa"]
    cases = []
    for _, rec in _open_lines(path):
        parsed = goldmod.parse_gold_strings(rec["gold"], registry)
        cases.append(EvalCase(id=rec["id"], query=rec["question"], gold=parsed.citations, meta={
            "dataset": "gerlayqa", "max_depth": MAX_DEPTH["gerlayqa"],
            "unparsed_gold": parsed.unparsed}))
    return cases


def _case_from_old(rec: dict[str, Any], where: str, *, max_words: int | None, placeholder: str,
                   registry: Any) -> EvalCase:
    from ..cite import extract, spans

    text = html_to_text(rec.get("content") or "")
    matches = extract(text, registry=registry)
    cits: dict[Citation, None] = {}
    for m in matches:
        c = m.citation
        if m.law_key and c.para:
            cits.setdefault(c, None)
    mask = _cite_mask()
    q = build_query(text, spans(matches), max_words=max_words, placeholder=placeholder,
                    mask=lambda t, p: mask(t, p, registry))
    court = rec.get("court")
    court_name = court.get("name") if isinstance(court, dict) else court
    return EvalCase(id=str(rec.get("id") or rec.get("slug") or where), query=q.text, gold=list(cits), meta={
        "dataset": "openlegaldata", "query_source": q.source, "query_words": q.n_words,
        "court": court_name, "file_number": rec.get("file_number"), "date": rec.get("date"),
        "unparsed_gold": []})


def load_jsonl(path: Path, *, max_words: int | None = DEFAULT_MAX_WORDS,
               placeholder: str = DEFAULT_PLACEHOLDER, registry: Any = None) -> list[EvalCase]:
    """A user JSONL file: generic ``{id, question|query|text, gold}`` or Open Legal Data records."""
    cases: list[EvalCase] = []
    for lineno, rec in _open_lines(path):
        where = f"{path.name}:{lineno}"
        if "gold" in rec:
            query = next((rec[k] for k in ("question", "query", "text") if isinstance(rec.get(k), str)), None)
            if query is None:
                raise UserError(f"{where}: record has gold but no 'question', 'query' or 'text' string")
            gold_items = rec["gold"]
            if isinstance(gold_items, str):
                gold_items = [gold_items]
            parsed = goldmod.parse_gold_strings(gold_items, registry)
            cases.append(EvalCase(id=str(rec.get("id", where)), query=query, gold=parsed.citations,
                                  meta={"dataset": path.stem, "unparsed_gold": parsed.unparsed}))
        elif "content" in rec:
            cases.append(_case_from_old(rec, where, max_words=max_words, placeholder=placeholder,
                                        registry=registry))
        else:
            raise UserError(f"{where}: record has neither 'gold' (generic format) nor 'content' "
                            "(Open Legal Data case); see docs/evaluation.md for the formats")
    return cases


def load_dataset(name_or_path: str | Path, *, max_words: int | None = DEFAULT_MAX_WORDS,
                 placeholder: str = DEFAULT_PLACEHOLDER, registry: Any = None) -> list[EvalCase]:
    """A named dataset (``ler_bgh``, ``gerlayqa``) or a JSONL path -> cases."""
    name = str(name_or_path)
    if name in NAMED:
        if name == "gerlayqa":
            return load_gerlayqa(registry=registry)
        return load_ler_bgh(max_words=max_words, placeholder=placeholder, registry=registry)
    if name in MISSING:
        missing = paths.eval_dir() / MISSING[name]
        if not missing.exists():
            raise UserError(f"dataset {name!r} is not in the shared data ({missing} does not exist); "
                            f"use ler_bgh (BGH decisions) or gerlayqa, or pass --dataset PATH to a JSONL file")
        return load_jsonl(missing, max_words=max_words, placeholder=placeholder, registry=registry)
    path = Path(name).expanduser()
    if not path.exists():
        raise UserError(f"unknown dataset {name!r}: use one of {', '.join(NAMED)} or a path to a JSONL file")
    return load_jsonl(path, max_words=max_words, placeholder=placeholder, registry=registry)


def default_law_keys() -> set[str]:
    """Law keys of the 58 default codes (the laws of a default graph)."""
    return {c.cited for c in codes.default_codes()}


class Coverage(BaseModel):
    n_gold: int
    n_covered: int
    share: float
    uncovered_laws: dict[str, int] = Field(default_factory=dict, description="law -> gold count")


def coverage(cases: Sequence[EvalCase], law_keys: Iterable[str]) -> Coverage:
    """The share of gold citations whose law is in ``law_keys`` (the paper: 90.3 %)."""
    keys = set(law_keys)
    n = covered = 0
    outside: dict[str, int] = {}
    for case in cases:
        for c in case.gold:
            n += 1
            if c.law in keys:
                covered += 1
            else:
                outside[c.law] = outside.get(c.law, 0) + 1
    share = covered / n if n else float("nan")
    return Coverage(n_gold=n, n_covered=covered, share=share,
                    uncovered_laws=dict(sorted(outside.items(), key=lambda kv: -kv[1])))


def restrict_to_laws(cases: Sequence[EvalCase], law_keys: Iterable[str]) -> list[EvalCase]:
    """Cases with gold restricted to ``law_keys``; cases left without gold are dropped."""
    keys = set(law_keys)
    out = []
    for case in cases:
        kept = goldmod.restrict(case.gold, keys)
        if kept:
            out.append(case.model_copy(update={"gold": kept}))
    return out
