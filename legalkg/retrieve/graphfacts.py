"""The graph's facts a search reads, each read once per ``GraphFacts`` and reused.

Why once: the facts a search needs (the graph is ready, a level has units, a law exists, the index's
model, which ids the graph holds, the § texts) do not change while a process searches, and a round
trip per search for them doubled the latency (benchmarks/retrieval_latency.py). A graph that is not
ready (no finished law, no index) is one ``UserError`` line, not a driver traceback or an empty
answer with rc 0.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor

from neo4j import READ_ACCESS, Driver
from neo4j.exceptions import ClientError

from .. import paths
from ..errors import NotReady, UserError
from ..graph.cypher import labelled, query
from ..graph.vectors import recorded_model
from ..model import law_of_id
from ..vocab import Mode, RetrievalLevel
from . import textcache
from .hits import Hit, ranked

#: Threads of the learned mode's index look-ups: its full-text and its vector run at once.
READERS = 2
#: Queries per round trip of a batched index look-up.
QUERY_BATCH = 100
#: Neo4j's message for a query naming an index the database lacks (ProcedureCallFailed).
_NO_INDEX = re.compile(r"no such (\w+) (?:schema )?index:? *[`'\"]?(\w+)", re.IGNORECASE)


def missing_index(message: str, database: str) -> UserError | None:
    """The one-line error for Neo4j's "no such index" failure, or None for any other error.

    Why: a fresh server, an interrupted import or an index being rebuilt leaves the graph without
    the full-text or vector index a search names, and the server answers ProcedureCallFailed,
    which the user can only fix by loading the graph (``legalkg ingest`` builds the schema).
    """
    m = _NO_INDEX.search(message or "")
    if m is None:
        return None
    kind = {"fulltext": "full-text"}.get(m[1].lower(), m[1].lower())
    return UserError(f"the graph in database {database!r} has no {kind} index {m[2]} (a fresh server, an "
                     "interrupted import, or an index being rebuilt): run `legalkg ingest`, which builds the "
                     "schema, and search again (`legalkg doctor` lists what is missing)")


def group_rows(records, via: Mode) -> dict[str, list[Hit]]:
    """query id -> its hits, best first, from the rows of a batched look-up (``qid`` per row)."""
    rows: dict[str, list] = defaultdict(list)
    for r in records:
        rows[r["qid"]].append(r)
    # The subquery already orders by score; a stable sort keeps that order and guards the driver.
    return {q: ranked(sorted(recs, key=lambda r: -float(r["score"])), via) for q, recs in rows.items()}


class GraphFacts:
    """Reads over one driver and database; caches each fact it reads."""

    def __init__(self, driver: Driver, database: str = "neo4j") -> None:
        self.driver = driver
        self.db = database
        self._models: dict[str, dict | None] = {}
        self._laws: set[str] = set()
        self._level_units: dict[str, int] = {}
        self._ready = False
        #: unit id -> whether the graph holds it
        self._in_graph: dict[str, bool] = {}
        self._texts: dict[str, str] | None = None
        self._readers: ThreadPoolExecutor | None = None

    def readers(self) -> ThreadPoolExecutor:
        """The threads that run the learned mode's index look-ups (started on first use). Two: the
        full-text and the vector look-up of one search at once; the driver is thread-safe and each
        look-up opens its own session."""
        if self._readers is None:
            self._readers = ThreadPoolExecutor(max_workers=READERS, thread_name_prefix="legalkg-read")
        return self._readers

    def read(self, text: str, params: dict) -> list:
        """One auto-commit read: RUN + PULL in a single round trip. ``execute_query`` wraps each
        statement in a managed transaction (BEGIN ... COMMIT), one more exchange per search."""
        try:
            with self.driver.session(database=self.db, default_access_mode=READ_ACCESS) as session:
                return list(session.run(text, params))
        except ClientError as err:
            problem = missing_index(err.message or str(err), self.db)
            if problem is None:
                raise
            raise problem from None

    def read_batched(self, text: str, base: dict, items: list[dict], via: Mode) -> dict[str, list[Hit]]:
        """A batched look-up (``$queries``) in parts of ``QUERY_BATCH``, two at once when there are
        several (the server gets both cores while this process decodes the previous part)."""
        parts = [items[i:i + QUERY_BATCH] for i in range(0, len(items), QUERY_BATCH)]
        if len(parts) <= 1:
            return group_rows(self.read(text, {**base, "queries": items}), via) if items else {}
        with ThreadPoolExecutor(2) as pool:
            done = pool.map(lambda part: self.read(text, {**base, "queries": part}), parts)
            return {q: hits for recs in done for q, hits in group_rows(recs, via).items()}

    def check_ready(self) -> None:
        """A one-line error on a graph without a finished law (empty, or an interrupted ingest),
        checked once per Retriever: never answer from fragments, or with no hits and rc 0."""
        if self._ready:
            return
        rec = self.read(query("retrieve/graph_ready"), {})
        if not (rec and rec[0]["ready"]):
            raise NotReady(f"the graph in database {self.db!r} holds no finished law (it is empty, or an "
                            "ingest stopped before any law was complete): run `legalkg ingest`, which resumes "
                            "an interrupted load (or pass the --database that holds the graph)")
        self._ready = True

    def check_law(self, law: str | None) -> None:
        if law is None or law in self._laws:
            return
        rec = self.read(query("retrieve/law_exists"), {"law": law})
        if not rec[0]["exists"]:
            raise UserError(f"law {law!r} is not in the graph: use a law id such as BGB or 'SGB V' "
                            "(see `legalkg stats`), or ingest it with `legalkg ingest --codes ...`")
        self._laws.add(law)

    def check_level(self, label: RetrievalLevel) -> None:
        """A one-line error on a graph without units of ``label`` (an empty or other database)."""
        self.check_ready()
        if label not in self._level_units:
            rec = self.read(labelled("retrieve/level_units", label=label), {})
            self._level_units[label] = int(rec[0]["units"]) if rec else 0
        if not self._level_units[label]:
            raise UserError(f"the graph in database {self.db!r} holds no {label} units: run `legalkg ingest` "
                            "first (or pass the --database that holds them)")

    def index_model(self, label: RetrievalLevel) -> dict | None:
        """The model recorded for a level's index (name, version, dim), or None without vectors."""
        if label not in self._models:
            self._models[label] = recorded_model(self.driver, self.db, label)
        return self._models[label]

    def in_graph(self, ids: Sequence[str]) -> dict[str, bool]:
        """Which of ``ids`` the graph holds, one query for those not known yet: the learned mode
        drops predicted units of laws not ingested, and looking 100 ids up per search cost as much
        as reading their texts (4 ms, ad-hoc profile on the 58 codes). A § whose text was read
        (``paragraph_texts``) is known to be there without a query: a loaded predictor names some
        2,000 units, and streaming them back from Neo4j is a cold search's largest read."""
        texts = self._texts or {}
        new = list(dict.fromkeys(u for u in ids if u not in self._in_graph and u not in texts))
        if new:
            found = {r["id"] for r in self.read(query("retrieve/present_ids"), {"ids": new})}
            self._in_graph.update({u: u in found for u in new})
        return {u: self._in_graph.get(u, u in texts) for u in ids}

    def descendants(self, ids: list[str], label: RetrievalLevel) -> dict[str, list[str]]:
        """id -> its units at ``label`` in document order (``cypher/retrieve/descendants``)."""
        out: dict[str, list[str]] = defaultdict(list)
        if ids:
            for r in self.read(labelled("retrieve/descendants", label=label), {"ids": ids}):
                out[r["parent"]].append(r["id"])
                self._in_graph[r["id"]] = True
        return dict(out)

    def paragraph_texts(self) -> dict[str, str]:
        """§ id -> "title\ntext" of every § in force of the graph, read once per Retriever, from the
        disk cache where the graph's laws are unchanged (``textcache``)."""
        if self._texts is None:
            folder = paths.cache_dir() / "corpus"
            digest = textcache.key((r["id"], r["hash"]) for r in self.read(query("retrieve/law_hashes"), {}))
            self._texts = textcache.load(folder, digest) if digest else None
            if self._texts is None:
                self._texts = self.read_texts(None)
                if digest:
                    textcache.save(folder, digest, self._texts)
        return self._texts

    def read_texts(self, laws: list[str] | None) -> dict[str, str]:
        """§ id -> "title\ntext" of every § in force of ``laws`` (None: every law), from the graph."""
        recs = self.read(query("retrieve/corpus_texts"), {"laws": laws})
        return {r["id"]: f"{r['title']}\n{r['text']}" if r["title"] else r["text"] for r in recs}

    def bridge_texts(self, laws: Iterable[str], graph_ranker: bool) -> dict[str, str]:
        """The § texts of a predictor's bridge ``laws``: cut from every § text where a ranker over the
        whole graph will read those anyway (one read instead of two), else read for ``laws`` alone."""
        if not graph_ranker and self._texts is None:
            return self.read_texts(list(laws))
        wanted = set(laws)
        return {uid: text for uid, text in self.paragraph_texts().items() if law_of_id(uid) in wanted}
