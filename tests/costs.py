"""Count a test run's deterministic costs: Neo4j servers started, graph wipes, ingests, bulk imports
and embedding runs (texts embedded), each with its seconds and the test that paid it.

Wall time on a shared machine is noisy; these counts are not. Opt-in plugin, for measuring only:
``pytest -p tests.costs`` writes the log to ``$LEGALKG_TEST_COSTS`` (default ``test-costs.jsonl``
in the current folder) and a per-kind summary at the end of the run (docs/benchmarks/tests.md).
Only work done in the pytest process is seen: a CLI run as a subprocess is not counted.
"""

from __future__ import annotations

import functools
import json
import os
import sys
import time
from collections import defaultdict

import pytest

#: (module, function, kind) wrapped after collection, wherever a module imported it by name
TARGETS = (
    ("legalkg.server.startup", "start", "server_start"),
    ("legalkg.graph.admin", "wipe", "wipe"),
    ("legalkg.graph.ingest", "ingest_laws", "ingest"),
    ("legalkg.graph.bulk", "bulk_load", "bulk_import"),
    ("legalkg.graph.vectors", "embed_graph", "embed"),
)

events: list[dict] = []
current = {"test": "<collection>"}


def counted(kind: str, fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        t0 = time.perf_counter()
        result = fn(*args, **kwargs)
        event = {"kind": kind, "test": current["test"], "s": round(time.perf_counter() - t0, 2)}
        if kind == "embed":
            event["n_embedded"] = getattr(result, "n_embedded", None)
            event["n_texts"] = getattr(result, "n_texts", None)
        events.append(event)
        return result

    wrapper.counted = True
    return wrapper


@pytest.hookimpl(hookwrapper=True)
def pytest_collection(session):
    yield
    import importlib

    for modname, name, kind in TARGETS:
        module = importlib.import_module(modname)
        original = getattr(module, name)
        if getattr(original, "counted", False):
            continue
        wrapped = counted(kind, original)
        for mod in list(sys.modules.values()):
            try:
                if getattr(mod, name, None) is original:
                    setattr(mod, name, wrapped)
            except Exception:  # noqa: BLE001 - odd modules (lazy proxies) are skipped
                continue


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    current["test"] = item.nodeid
    yield
    current["test"] = "<between tests>"


def pytest_terminal_summary(terminalreporter):
    path = os.environ.get("LEGALKG_TEST_COSTS", "test-costs.jsonl")
    with open(path, "w", encoding="utf-8") as out:
        for event in events:
            out.write(json.dumps(event) + "\n")
    totals: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0])
    for event in events:
        total = totals[event["kind"]]
        total[0] += 1
        total[1] += event["s"]
        total[2] += event.get("n_embedded") or 0
    terminalreporter.write_sep("-", f"test costs (tests/costs.py, log: {path})")
    for kind, (n, seconds, embedded) in sorted(totals.items()):
        extra = f", {embedded} texts embedded" if kind == "embed" else ""
        terminalreporter.write_line(f"{kind}: {n} in {seconds:.1f} s{extra}")
