"""``Verifier``: check every statute citation of a text against the graph (the I/O side).

Why two round trips for a whole text, however many citations: every candidate id of every
citation and every cited law go into one parameterised lookup (``cypher/verify/units.cypher``),
the stored vectors of the resolved units into a second (``cypher/verify/embeddings.cypher``).
A query per citation would cost a round trip each (a 200-citation brief: 200 of them). Both run
in read transactions: verify never writes.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np
from neo4j import READ_ACCESS, Driver
from pydantic import BaseModel

from ..cancel import checkpoint
from ..cite import LawRegistry, extract
from ..embed import get_embedder
from ..errors import short
from ..gcpolicy import relaxed
from ..graph.cypher import query
from ..graph.vectors import index_name
from ..lazy import once_per_key
from .definitions import AppliedDefinition, applying_definitions
from .inputs import VerifyInputError, check_text
from .quotes import QuoteCheck, near_quotes
from .records import CitationRecord, json_row, set_fields, text_records
from .status import BROKEN, Status, UnitRow, lookup_ids
from .support import SUPPORT_THRESHOLD, combine, cosine, lexical, stems, unit_words
from .text import MaskedText, Spans, citing_sentence, sentence_bounds

#: Most characters of distinct passages of one text that are embedded for the support score:
#: bounds the embedding time of a 1 MB text (benchmarks/verify_scaling.py); a 200-citation brief
#: (about 200 passages of a few hundred characters) stays below it.
MAX_EMBEDDED_CHARS = 200_000
#: Passages per embedding call: a cancelled request stops between batches.
EMBED_BATCH = 64
#: Texts longer than this (characters) are verified with the collector's bulk thresholds
#: (``gcpolicy.relaxed``); shorter ones leave the process's settings alone.
RELAXED_GC_CHARS = 20_000


class VerifyReport(BaseModel):
    """The records of one text, in text order, and what they add up to."""

    records: list[CitationRecord]
    threshold: float = SUPPORT_THRESHOLD
    quotes: list[QuoteCheck] = []  # quotations next to a citation, checked against its unit (quotes.py)
    definitions: list[AppliedDefinition] = []  # terms a citing sentence uses, defined for the cited unit

    @property
    def ok(self) -> bool:
        return all(r.status is Status.OK for r in self.records)

    @property
    def exit_code(self) -> int:
        """0 when every citation is ok (or there is none), 1 when any is broken."""
        return 0 if self.ok else 1

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {s.value: 0 for s in Status}
        for r in self.records:
            out[r.status.value] += 1
        return out

    def broken(self) -> list[CitationRecord]:
        return [r for r in self.records if r.status in BROKEN]

    def rows(self) -> list[dict]:
        """The records as JSON-ready dicts, each unit's text on its first record only: "§ 573 BGB"
        cited 10,000 times would otherwise repeat 1,500 characters 10,000 times. Each is
        ``model_dump(mode="json")`` of its record (``records.json_row``: the same dict, 3x faster)."""
        seen: set[str] = set()
        out = []
        for r in self.records:
            row = json_row(r)
            if r.id is not None:
                if r.id in seen:
                    row["text"] = None
                seen.add(r.id)
            out.append(row)
        return out


class Verifier:
    """Verifies texts over one driver; loads each embedding model once and reuses it."""

    def __init__(self, driver: Driver, database: str = "neo4j", *, registry: LawRegistry | None = None,
                 vectors: bool = True) -> None:
        """``vectors=False`` leaves the vector part of the support score out (lexical only):
        no embedding model is loaded."""
        self.driver = driver
        self.db = database
        self.registry = registry or LawRegistry.default()
        self.vectors = vectors
        self._models: dict[str, str | None] = {}
        self._embedders: dict[str, object] = {}

    def _read(self, name: str, params: dict) -> list:
        with self.driver.session(database=self.db, default_access_mode=READ_ACCESS) as session:
            return session.execute_read(lambda tx: list(tx.run(query(name), params)))

    def lookup(self, ids: list[str], laws: list[str]) -> tuple[dict[str, UnitRow], set[str], set[str]]:
        """The existing units among ``ids``, the laws in the graph among ``laws``, and those of
        them whose load did not finish."""
        if not ids and not laws:
            return {}, set(), set()
        rec = self._read("verify/units", {"ids": ids, "laws": laws})[0]
        units = {u["id"]: UnitRow(id=u["id"], citation=u["citation"], text=u["text"] or "", level=u["level"],
                                  title=u["title"], repealed=bool(u["repealed"])) for u in rec["units"]}
        return units, {g["id"] for g in rec["laws"]}, {g["id"] for g in rec["laws"] if not g["loaded"]}

    def verify(self, text: str, default_law: str | None = None, *, support: bool = True,
               definitions: bool = False) -> VerifyReport:
        """Every statute citation of ``text`` as a record (``default_law``: the law of a bare "§ 5");
        ``definitions``: also the legal definitions that apply to the terms each citing sentence
        uses (definitions.py, one more lookup)."""
        text = check_text(text)
        if default_law is not None and default_law not in self.registry.keys():
            # a junk key read every bare "§ 5" as law_not_in_graph, as if the law were only not loaded
            raise VerifyInputError(f"the default law {short(default_law)} is no law key: give one such as BGB or "
                                   "ZPO (the keys `legalkg cite` prints as \"law\")")
        if len(text) <= RELAXED_GC_CHARS:
            return self._verify(text, default_law, support, definitions)
        # a long text builds hundreds of thousands of tokens, matches and records, all kept to the end:
        # the collector's default thresholds walked that growing heap again and again for nothing
        # (a third of the record building of 1 MB of "§ 1 BGB"; legalkg.gcpolicy)
        with relaxed():
            return self._verify(text, default_law, support, definitions)

    def _verify(self, text: str, default_law: str | None, support: bool, definitions: bool) -> VerifyReport:
        matches = extract(text, default_law=default_law, registry=self.registry)
        checkpoint()
        ids, laws = lookup_ids(matches)
        units, present, unloaded = self.lookup(ids, laws)
        checkpoint()
        records, chain_spans = text_records(text, matches, units, present, unloaded)
        checkpoint()
        if support:
            self.add_support(text, records, chain_spans, units)
        cited = [(r.chain_start, r.chain_end, r.id, r.text) for r in records if r.id and r.text]
        quotes = near_quotes(text, cited, {uid: u.text for uid, u in units.items()})
        applying = applying_definitions(self._read, text, records, chain_spans) if definitions else []
        return VerifyReport(records=records, quotes=quotes, definitions=applying)

    def add_support(self, text: str, records: list[CitationRecord], chain_spans: Spans,
                    units: dict[str, UnitRow]) -> None:
        """Fill the support fields of the records that resolved to a unit. Each passage, each
        passage's stems and each unit's stems are computed once (the records of one chain share
        their passage; a unit cited 1,000 times is stemmed once)."""
        bounds = sentence_bounds(text, chain_spans)
        masked = MaskedText(text, chain_spans)
        scored = [r for r in records if r.id and r.text]
        sentences: dict[int, str] = {}
        passages: dict[tuple[int, int], str] = {}
        # chain span -> (its sentence fields, its passage): the records of one chain share them
        # ("§§ 1, 1, 1, …" is one chain of 333,000 records in 1 MB)
        of_chain: dict[tuple[int, int], tuple[dict, str]] = {}
        for r in scored:
            chain = (r.chain_start, r.chain_end)
            if chain not in of_chain:
                lo, hi = citing_sentence(text, bounds, r.chain_start, r.chain_end)
                if (lo, hi) not in passages:
                    passages[(lo, hi)] = masked.passage(lo, hi)
                of_chain[chain] = ({"sentence_start": lo, "sentence_end": hi}, passages[(lo, hi)])
            fields, sentences[id(r)] = of_chain[chain]
            set_fields(r, fields)
        unit_stems = {uid: stems(unit_words(paragraph_title(uid, units), units[uid].text))
                      for uid in {r.id for r in scored}}
        sentence_stems = {s: stems(s) for s in set(sentences.values())}
        checkpoint()
        vecs = self.vector_scores(scored, sentences) if self.vectors else {}
        # (passage, unit, vector part) -> the support fields: the same passage citing the same unit
        # is scored once ("§ 1 BGB" 125,000 times in 1 MB of it is a handful of distinct passages)
        done: dict[tuple, dict] = {}
        for r in scored:
            passage, vec = sentences[id(r)], vecs.get(id(r))
            fields = done.get((passage, r.id, vec))
            if fields is None:
                lex = lexical(sentence_stems[passage], unit_stems[r.id])
                support = round(combine(lex, vec), 4)
                fields = done[(passage, r.id, vec)] = {
                    "lexical": round(lex, 4), "vector": None if vec is None else round(vec, 4),
                    "support": support, "supported": support >= SUPPORT_THRESHOLD}
            set_fields(r, fields)

    def model_of(self, level: str) -> str | None:
        if level not in self._models:
            rows = self._read("vectors/model_get", {"index": index_name(level)})
            self._models[level] = rows[0]["name"] if rows else None
        return self._models[level]

    @once_per_key
    def embedder(self, name: str):
        if name not in self._embedders:
            self._embedders[name] = get_embedder(name)
        return self._embedders[name]

    def vector_scores(self, scored: list[CitationRecord], sentences: dict[int, str]) -> dict[int, float]:
        """id(record) -> cosine of its masked sentence and its unit's stored vector, where the
        unit's level has vectors: the sentence is embedded by the model recorded for that level.
        Only the first distinct passages of a text up to ``MAX_EMBEDDED_CHARS`` are embedded; the
        records of later ones get the lexical part alone, as a unit without a vector does."""
        if not scored:
            return {}
        rows = self._read("verify/embeddings", {"ids": list({r.id for r in scored})})
        stored = {r["id"]: (r["level"], np.asarray(r["embedding"], dtype=np.float32)) for r in rows}
        by_model: dict[str, list[CitationRecord]] = defaultdict(list)
        for r in scored:
            if r.id in stored:
                name = self.model_of(stored[r.id][0])
                if name:
                    by_model[name].append(r)
        out: dict[int, float] = {}
        scores: dict[tuple[str, str], float] = {}  # (passage, unit) -> cosine, computed once
        for name, recs in by_model.items():
            texts = list(dict.fromkeys(sentences[id(r)] for r in recs if sentences[id(r)].strip()))
            texts = within_budget(texts, MAX_EMBEDDED_CHARS)
            if not texts:
                continue
            embedder = self.embedder(name)
            vectors: dict[str, np.ndarray] = {}
            for i in range(0, len(texts), EMBED_BATCH):
                checkpoint()
                batch = texts[i:i + EMBED_BATCH]
                vectors.update(zip(batch, embedder.embed_queries(batch), strict=True))
            for r in recs:
                s = sentences[id(r)]
                if s in vectors:
                    out[id(r)] = cached_cosine(scores, s, r.id, vectors[s], stored[r.id][1])
        return out


def cached_cosine(scores: dict[tuple[str, str], float], passage: str, uid: str, a: np.ndarray,
                  b: np.ndarray) -> float:
    """The cosine of a passage's and a unit's vectors, computed once per pair in ``scores``."""
    key = (passage, uid)
    if key not in scores:
        scores[key] = cosine(a, b)
    return scores[key]


def within_budget(texts: list[str], budget: int) -> list[str]:
    """The leading ``texts`` whose lengths add up to at most ``budget`` (the first always)."""
    out: list[str] = []
    used = 0
    for t in texts:
        used += len(t)
        if out and used > budget:
            break
        out.append(t)
    return out


def paragraph_title(uid: str, units: dict[str, UnitRow]) -> str | None:
    """The title of the § (or Art.) that holds ``uid``: its shortest prefix that is a Paragraph."""
    parts = uid.split("/")
    for k in range(2, len(parts) + 1):
        row = units.get("/".join(parts[:k]))
        if row is not None and row.level == "Paragraph":
            return row.title
    return None


def verify_text(driver: Driver, database: str, text: str, default_law: str | None = None) -> VerifyReport:
    """One text with a fresh ``Verifier`` (reuse a ``Verifier`` for many texts)."""
    return Verifier(driver, database).verify(text, default_law)
