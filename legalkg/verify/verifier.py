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

from ..cite import LawRegistry, extract
from ..embed import get_embedder
from ..graph.cypher import query
from ..graph.vectors import index_name
from .inputs import check_text
from .quotes import QuoteCheck, near_quotes
from .records import CitationRecord, build_records, unparsed_record
from .status import BROKEN, Status, UnitRow, lookup_ids
from .support import SUPPORT_THRESHOLD, combine, cosine, lexical, stems, unit_words
from .text import citing_sentence, masked, sentence_bounds, unread_sections


class VerifyReport(BaseModel):
    """The records of one text, in text order, and what they add up to."""

    records: list[CitationRecord]
    threshold: float = SUPPORT_THRESHOLD
    quotes: list[QuoteCheck] = []  # quotations next to a citation, checked against its unit (quotes.py)

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

    def lookup(self, ids: list[str], laws: list[str]) -> tuple[dict[str, UnitRow], set[str]]:
        """The existing units among ``ids`` and the laws in the graph among ``laws``."""
        if not ids and not laws:
            return {}, set()
        rec = self._read("verify/units", {"ids": ids, "laws": laws})[0]
        units = {u["id"]: UnitRow(id=u["id"], citation=u["citation"], text=u["text"] or "", level=u["level"],
                                  title=u["title"], repealed=bool(u["repealed"])) for u in rec["units"]}
        return units, set(rec["laws"])

    def verify(self, text: str, default_law: str | None = None, *, support: bool = True) -> VerifyReport:
        """Every statute citation of ``text`` as a record (``default_law``: the law of a bare "§ 5")."""
        text = check_text(text)
        matches = extract(text, default_law=default_law, registry=self.registry)
        ids, laws = lookup_ids(matches)
        units, present = self.lookup(ids, laws)
        records = build_records(text, matches, units, present)
        chain_spans = sorted({(m.chain_start, m.chain_end) for m in matches})
        records += [unparsed_record(text, s, e) for s, e in unread_sections(text, chain_spans)]
        records.sort(key=lambda r: (r.chain_start, r.start))
        if support:
            self.add_support(text, records, chain_spans, units)
        cited = [(r.chain_start, r.chain_end, r.id, r.text) for r in records if r.id and r.text]
        quotes = near_quotes(text, cited, {uid: u.text for uid, u in units.items()})
        return VerifyReport(records=records, quotes=quotes)

    def add_support(self, text: str, records: list[CitationRecord], chain_spans: list[tuple[int, int]],
                    units: dict[str, UnitRow]) -> None:
        """Fill the support fields of the records that resolved to a unit."""
        bounds = sentence_bounds(text, chain_spans)
        scored = [r for r in records if r.id and r.text]
        sentences: dict[int, str] = {}
        for r in scored:
            lo, hi = citing_sentence(text, bounds, r.chain_start, r.chain_end)
            r.sentence_start, r.sentence_end = lo, hi
            sentences[id(r)] = masked(text, lo, hi, chain_spans)
        unit_stems = {r.id: stems(unit_words(paragraph_title(r.id, units), r.text)) for r in scored}
        vecs = self.vector_scores(scored, sentences) if self.vectors else {}
        for r in scored:
            lex = lexical(stems(sentences[id(r)]), unit_stems[r.id])
            vec = vecs.get(id(r))
            r.lexical = round(lex, 4)
            r.vector = None if vec is None else round(vec, 4)
            r.support = round(combine(lex, vec), 4)
            r.supported = r.support >= SUPPORT_THRESHOLD

    def model_of(self, level: str) -> str | None:
        if level not in self._models:
            rows = self._read("vectors/model_get", {"index": index_name(level)})
            self._models[level] = rows[0]["name"] if rows else None
        return self._models[level]

    def embedder(self, name: str):
        if name not in self._embedders:
            self._embedders[name] = get_embedder(name)
        return self._embedders[name]

    def vector_scores(self, scored: list[CitationRecord], sentences: dict[int, str]) -> dict[int, float]:
        """id(record) -> cosine of its masked sentence and its unit's stored vector, where the
        unit's level has vectors: the sentence is embedded by the model recorded for that level."""
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
        for name, recs in by_model.items():
            texts = list(dict.fromkeys(sentences[id(r)] for r in recs if sentences[id(r)].strip()))
            if not texts:
                continue
            vectors = dict(zip(texts, self.embedder(name).embed_queries(texts), strict=True))
            for r in recs:
                s = sentences[id(r)]
                if s in vectors:
                    out[id(r)] = cosine(vectors[s], stored[r.id][1])
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
