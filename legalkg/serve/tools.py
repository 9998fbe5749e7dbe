"""The tools the MCP server and the HTTP API offer, as plain functions over one read-only driver.

Why apart from the transports: ``mcp`` and FastAPI are an optional extra; the tools are the
library (``Retriever``, ``Verifier``, ``legalkg.context``) behind JSON-ready dicts, testable and
usable without either. Every tool validates its input where it enters (``SearchRequest``,
``verify.check_text``, ``context.check_budget``) and raises a one-line ``UserError``.
"""

from __future__ import annotations

import json
from typing import Any

from neo4j import Driver

from ..cite import extract
from ..context import build_pack
from ..errors import NotReady, UserError, short
from ..facts.related import unit_facts
from ..graph.cypher import query
from ..retrieve import Retriever, SearchRequest
from ..verify import Status, Verifier, tool_answer
from ..vocab import Task
from .args import LINK_LIMIT, ToolArgs
from .readonly import ReadOnlyDriver

#: What ``warm`` asks once: a short lay question (the learned mode) and a citing sentence.
WARM_QUERY = "Mein Vermieter gibt die Kaution nicht zurück"
WARM_TEXT = "Nach § 433 Abs. 1 BGB muss der Verkäufer dem Käufer die Sache übergeben."
#: name -> one-line description, shared by the MCP tool list and the HTTP API.
DESCRIPTIONS: dict[str, str] = {
    "search": "Find German federal statute units (§, Absatz, Satz, ...) that answer a question or match a case text.",
    "get_unit": "One statute unit by citation ('§ 433 Abs. 1 BGB') or id ('BGB/§433/Abs1'): its current text, "
                "parent, children, the units it cites, the units citing it and the court decisions citing it (counted per court, "
                "most recent first).",
    "verify": "Check every statute citation in a text against the official hierarchy: status (ok, repealed, "
              "no_such_unit, law_not_in_graph, law_not_loaded, ambiguous, unparsed), the unit's current text and a support score; "
              "with 'definitions': true, also the legal definition that applies to each defined term a citing sentence uses.",
    "context": "The statute units to put into an LLM prompt for a question, within a word budget, each with its "
               "citation, id and why it was chosen.",
    "related": "The one-hop neighbourhood of a unit (id or citation): its parent, children, the units it cites and "
               "the units citing it, each list with its full count and at most 'limit' rows, and the citing units "
               "counted per law, and the court decisions citing it or a unit inside it (counted per court, most recent first); "
               "'facts': the ordinances resting on it, what its own law rests on (references outside the graph "
               "with their status), the terms it defines and the definitions that apply to it.",
}


def check_limit(limit: object) -> int:
    """``related``'s row cap: a whole number from 1 to ``LINK_LIMIT``, else one line naming the range."""
    if isinstance(limit, bool) or not isinstance(limit, int | str) or not str(limit).strip().isdigit():
        raise UserError(f"limit must be a whole number from 1 to {LINK_LIMIT}, not {short(limit)}")
    value = int(limit)
    if not 1 <= value <= LINK_LIMIT:
        raise UserError(f"limit must be from 1 to {LINK_LIMIT}, not {value}")
    return value


def encoded(result: Any) -> bytes:
    """A tool's answer as compact JSON bytes. The HTTP server encodes in the worker thread (or the
    verify worker process): FastAPI would encode a returned dict on the event loop, and the 45 MB
    answer to a 1 MB verify stalled every other request."""
    return json.dumps(result, ensure_ascii=False, separators=(",", ":")).encode()


class Tools:
    """The five tools over one driver (wrapped read-only) and one database."""

    def __init__(self, driver: Driver, database: str = "neo4j", *, vectors: bool = True) -> None:
        self.driver = ReadOnlyDriver(driver)
        self.db = database
        self.retriever = Retriever(self.driver, database)
        self.verifier = Verifier(self.driver, database, vectors=vectors)
        #: ``warm`` ran and the graph answered; ``problem`` says why not (``GET /health`` asks the
        #: graph again each time: ``serve.health``)
        self.ready = False
        self.problem: str | None = None
        self.warm_error: UserError | None = None

    def call(self, name: str, args: ToolArgs) -> dict[str, Any]:
        """Tool ``name`` with arguments already checked by ``serve.args.parse_args``."""
        return getattr(self, name)(**args.model_dump())

    def call_json(self, name: str, args: ToolArgs | dict[str, Any]) -> bytes:
        """Tool ``name``'s answer as JSON bytes (``encoded``), from checked arguments or their dict."""
        kwargs = args if isinstance(args, dict) else args.model_dump()
        return encoded(getattr(self, name)(**kwargs))

    def close(self) -> None:
        """Nothing to free here (the driver belongs to the caller); the server's tools stop their workers."""

    def warm(self) -> None:
        """Load what the first requests would load, once, before the server takes any: the
        graph check, both predictors, the embedders of the default search and of verify. A rush
        on a cold server made every thread load its own copy (issue 36). A graph that is not
        ready leaves ``ready`` False and says why in ``problem``."""
        try:
            self.retriever.graph.check_ready()
            for task in Task:
                self.retriever.models.predictor(task)
            self.search(WARM_QUERY)
            self.verify(WARM_TEXT)
        except UserError as err:
            self.problem, self.warm_error = str(err), err
            return
        self.ready = True

    def read(self, name: str, params: dict) -> list:
        """One ``cypher/<name>.cypher`` query in a managed read transaction."""
        with self.driver.session(database=self.db) as session:
            return session.execute_read(lambda tx: [r.data() for r in tx.run(query(name), params)])

    def search(self, query: str, level: str = "§", k: int = 5, mode: str = "learned", expand: str = "none",
               law: str | None = None, task: str | None = None) -> dict[str, Any]:
        request = SearchRequest(query=query, level=level, k=k, mode=mode, expand=expand, law=law, task=task)
        return self.retriever.search(request).model_dump(mode="json")

    def get_unit(self, citation: str | None = None, id: str | None = None) -> dict[str, Any]:  # noqa: A002 - the tool's field
        """By id, or by a citation string resolved as ``verify`` resolves it."""
        uid, status = self.resolve("get_unit", citation, id)
        out = self.unit_row("unit/get", uid, LINK_LIMIT)
        out["cited_by_decisions"] = self.citing_decisions(uid, LINK_LIMIT)
        out["status"] = status or ("repealed" if out["repealed"] else "ok")
        return out

    def unit_row(self, name: str, uid: str, limit: int) -> dict[str, Any]:
        """The one row of ``cypher/<name>.cypher`` for unit ``uid``, with the readiness checks that
        ``get_unit`` and ``related`` share: a graph with a finished law (``Retriever.check_ready``,
        as search asks) and a unit whose law finished loading; both ``NotReady`` (HTTP 503), so a
        half-loaded law is never shown with neighbours missing."""
        self.retriever.graph.check_ready()
        rows = self.read(name, {"id": uid, "limit": limit})
        if not rows:
            raise UserError(f"no unit with id {short(uid)}: ids look like 'BGB/§433/Abs1' (or pass a 'citation')")
        out = rows[0]
        if not out.pop("law_loaded"):
            raise NotReady(f"law {out['law']} is not completely loaded (law_not_loaded: an ingest stopped midway): "
                           "run `legalkg ingest`, which resumes it")
        return out

    def resolve(self, tool: str, citation: str | None, id: str | None) -> tuple[str, str | None]:  # noqa: A002
        """(unit id, verify's status of the citation or None for an id); exactly one must be given."""
        if bool(citation) == bool(id):
            raise UserError(f"{tool} needs exactly one of 'citation' (e.g. '§ 433 Abs. 1 BGB') or 'id' "
                            "(e.g. 'BGB/§433/Abs1')")
        if id:
            return id, None
        matches = extract(citation, registry=self.verifier.registry)
        if not matches:
            raise UserError(f"no statute citation in {short(citation)}: write it like '§ 433 Abs. 1 BGB' or "
                            "'Art. 20 Abs. 3 GG'")
        record = self.verifier.verify(citation, support=False).records[0]
        if record.status is Status.LAW_NOT_LOADED:
            raise NotReady(f"{record.cited}: its law is not completely loaded (law_not_loaded: an ingest stopped "
                           "midway): run `legalkg ingest`, which resumes it")
        if record.id is None:
            hint = f" (nearest existing unit: {record.nearest})" if record.nearest else ""
            raise UserError(f"{record.cited} is not in the graph: {record.status.value}{hint}")
        return record.id, record.status.value

    def related(self, citation: str | None = None, id: str | None = None,  # noqa: A002 - the tool's field
                limit: int = LINK_LIMIT) -> dict[str, Any]:
        """Parent, children, cites and cited_by with their full counts (``cypher/unit/related.cypher``)."""
        limit = check_limit(limit)
        uid, _ = self.resolve("related", citation, id)
        return {**self.unit_row("unit/related", uid, limit), "cited_by_decisions": self.citing_decisions(uid, limit),
                "facts": unit_facts(self.read, uid, limit), "limit": limit}

    def citing_decisions(self, uid: str, limit: int) -> dict[str, Any]:
        """The court decisions citing the unit or a unit inside it (``legalkg ingest-cases``): their count,
        the count per court and the ``limit`` most recent (``cypher/unit/decisions.cypher``)."""
        rows = self.read("unit/decisions", {"id": uid, "limit": limit})
        return rows[0] if rows else {"count": 0, "courts": [], "decisions": []}

    def verify(self, text: str, default_law: str | None = None, definitions: bool = False) -> dict[str, Any]:
        """The verdict and the chain lines of ``verify --json`` (``verify.tool_answer``; expand them with
        ``verify.with_records``); with ``definitions``, also the applying definitions, as
        ``legalkg verify --definitions`` finds them (``Verifier.verify(definitions=True)``)."""
        report = self.verifier.verify(text, default_law, definitions=definitions)
        answer = tool_answer(report, len(text))
        if definitions:
            answer["definitions"] = [d.model_dump(mode="json") for d in report.definitions]
        return answer

    def context(self, query: str, budget: int = 1000, task: str | None = None, law: str | None = None) -> dict[str, Any]:
        return build_pack(self.retriever, query, budget, task=task, law=law).model_dump(mode="json")
