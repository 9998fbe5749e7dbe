"""The hostile-user probe suite (issue 44): each row of ``cases.jsonl`` is one thing a careless or
hostile user does, and what must come back. The runner is one parametrised test per surface.

- ``cli`` rows run ``legalkg ARGS`` as a process (stdin from ``stdin``, Neo4j pointed at a closed
  port, so no row needs a server): the exit code must be ``exit``, stderr exactly one line
  matching the regex ``stderr`` (``lines`` to allow more), never a traceback, stdout empty unless
  ``stdout`` (a regex) says otherwise.
- ``mcp`` rows are sent, all in one session after ``initialize``, to the real stdio server
  (``run_stdio``; its tools never reach a graph: every row is refused before): a JSON-RPC error
  with ``code`` and a message matching ``message``, or a tool error (``isError``) whose one line
  matches ``tool_error``. Every request must be answered.

``{tmp}`` in a row is the folder of hostile files made by ``hostile_files``. The ``http``, ``page``
and ``fault`` rows run in test_http_probes.py. The counts are in docs/reliability.md.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

CASES = [json.loads(line) for line in (Path(__file__).with_name("cases.jsonl")).read_text().splitlines()
         if line.strip() and not line.startswith("//")]
CLI_CASES = [c for c in CASES if "cli" in c]
MCP_CASES = [c for c in CASES if "mcp" in c]
#: the surfaces of the table; the http, page and fault rows run in test_http_probes.py
SURFACES = ("cli", "mcp", "http", "page", "fault")
DEAD_NEO4J = {"NEO4J_URI": "bolt://127.0.0.1:9", "NEO4J_PASSWORD": "not-used"}
MCP_SERVER = """
from neo4j import GraphDatabase
from legalkg.serve import Tools, mcp_server
mcp_server.run_stdio(Tools(GraphDatabase.driver("bolt://127.0.0.1:9", auth=("neo4j", "x")), vectors=False))
"""
INIT = [{"jsonrpc": "2.0", "id": "init", "method": "initialize",
         "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "p", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"}]


def test_every_case_has_a_unique_id_and_one_surface():
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids)), [i for i in ids if ids.count(i) > 1]
    assert all(sum(k in c for k in SURFACES) == 1 for c in CASES), [c["id"] for c in CASES
                                                                    if sum(k in c for k in SURFACES) != 1]


@pytest.fixture(scope="module")
def hostile_files(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("hostile")
    (tmp / "notes.txt").write_text("hello, no citation here\n")
    (tmp / "emptydir").mkdir()
    (tmp / "latin1.txt").write_bytes("Nach § 433 BGB".encode("latin-1"))
    (tmp / "nul.txt").write_bytes(b"\xa7 1 BGB\x00\x00")
    (tmp / "broken.jsonl").write_text('{"id": "1", "text": "x"\n')
    (tmp / "list.jsonl").write_text("[1, 2]\n")
    (tmp / "deep.jsonl").write_text("[" * 200_000 + "]" * 200_000 + "\n")
    (tmp / "bad.xml").write_text("not xml at all\n")
    (tmp / "fake.tar.xz").write_text("hello, I am a text file\n")
    (tmp / "oldrun").mkdir()
    (tmp / "oldrun" / "results.csv").write_text("an earlier run\n")
    (tmp / "empty.tar.xz").write_bytes(b"")
    return tmp


REPEAT = re.compile(r"\{repeat:(.*?):(\d+)\}")


def fill(value, tmp: Path | None = None):
    """``{tmp}`` -> the folder of hostile files; ``{repeat:TEXT:N}`` -> TEXT N times (long inputs
    stay out of the table)."""
    if isinstance(value, str):
        value = REPEAT.sub(lambda m: m.group(1) * int(m.group(2)), value)
        return value.replace("{tmp}", str(tmp)) if tmp else value
    if isinstance(value, list):
        return [fill(v, tmp) for v in value]
    if isinstance(value, dict):
        return {k: fill(v, tmp) for k, v in value.items()}
    return value


def run_cli(case: dict, tmp: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "legalkg.cli", *fill(case["cli"], tmp)],
                          input=fill(case.get("stdin"), tmp), capture_output=True, text=True, errors="replace",
                          timeout=300, env={**os.environ, **DEAD_NEO4J}, cwd=tmp)


@pytest.fixture(scope="module")
def cli_results(hostile_files) -> dict[str, subprocess.CompletedProcess]:
    """Every cli row, run four at a time (each is a whole interpreter start)."""
    with ThreadPoolExecutor(4) as pool:
        done = pool.map(lambda c: (c["id"], run_cli(c, hostile_files)), CLI_CASES)
        return dict(done)


@pytest.mark.parametrize("case", CLI_CASES, ids=[c["id"] for c in CLI_CASES])
def test_cli_probe(case, cli_results):
    out = cli_results[case["id"]]
    assert "Traceback" not in out.stderr, out.stderr[-1500:]
    assert out.returncode == case["exit"], (out.returncode, out.stderr[-800:])
    lines = out.stderr.rstrip("\n").splitlines()
    assert len(lines) == case.get("lines", 1), out.stderr[-1500:]
    assert re.search(case["stderr"], out.stderr), out.stderr[-800:]
    if "stdout" in case:
        assert re.search(case["stdout"], out.stdout), out.stdout[:800]
    else:
        assert out.stdout == "", out.stdout[:800]


def mcp_line(case: dict, number: int) -> str:
    """The row's request with id ``number`` (a string row is sent as written, ``{id}`` filled in)."""
    message = fill(case["mcp"])
    if isinstance(message, str):
        return message.replace("{id}", str(number)).replace("{deep}", "[" * 50_000 + "]" * 50_000)
    return json.dumps({**message, "id": number})


@pytest.fixture(scope="module")
def mcp_answers() -> dict[int, dict]:
    """The answers by id; stdin stays open until every request is answered (or 300 s pass), as a
    client's would: at end of input the server stops, and calls still running go unanswered."""
    lines = [json.dumps(m) for m in INIT] + [mcp_line(c, i) for i, c in enumerate(MCP_CASES)]
    proc = subprocess.Popen([sys.executable, "-c", MCP_SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env={**os.environ, **DEAD_NEO4J})
    answers: dict = {}
    reader = threading.Thread(target=lambda: answers.update(
        (a["id"], a) for a in map(json.loads, proc.stdout)), daemon=True)
    reader.start()
    proc.stdin.write("\n".join(lines) + "\n")
    proc.stdin.flush()
    deadline = time.monotonic() + 300
    while len(answers) < len(MCP_CASES) + 1 and time.monotonic() < deadline:
        time.sleep(0.2)
    proc.stdin.close()
    try:
        proc.wait(timeout=30)
    finally:
        proc.kill()
    return answers


@pytest.mark.parametrize("number", range(len(MCP_CASES)), ids=[c["id"] for c in MCP_CASES])
def test_mcp_probe(number, mcp_answers):
    case = MCP_CASES[number]
    assert number in mcp_answers, f"no answer to {case['id']}: the client would wait for ever"
    answer = mcp_answers[number]
    if "tool_error" in case:
        result = answer["result"]
        assert result.get("isError") is True, answer
        text = result["content"][0]["text"]
        assert "\n" not in text and re.search(case["tool_error"], text), text
    else:
        assert answer["error"]["code"] == case["code"], answer
        assert re.search(case["message"], answer["error"]["message"]), answer


def test_the_docs_give_the_tables_counts():
    text = " ".join((Path(__file__).parents[2] / "docs" / "reliability.md").read_text().split())
    found = re.search(r"(\d+) rows: (\d+) of the CLI .*?, (\d+) of MCP over stdio .*?, (\d+) of the HTTP API "
                      r".*?, (\d+) of the pages .*? and (\d+) faults \((\d+) malformed.*?; (\d+) requests "
                      r".*?; and (\d+) commands", text)
    assert found, "docs/reliability.md: the probe suite's counts are missing"
    faults = [c["fault"] for c in CASES if "fault" in c]
    counts = [len(CASES), *(sum(k in c for c in CASES) for k in SURFACES)]
    assert tuple(map(int, found.groups())) == (*counts, sum("raw" in f for f in faults),
                                               sum(bool(f.get("neo4j_down")) for f in faults),
                                               sum("cli" in f for f in faults))
