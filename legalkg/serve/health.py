"""``GET /health``: whether the graph can be read now, asked of Neo4j each time, in bounded time.

Why a live check: the server's readiness was settled once, by the warm-up before the port opened,
so ``/health`` said "ready" for good, also after Neo4j had gone away (issue 44). Now each check
runs the graph's readiness query (``cypher/retrieve/graph_ready.cypher``) in an auto-commit
transaction, which the driver does not retry: a stopped Neo4j is one line at once, a graph without
a finished law another. Why a thread of its own and a bound: a listener that accepts and never
answers held the driver up to its connection timeout; the check waits at most ``HEALTH_S`` and
then says so, while at most one query is ever out (later checks wait for the same one), so a
monitor polling a hung Neo4j piles up nothing. A check younger than ``FRESH_S`` is reused.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field

from neo4j import exceptions as nx

from ..errors import NotReady, UserError
from ..graph.cypher import query

#: Seconds ``/health`` waits for Neo4j's answer before it reports that none came (a fresh
#: connection's handshake and a cold query plan took over 2 s on the loaded 2-core machine).
HEALTH_S = 5.0
#: Seconds a check's answer is reused (a monitor polling many times a second asks Neo4j once).
FRESH_S = 1.0
log = logging.getLogger("legalkg.serve")


def graph_problem(driver, database: str) -> str | None:
    """None when Neo4j answers and its graph holds a finished law; else why not, in one line."""
    try:
        with driver.session(database=database) as session:
            rec = session.run(query("retrieve/graph_ready")).single()
    except (nx.ServiceUnavailable, nx.SessionExpired, OSError) as err:
        return (f"Neo4j is not reachable ({type(err).__name__}): start it again; this server reconnects by "
                "itself once it answers")
    except nx.AuthError:
        return "Neo4j refuses this server's credentials: check NEO4J_USER / NEO4J_PASSWORD and restart the server"
    except (nx.Neo4jError, nx.DriverError) as err:
        code = getattr(err, "code", None) or type(err).__name__
        return f"Neo4j refused the readiness query ({code}): see the server's log and Neo4j's"
    if not (rec and rec["ready"]):
        return (f"the graph in database {database!r} holds no finished law (it is empty, or an ingest stopped "
                "before any law was complete): run `legalkg ingest`, which resumes an interrupted load")
    return None


@dataclass
class _Check:
    done: threading.Event = field(default_factory=threading.Event)
    problem: str | None = None


class Health:
    """The live readiness of ``tools`` (a ``serve.Tools``): ``problem()`` is None when ready."""

    def __init__(self, tools, timeout: float = HEALTH_S, fresh: float = FRESH_S) -> None:
        self.tools, self.timeout, self.fresh = tools, timeout, fresh
        self.lock = threading.Lock()
        self.pending: _Check | None = None
        self.last: tuple[float, str | None] | None = None

    def problem(self) -> str | None:
        """Why the server cannot answer now (one line), or None; within ``timeout`` seconds."""
        with self.lock:
            if self.last is not None and time.monotonic() - self.last[0] < self.fresh:
                return self.last[1]
            check = self.pending
            if check is None:
                check = self.pending = _Check()
                # a daemon thread: one stuck in a driver wait never holds the server's exit
                threading.Thread(target=self._run, args=(check,), name="legalkg-health", daemon=True).start()
        if not check.done.wait(self.timeout):
            return (f"Neo4j did not answer within {self.timeout:g} s (overloaded, or no Neo4j at the address): "
                    "see the server's log and Neo4j's")
        return check.problem

    def _run(self, check: _Check) -> None:
        try:
            problem = graph_problem(self.tools.driver, self.tools.db) or self.warm_problem()
        except Exception as err:  # noqa: BLE001 - a health check reports, it never fails
            log.exception("the health check failed")
            problem = f"the health check failed ({type(err).__name__}): see the server's log"
        with self.lock:
            self.last = (time.monotonic(), problem)
            self.pending = None
        check.problem = problem
        check.done.set()

    def warm_problem(self) -> str | None:
        """What the warm-up found that the graph check does not: a model that did not load (a graph
        that was not ready then and is now needs nothing more; its models load on first use)."""
        error = getattr(self.tools, "warm_error", None)
        if error is None or isinstance(error, NotReady) or not isinstance(error, UserError):
            return None
        return str(error)
