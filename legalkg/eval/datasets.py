"""Evaluation datasets -> ``EvalCase`` lists (the file-reading side of the evaluation room).

Named datasets live under ``paths.eval_dir()`` (see ``$LEGALKG_SHARED/data/eval/README.md``):

``ler_bgh``
    115 BGH decisions (LER corpus). Gold = the annotated ``norms`` (GS) spans read by the citation
    grammar (one span may hold several §§). Query = the facts section if one is found, else the
    first ``max_words`` words (LER texts have no headings, so always the latter), with the gold
    spans and the ``other_norms`` spans (Verordnung, EU norm, Verwaltungsvorschrift) masked by
    offset and any remaining citation masked by ``legalkg.cite.mask``.
``ler_courts``
    657 records of six other federal courts (BAG, BFH, BPatG, BSG, BVerfG, BVerwG; gzip JSON
    Lines), the same form and the same treatment as ``ler_bgh``. ``meta["court"]`` names the
    court, so results are given per court as well.
``gerlayqa``
    2,154 laypeople's questions with gold BGB §§; the question is the query. Its gold stops at the
    §, so it is scored at Code and § depth only (``meta["max_depth"] = 2``).
``gerlayqa_all``
    ``gerlayqa`` followed by the 1,554 questions of ``gerlayqa/train.jsonl`` (3,708 questions, no
    question shared): the issue's goal is a 5-fold CV over both (``legalkg eval --cv 5``).
``lay_beyond``
    lay questions about the default codes other than BGB (labour, criminal, traffic, tax, social
    law...) with gold §§, committed in the repository (``eval/lay-beyond/dev.jsonl`` of the
    checkout, see its README) rather than in the shared data; scored at Code and § depth only.
``bgh_strafsachen`` / ``bgh_civil``
    not available in the shared data: loading them raises a ``UserError`` naming the alternatives.

Any other argument is a path to a JSON Lines file (``.gz`` allowed). Each record is either

* generic: ``{"id", "question" | "query" | "text", "gold": [strings]}`` where a gold string is a
  citation as written ("BGB § 573", "§ 574 Abs. 2 Nr. 2 ZPO") or a node id ("BGB/§433/Abs1");
* the LER form: ``{"id", "text", "norms": [{"start", "end"}], "court"?, "other_norms"?}``, read
  like ``ler_bgh`` (a record with ``norms`` and no ``gold``); or
* an Open Legal Data case (API / bulk dump record: ``id``, ``slug``, ``court``, ``file_number``,
  ``date``, ``type``, ``ecli``, ``content`` = the decision in Legal HTML, no gold). The HTML is
  turned into text, gold = every statute citation the citation grammar finds in the whole
  decision, and the query is built from the same text like ``ler_bgh`` (Tatbestand section if
  present, citations masked).

All loaders drop gold citations without a § and report unreadable gold in ``meta``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from .. import codes, jsonl, paths
from ..cases import gold as goldmod
from ..cases.query import DEFAULT_MAX_WORDS, DEFAULT_PLACEHOLDER, build_query, html_to_text
from ..cite import extract, mask, spans
from ..errors import UserError
from ..model import Citation


class EvalCase(BaseModel):
    """One query with its gold citations; ``meta`` holds dataset-specific facts (source, depth cap)."""

    id: str
    query: str
    gold: list[Citation]
    meta: dict[str, Any] = Field(default_factory=dict)


#: Datasets with a fixed location under ``paths.eval_dir()``.
NAMED: dict[str, str] = {
    "ler_bgh": "ler_bgh/bgh_documents.jsonl",
    "ler_courts": "ler_courts/dev.jsonl.gz",
    "gerlayqa": "gerlayqa/dev.jsonl",
    "gerlayqa_all": "gerlayqa/train.jsonl",
}
#: Named datasets committed in the repository (a path below the checkout): the wheel ships no ``eval/``.
IN_REPO: dict[str, str] = {"lay_beyond": "eval/lay-beyond/dev.jsonl"}
#: Named datasets scored as one set: their cases in this order, each keeping its own dataset and
#: court (so ``--cv`` folds and the per-court rows run over all of them).
COMBINED: dict[str, tuple[str, ...]] = {"ler_all": ("ler_bgh", "ler_courts")}
#: Names users may expect from the paper that the shared data does not provide.
MISSING: dict[str, str] = {
    "bgh_strafsachen": "bgh_strafsachen/cases.jsonl",
    "bgh_civil": "bgh_civil/cases.jsonl",
}
#: Deepest evaluation depth each named dataset's gold supports.
MAX_DEPTH: dict[str, int] = {"gerlayqa": 2, "gerlayqa_all": 2, "lay_beyond": 2}


def _open_lines(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    return jsonl.records(path, "dataset file",
                         f"pass an existing JSONL path or one of {', '.join(NAMED)}")


def dataset_name(path: Path) -> str:
    """'cases.jsonl.gz' -> 'cases': the name a dataset file gets in the results."""
    name = path.name
    for suffix in (".gz", ".jsonl", ".json"):
        name = name.removesuffix(suffix)
    return name or path.name


def _spans(rec: dict[str, Any], key: str, text: str, where: str) -> list[tuple[int, int]]:
    """The [start, end) character spans of ``rec[key]``, checked against ``text``; one line per problem."""
    items = rec.get(key, [])
    if not isinstance(items, list):
        raise UserError(f"{where}: '{key}' must be a list of {{start, end}} objects, not {type(items).__name__}")
    out = []
    for i, n in enumerate(items):
        start = n.get("start") if isinstance(n, dict) else None
        end = n.get("end") if isinstance(n, dict) else None
        if not (isinstance(start, int) and isinstance(end, int)):
            raise UserError(f"{where}: {key}[{i}] needs integer 'start' and 'end' character offsets")
        if not 0 <= start < end <= len(text):
            raise UserError(f"{where}: {key}[{i}] span {start}..{end} lies outside the text "
                            f"({len(text)} characters): offsets must index into 'text', end exclusive")
        out.append((start, end))
    return out


def _case_from_ler(rec: dict[str, Any], where: str, dataset: str, *, max_words: int | None, placeholder: str,
                   registry: Any) -> EvalCase:
    """One record of the LER form: gold from its ``norms`` spans, query = masked facts or first words."""
    text = rec.get("text")
    if not isinstance(text, str):
        raise UserError(f"{where}: an LER record needs the decision as a 'text' string")
    gold_spans = _spans(rec, "norms", text, where)
    other_spans = _spans(rec, "other_norms", text, where)
    parsed = goldmod.parse_gold_spans(text, gold_spans, registry)
    q = build_query(text, gold_spans + other_spans, max_words=max_words, placeholder=placeholder,
                    mask=lambda t, p: mask(t, p, registry))
    court = rec.get("court")
    return EvalCase(id=str(rec.get("id") or where), query=q.text, gold=parsed.citations, meta={
        "dataset": dataset, "query_source": q.source, "query_words": q.n_words,
        "n_spans": len(gold_spans), "unparsed_gold": parsed.unparsed,
        "court": str(court) if court else None})


def load_ler(path: Path, dataset: str | None = None, *, max_words: int | None = DEFAULT_MAX_WORDS,
             placeholder: str = DEFAULT_PLACEHOLDER, registry: Any = None) -> list[EvalCase]:
    """A file of the LER form (``ler_bgh``, ``ler_courts``; ``.gz`` allowed) -> cases."""
    dataset = dataset or dataset_name(path)
    return [_case_from_ler(rec, f"{path.name}:{lineno}", dataset, max_words=max_words, placeholder=placeholder,
                           registry=registry)
            for lineno, rec in _open_lines(path)]


def load_ler_bgh(path: Path | None = None, *, max_words: int | None = DEFAULT_MAX_WORDS,
                 placeholder: str = DEFAULT_PLACEHOLDER, registry: Any = None) -> list[EvalCase]:
    """The LER BGH decisions: gold from the GS spans, query = masked facts or first words."""
    return load_ler(path or paths.eval_dir() / NAMED["ler_bgh"], "ler_bgh", max_words=max_words,
                    placeholder=placeholder, registry=registry)


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
    content = rec.get("content") or ""
    if not isinstance(content, str):
        raise UserError(f"{where}: 'content' must be the decision as an HTML string, not {type(content).__name__}")
    text = html_to_text(content)
    matches = extract(text, registry=registry)
    cits: dict[Citation, None] = {}
    for m in matches:
        c = m.citation
        if m.law_key and c.para:
            cits.setdefault(c, None)
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
            if not isinstance(gold_items, list):
                raise UserError(f"{where}: 'gold' must be a list of citation strings")
            parsed = goldmod.parse_gold_strings(gold_items, registry)
            cases.append(EvalCase(id=str(rec.get("id", where)), query=query, gold=parsed.citations,
                                  meta={"dataset": dataset_name(path), "unparsed_gold": parsed.unparsed,
                                        "court": str(rec["court"]) if rec.get("court") else None}))
        elif "norms" in rec:
            cases.append(_case_from_ler(rec, where, dataset_name(path), max_words=max_words,
                                        placeholder=placeholder, registry=registry))
        elif "content" in rec:
            cases.append(_case_from_old(rec, where, max_words=max_words, placeholder=placeholder,
                                        registry=registry))
        else:
            raise UserError(f"{where}: record has neither 'gold' (generic format), 'norms' (LER form) nor "
                            "'content' (Open Legal Data case); see docs/evaluation.md for the formats")
    return cases


def in_repo_path(name: str) -> Path:
    """The committed file of an ``IN_REPO`` dataset. Only a source checkout holds it, so an installed
    package answers with one line naming the file and how to pass it instead."""
    root, rel = paths.checkout(), IN_REPO[name]
    if root is None:
        raise UserError(f"dataset {name!r} is the file {rel} of the legalkg source checkout, which an installed "
                        "package does not ship: run legalkg from a checkout, or pass --dataset PATH to a copy of "
                        "that file")
    path = root / rel
    if not path.is_file():
        raise UserError(f"dataset {name!r}: {path} does not exist: restore it from git "
                        f"(git checkout -- {rel}) or pass --dataset PATH")
    return path


def load_in_repo(name: str, *, registry: Any = None) -> list[EvalCase]:
    """An ``IN_REPO`` dataset: generic JSONL, named ``name`` in the results and capped at its depth."""
    meta = {"dataset": name, "max_depth": MAX_DEPTH[name]}
    return [c.model_copy(update={"meta": {**c.meta, **meta}})
            for c in load_jsonl(in_repo_path(name), registry=registry)]


def load_dataset(name_or_path: str | Path, *, max_words: int | None = DEFAULT_MAX_WORDS,
                 placeholder: str = DEFAULT_PLACEHOLDER, registry: Any = None) -> list[EvalCase]:
    """A named dataset (``ler_bgh``, ``ler_courts``, ``gerlayqa``, ``ler_all``: the two LER sets as one,
    ``lay_beyond``: committed in the checkout) or a JSONL path -> cases."""
    name = str(name_or_path)
    if name in IN_REPO:
        return load_in_repo(name, registry=registry)
    if name in COMBINED:
        return [c for part in COMBINED[name]
                for c in load_dataset(part, max_words=max_words, placeholder=placeholder, registry=registry)]
    if name in NAMED:
        if name == "gerlayqa":
            return load_gerlayqa(registry=registry)
        if name == "gerlayqa_all":  # dev, then the train file (NAMED holds the second part)
            return load_gerlayqa(registry=registry) + load_gerlayqa(paths.eval_dir() / NAMED[name],
                                                                    registry=registry)
        return load_ler(paths.eval_dir() / NAMED[name], name, max_words=max_words, placeholder=placeholder,
                        registry=registry)
    if name in MISSING:
        missing = paths.eval_dir() / MISSING[name]
        if not missing.exists():
            raise UserError(f"dataset {name!r} is not in the shared data ({missing} does not exist); "
                            f"use ler_bgh (BGH decisions), ler_courts or gerlayqa, or pass --dataset PATH "
                            "to a JSONL file")
        return load_jsonl(missing, max_words=max_words, placeholder=placeholder, registry=registry)
    path = Path(name).expanduser()
    if not path.exists():
        raise UserError(f"unknown dataset {name!r}: use one of {', '.join([*NAMED, *COMBINED, *IN_REPO])} or a "
                        "path to a JSONL file")
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
