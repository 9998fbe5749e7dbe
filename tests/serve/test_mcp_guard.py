"""MCP over stdio answers a malformed request at once (issue 44, point 12): ``params`` that is not an
object, params nested 50,000 deep, an over-long line. The SDK dropped such lines unanswered and the
client waited for ever. The server process is the real ``run_stdio``; its tools are never reached
(the answers come before any tool runs), so its driver points at a closed port."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time

import pytest
from mcp_types import jsonrpc_message_adapter

from legalkg.serve.jsonrpc_guard import INVALID_PARAMS, INVALID_REQUEST, MAX_DEPTH, MAX_LINE_CHARS, problem, scan

SERVER = """
from neo4j import GraphDatabase
from legalkg.serve import Tools, mcp_server
mcp_server.run_stdio(Tools(GraphDatabase.driver("bolt://127.0.0.1:9", auth=("neo4j", "x")), vectors=False))
"""
INIT = [{"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"}]


def validate(line: str) -> object:
    return jsonrpc_message_adapter.validate_json(line, by_name=False)


def deep(n: int) -> str:
    return ('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"verify","arguments":'
            + '{"a":' * n + "1" + "}" * n + "}}")


def test_scan_finds_the_top_level_id_and_depth_without_parsing():
    assert scan('{"id": "a\\"b", "params": {"id": 5}}') == (2, 'a"b')
    assert scan('{"method": "id", "params": [], "id": 3}') == (2, 3)
    assert scan(deep(50_000)) == (50_002, 2)


@pytest.mark.parametrize(("line", "code", "words"), [
    ('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":"x"}', INVALID_PARAMS, "not a string"),
    ('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":[1]}', INVALID_PARAMS, "not an array"),
    ('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":7}', INVALID_PARAMS, "not a number"),
    (deep(50_000), INVALID_PARAMS, f"more than the {MAX_DEPTH} allowed"),
    ('{"jsonrpc":"2.0","id":2,"method":5}', INVALID_REQUEST, "method: Input should be a valid string"),
    ('{"jsonrpc":"2.0","id":2}', INVALID_REQUEST, "method: Field required"),
    ('{"jsonrpc":"1.0","id":2,"method":"tools/list"}', INVALID_REQUEST, "jsonrpc: Input should be '2.0'"),
    ('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"arguments":{"text":"\\ud800"}}}', INVALID_REQUEST,
     "invalid request: Invalid JSON: "),
])
def test_a_request_the_sdk_refuses_gets_one_error_line(line, code, words):
    answer = json.loads(problem(line, validate))
    assert answer["id"] == 2 and answer["error"]["code"] == code and re.search(words, answer["error"]["message"])
    assert "\n" not in answer["error"]["message"]


@pytest.mark.parametrize("line", [
    '{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{}}',  # good: the SDK's
    '{"jsonrpc":"2.0","method":"notifications/x","params":"x"}',  # no id: nobody waits for an answer
    "", "not json at all",
    '{"jsonrpc":"2.0","id":3,"result":5,"extra":[1]}',  # a client's answer to the server
])
def test_good_lines_and_lines_without_an_id_go_to_the_sdk(line):
    assert problem(line, validate) is None


def exchange(lines: list[str]) -> tuple[list[dict], float]:
    """Send the lines after initialize, close stdin, return the answers (not initialize's) and the time."""
    proc = subprocess.Popen([sys.executable, "-c", SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    start = time.monotonic()
    try:
        out, _ = proc.communicate("".join(json.dumps(m) + "\n" for m in INIT) + "".join(x + "\n" for x in lines),
                                  timeout=60)
    finally:
        proc.kill()
    answers = [json.loads(x) for x in out.splitlines()]
    assert answers[0]["id"] == 1 and "result" in answers[0]
    return answers[1:], time.monotonic() - start


def test_the_stdio_server_answers_bad_params_and_deep_nesting_at_once():
    answers, seconds = exchange(['{"jsonrpc":"2.0","id":2,"method":"tools/call","params":"x"}', deep(50_000),
                                 '{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{}}'])
    by_id = {a["id"]: a for a in answers}
    assert by_id[2]["error"]["code"] == INVALID_PARAMS
    assert {a["error"]["message"] for a in answers if a["id"] == 2} >= {
        "invalid params: params must be a JSON object, not a string"}
    assert sum(1 for a in answers if a["id"] == 2) == 2  # one answer per bad line
    assert {t["name"] for t in by_id[4]["result"]["tools"]} >= {"search", "verify"}  # and it still serves
    assert seconds < 30


def test_an_over_long_line_is_answered_and_the_next_one_served():
    head = '{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"verify","arguments":{"text":"'
    line = head + "x" * MAX_LINE_CHARS + '"}}}'
    answers, _ = exchange([line, '{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{}}'])
    assert answers[0]["id"] == 9 and answers[0]["error"]["code"] == INVALID_REQUEST
    assert f"over {MAX_LINE_CHARS:,} characters" in answers[0]["error"]["message"]
    assert answers[1]["id"] == 4 and "tools" in answers[1]["result"]
