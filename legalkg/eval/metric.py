r"""Depth-stratified citation recall and token-efficiency recall (ToER): the pure metric core.

Why this metric: raw recall grows with chunk size (a whole § trivially "contains" its Sätze), so
granularities can only be compared once recall is normalised by the text it costs. The paper
(structure-driven legal KG, sect. 3.2.3) calls this ToER, recall per 1,000 words of chunk.

Definitions (everything here is a pure function of tuples and numbers; no I/O):

**Citation tuple.** ``model.Citation`` = (Code, §, Absatz, Satz, Nummer, Buchstabe[, DBst]);
``None`` = not specified. Evaluation depth :math:`d \in \{1..6\}` (``model.DEPTHS``: Code, §,
Absatz, Satz, Nummer, Buchstabe) keeps the first *d* fields.

**Match at depth d** (prefix rule with implicit hits)::

    Match_d(r, g) = 1  iff  for every level i < d:  r[i] is None or g[i] is None or r[i] == g[i]

A level left unspecified in either tuple is an implicit hit: gold "§ 433 BGB" (no Absatz) is hit
at Absatz depth by any retrieved unit of § 433; gold "§ 574 Abs. 2 Nr. 2 ZPO" (no Satz) is hit by
``ZPO/§574/Abs2/S1/Nr2``; a gold citation deeper than the retrieved unit (gold Satz 2, retrieved
the whole Absatz) is hit, because the Absatz *contains* that Satz. Values of levels below the
law are compared after removing spaces and lower-casing ("2 a" == "2a"); law keys compare
exactly. ``Match_d`` is monotone in *d*, so :func:`match_depth` returns the deepest matching depth
and ``Match_d(r, g) == (match_depth(r, g) >= d)``.

**Retrieved citations** :math:`R_k`: ``model.decode_id`` of the ids of the top-*k* hits and of
their expansion nodes. Units above the § (Gesetz, Gliederung) carry no citation and are ignored:
a Gliederung would otherwise decode to (Code) alone and implicitly hit every gold citation of its
code at every depth.

**Per-case recall** with gold set *G* (duplicates removed)::

    hits_d(case)  = |{ g in G : exists r in R_k with Match_d(r, g) }|
    Recall_d      = hits_d / |G|

**Micro** (headline) = sum over cases of hits_d / sum of |G|;
**macro** = mean over cases (with |G| > 0) of the per-case recall.

**Counting gold per depth** (``GOLD_COUNTS``, ``legalkg eval --gold-count``). The paper says "both
citations are truncated at the evaluation depth" but not how gold is counted after truncation,
and its Satz row *rises* from Satz to Nummer depth (1.53 -> 2.79), which the fixed count cannot
do. Three ways, each with its own gold set :math:`G_d` per depth::

    fixed  G_d = G                                      (default; |G_d| constant, Recall_d never rises)
    dedup  G_d = { trunc_d(g) : g in G }                (distinct after truncation to depth d)
    named  G_d = { g in G : g names level d }           (g[d] is not None)

    hits_d   = |{ t in G_d : exists r in R_k with Match_d(r, t) }|
    Recall_d = hits_d / |G_d|            micro: sum hits_d / sum |G_d|

With ``dedup`` the gold "§ 573 Abs. 1" and "§ 573 Abs. 2" count once at § depth and twice from
Absatz on; with ``named`` a gold "§ 573 BGB" counts at Code and § depth only, and "§ 574 Abs. 2
Nr. 2 ZPO" (no Satz) counts at every depth but Satz and Buchstabe. ``Match_d(r, trunc_d(g)) ==
Match_d(r, g)``, so the hits of a truncated gold are those of any gold it came from. A case whose
|G_d| is 0 adds nothing to micro recall at d and is left out of macro recall at d.

**ToER** (per 1,000 words)::

    ToER_d   = Recall_d / (W_l / 1000)       W_l   = mean words per unit at level l, whole corpus
    ToER^m_d = Recall_d / (W^m_l / 1000)     W^m_l = mean words delivered per unit incl. expansion

``W_l`` (:func:`mean_words`) is a property of the chunking scheme: constant across queries, k and
expansion. ``W^m_l`` (:func:`mean_delivered_words_corpus`) is the paper's definition: for every
unit *u* of level l in the corpus, the words of *u* plus the words of its one-hop expansion
context (distinct units, *u* counted once), averaged over all units of the level. Without
expansion ``W^m_l == W_l``. Beside it, :func:`delivered_words_per_hit` measures what a run
actually delivered: for one case, the words of the distinct units returned (hits and expansion)
divided by the number of hits; ``W^d`` = the mean of that over cases (:func:`summarize` reports it
as ``W_d`` / ``toer_d``). ``W^d`` differs from ``W_l`` even without expansion because retrievers
favour long units.

Worked example (also a unit test): gold {§ 433 Abs. 1 BGB, § 574 Abs. 2 Nr. 2 ZPO}, retrieved the
Absatz units BGB/§433/Abs1 and ZPO/§574/Abs3. At § depth both gold are hit (recall 1.0); at
Absatz depth only the first (0.5). With W_Absatz = 50 words: ToER_§ = 1.0 / 0.05 = 20.0 and
ToER_Absatz = 0.5 / 0.05 = 10.0.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import NamedTuple

import numpy as np
import pandas as pd

from ..model import DEPTHS, Citation, decode_id
from ..vocab import GoldCount

N_DEPTHS = len(DEPTHS)


def depth_index(depth: int | str) -> int:
    """1-based depth from a name in ``model.DEPTHS`` ('Code' -> 1, 'Buchstabe' -> 6) or an int."""
    if isinstance(depth, str):
        try:
            return DEPTHS.index(depth) + 1
        except ValueError:
            raise ValueError(f"unknown evaluation depth {depth!r}; use one of {', '.join(DEPTHS)}") from None
    if not 1 <= depth <= N_DEPTHS:
        raise ValueError(f"evaluation depth must be 1..{N_DEPTHS}, got {depth}")
    return depth


def _norm(value: str) -> str:
    return "".join(value.split()).lower()


def match_depth(retrieved: Citation, gold: Citation) -> int:
    """The deepest evaluation depth (0..6) at which ``retrieved`` matches ``gold``.

    0 means different codes. Levels unspecified (None) in either tuple are implicit hits.
    """
    if retrieved[0] != gold[0]:
        return 0
    for i in range(1, N_DEPTHS):
        r, g = retrieved[i], gold[i]
        if r is not None and g is not None and _norm(r) != _norm(g):
            return i
    return N_DEPTHS


def matches(retrieved: Citation, gold: Citation, depth: int | str) -> bool:
    """``Match_d``: every level of the first *d* specified in both tuples is equal."""
    return match_depth(retrieved, gold) >= depth_index(depth)


#: Retrieval returns the same popular units for many queries; decoding them once saves most time.
_decode = lru_cache(maxsize=262_144)(decode_id)


def retrieved_citations(unit_ids: Iterable[str]) -> list[Citation]:
    """``R_k``: distinct citations decoded from unit ids; units above the § are dropped."""
    seen: dict[Citation, None] = {}
    for uid in unit_ids:
        cit = _decode(uid)
        if cit.para is not None:
            seen.setdefault(cit, None)
    return list(seen)


def case_hits(retrieved: Iterable[Citation], gold: Iterable[Citation]) -> np.ndarray:
    """hits_d for d = 1..6 as an int array of shape (6,); gold duplicates count once."""
    by_law: dict[str, list[Citation]] = defaultdict(list)
    for r in retrieved:
        by_law[r.law].append(r)
    hits = np.zeros(N_DEPTHS, dtype=np.int64)
    for g in dict.fromkeys(gold):
        best = max((match_depth(r, g) for r in by_law.get(g.law, ())), default=0)
        if best:
            hits[:best] += 1
    return hits


#: Ways of counting gold per depth (module docstring); ``fixed`` is the default.
GOLD_COUNTS: tuple[str, ...] = tuple(g.value for g in GoldCount)


def check_gold_count(gold_count: str) -> str:
    """``gold_count`` if it is one of ``GOLD_COUNTS``; a ValueError naming the choices otherwise."""
    if gold_count not in GOLD_COUNTS:
        raise ValueError(f"unknown gold count {gold_count!r}; use one of {', '.join(GOLD_COUNTS)}")
    return gold_count


def _gold_key(g: Citation, depth: int) -> tuple[str | None, ...]:
    return tuple(v if i == 0 or v is None else _norm(v) for i, v in enumerate(g.truncate(depth)))


def case_counts(retrieved: Iterable[Citation], gold: Iterable[Citation],
                gold_count: str = "fixed") -> tuple[np.ndarray, np.ndarray]:
    """(hits_d, |G_d|) for d = 1..6, two int arrays of shape (6,), under one way of counting gold.

    ``fixed`` gives ``(case_hits(...), [|G|] * 6)``. Gold duplicates count once in every way.
    """
    check_gold_count(gold_count)
    by_law: dict[str, list[Citation]] = defaultdict(list)
    for r in retrieved:
        by_law[r.law].append(r)
    distinct = list(dict.fromkeys(gold))
    best = [max((match_depth(r, g) for r in by_law.get(g.law, ())), default=0) for g in distinct]
    hits = np.zeros(N_DEPTHS, dtype=np.int64)
    n_gold = np.zeros(N_DEPTHS, dtype=np.int64)
    for d in range(1, N_DEPTHS + 1):
        if gold_count == "fixed":
            hits[d - 1] = sum(b >= d for b in best)
            n_gold[d - 1] = len(distinct)
        elif gold_count == "named":
            named = [b for g, b in zip(distinct, best) if g[d - 1] is not None]
            hits[d - 1] = sum(b >= d for b in named)
            n_gold[d - 1] = len(named)
        else:  # dedup: a truncated gold is hit iff the gold it came from is (Match_d reads d levels)
            hit_of: dict[tuple, bool] = {}
            for g, b in zip(distinct, best):
                key = _gold_key(g, d)
                hit_of[key] = hit_of.get(key, False) or b >= d
            hits[d - 1] = sum(hit_of.values())
            n_gold[d - 1] = len(hit_of)
    return hits, n_gold


class CaseScore(NamedTuple):
    """What one case contributes: hits per depth, |G|, and the words the run delivered.

    ``gold_by_depth`` holds |G_d| per depth when gold is not counted ``fixed``; None means
    |G_d| = ``n_gold`` at every depth.
    """

    case_id: str
    n_gold: int
    hits: tuple[int, ...]
    n_hits: int = 0
    delivered_words: int = 0
    gold_by_depth: tuple[int, ...] | None = None


def score_case(case_id: str, gold: Sequence[Citation], hit_ids: Sequence[str],
               expansion_ids: Sequence[str] = (), words: Mapping[str, int] | None = None, *,
               n_hits: int | None = None, delivered_words: int | None = None,
               gold_count: str = "fixed") -> CaseScore:
    """Score one case from the top-k hit ids and their expansion ids.

    ``words`` maps unit id -> word count; when given, the delivered words (distinct units over hits
    and expansion) are recorded for ``W^d``. Unknown ids count 0 words.
    Naive chunks are not graph units: pass the unit ids each chunk covers as ``hit_ids`` and give
    ``n_hits`` (chunks returned) and ``delivered_words`` (their words) explicitly.
    ``gold_count``: how gold is counted per depth (``GOLD_COUNTS``, module docstring).
    """
    ids = list(hit_ids) + list(expansion_ids)
    gold_set = list(dict.fromkeys(gold))
    hits, n_gold = case_counts(retrieved_citations(ids), gold_set, gold_count)
    if delivered_words is None:
        delivered_words = sum(words.get(uid, 0) for uid in dict.fromkeys(ids)) if words is not None else 0
    n = len(hit_ids) if n_hits is None else n_hits
    by_depth = None if gold_count == "fixed" else tuple(int(x) for x in n_gold)
    return CaseScore(case_id, len(gold_set), tuple(int(h) for h in hits), n, int(delivered_words), by_depth)


def hit_matrix(scores: Sequence[CaseScore], per_depth: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(hits of shape (n_cases, 6), n_gold) for the statistics module.

    n_gold is |G| of shape (n_cases,), or with ``per_depth`` |G_d| of shape (n_cases, 6) (equal
    columns when gold is counted ``fixed``).
    """
    hits = np.array([s.hits for s in scores], dtype=np.int64).reshape(len(scores), N_DEPTHS)
    if per_depth:
        n_gold = np.array([s.gold_by_depth if s.gold_by_depth is not None else (s.n_gold,) * N_DEPTHS
                           for s in scores], dtype=np.int64).reshape(len(scores), N_DEPTHS)
    else:
        n_gold = np.array([s.n_gold for s in scores], dtype=np.int64)
    return hits, n_gold


def recall_micro(hits: np.ndarray, n_gold: np.ndarray) -> np.ndarray:
    """Total hits / total gold, per depth (NaN where there is no gold at all).

    ``n_gold`` is (n_cases,) or per depth (n_cases, n_depths).
    """
    if n_gold.ndim == 2:
        total = n_gold.sum(axis=0).astype(np.float64)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(total > 0, hits.sum(axis=0) / np.where(total > 0, total, 1), np.nan)
    total = n_gold.sum()
    if total == 0:
        return np.full(hits.shape[1:], np.nan)
    return hits.sum(axis=0) / total


def recall_macro(hits: np.ndarray, n_gold: np.ndarray) -> np.ndarray:
    """Mean per-case recall over cases with at least one gold citation (per depth for 2-d ``n_gold``)."""
    if n_gold.ndim == 2:
        return np.array([recall_macro(hits[:, i:i + 1], n_gold[:, i])[0] for i in range(hits.shape[1])])
    keep = n_gold > 0
    if not keep.any():
        return np.full(hits.shape[1:], np.nan)
    per_case = hits[keep] / n_gold[keep].reshape((-1,) + (1,) * (hits.ndim - 1))
    return per_case.mean(axis=0)


def mean_words(word_counts: Iterable[int]) -> float:
    """``W_l``: mean words per unit over all units (chunks) of one level of the corpus."""
    arr = np.fromiter(word_counts, dtype=np.float64)
    if arr.size == 0:
        raise ValueError("no units to average: the chunking level is empty")
    return float(arr.mean())


def mean_delivered_words_corpus(unit_words: Mapping[str, int],
                                expansion: Mapping[str, Iterable[str]] | None = None,
                                all_words: Mapping[str, int] | None = None) -> float:
    """``W^m_l`` (paper): mean over the units u of one level of words(u) + words(expansion(u)).

    ``unit_words``: id -> words for every unit of level l (the corpus of the chunking scheme).
    ``expansion``: id -> one-hop expansion ids (parent, cited, or both); missing = no expansion.
    ``all_words``: id -> words for expansion targets of other levels (default: ``unit_words``);
    unknown targets count 0 words. Expansion targets are counted once per
    unit and never the unit itself again. Without expansion this equals :func:`mean_words` of ``unit_words``.
    """
    if not unit_words:
        raise ValueError("no units to average: the chunking level is empty")
    expansion = expansion or {}
    all_words = unit_words if all_words is None else all_words
    total = 0
    for uid, w in unit_words.items():
        total += w
        for eid in dict.fromkeys(expansion.get(uid, ())):
            if eid != uid:
                total += all_words.get(eid, unit_words.get(eid, 0))
    return total / len(unit_words)


def delivered_words_per_hit(scores: Sequence[CaseScore]) -> float:
    """``W^d``: mean over cases with hits of delivered words / number of hits (run-measured)."""
    per_case = [s.delivered_words / s.n_hits for s in scores if s.n_hits > 0]
    return float(np.mean(per_case)) if per_case else float("nan")


def toer(recall: float | np.ndarray, words_per_unit: float) -> float | np.ndarray:
    """Recall per 1,000 words: ``recall / (W / 1000)``."""
    if not words_per_unit > 0:
        raise ValueError(f"words per unit must be positive, got {words_per_unit}")
    return recall * 1000.0 / words_per_unit


def summarize(scores: Sequence[CaseScore], W: float, W_m: float | None = None) -> pd.DataFrame:
    """One row per depth: n_cases, n_gold, hits, recall_micro, recall_macro, W, toer, W_m, toer_m, W_d, toer_d.

    ``W_m`` defaults to ``W`` (no expansion). ``W_d`` is computed from the scores' delivered words
    (NaN when the run recorded none).
    """
    hits, n_gold = hit_matrix(scores, per_depth=True)
    micro = recall_micro(hits, n_gold)
    macro = recall_macro(hits, n_gold)
    W_m = W if W_m is None else W_m
    W_d = delivered_words_per_hit(scores)
    has_d = W_d > 0
    rows = []
    for i, name in enumerate(DEPTHS):
        rows.append({
            "depth": name, "depth_index": i + 1, "n_cases": len(scores), "n_gold": int(n_gold[:, i].sum()),
            "hits": int(hits[:, i].sum()), "recall_micro": float(micro[i]),
            "recall_macro": float(macro[i]), "W": W, "toer": float(toer(micro[i], W)),
            "W_m": W_m, "toer_m": float(toer(micro[i], W_m)),
            "W_d": W_d, "toer_d": float(toer(micro[i], W_d)) if has_d else float("nan"),
        })
    return pd.DataFrame(rows)
