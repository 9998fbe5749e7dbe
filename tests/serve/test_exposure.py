"""``serve --http`` on an address other than loopback needs a token, and the app checks it
(issue 36): no Neo4j is reached, the refusals come first."""

from __future__ import annotations

from click.testing import CliRunner
from fastapi.testclient import TestClient

from legalkg.cli import main
from legalkg.serve import Tools, build_app

TOKEN = "t0ken-for-the-tests-0123456789"


def test_a_public_address_without_a_token_is_refused_in_one_line(monkeypatch):
    monkeypatch.delenv("LEGALKG_API_TOKEN", raising=False)
    out = CliRunner().invoke(main, ["serve", "--http", "--host", "0.0.0.0", "--uri", "bolt://127.0.0.1:1"])
    assert out.exit_code == 1 and out.output.count("\n") == 1
    assert "--token" in out.output and "LEGALKG_API_TOKEN" in out.output
    short = CliRunner().invoke(main, ["serve", "--http", "--host", "0.0.0.0", "--token", "abc"])
    assert short.exit_code == 1 and "at least 16" in short.output
    blank = CliRunner().invoke(main, ["serve", "--http", "--host", "0.0.0.0", "--token", " " * 20])
    assert blank.exit_code == 1 and "at least 16" in blank.output, blank.output


def test_both_transports_at_once_are_refused_in_one_line():
    out = CliRunner().invoke(main, ["serve", "--mcp", "--http", "--uri", "bolt://127.0.0.1:1"])
    assert out.exit_code == 1 and "choose one transport" in out.output and out.output.count("\n") == 1


def test_a_public_address_with_a_token_warns_loudly(monkeypatch):
    monkeypatch.setenv("LEGALKG_API_TOKEN", TOKEN)
    out = CliRunner().invoke(main, ["serve", "--http", "--host", "0.0.0.0", "--uri", "bolt://127.0.0.1:1"])
    assert "WARNING: listening on 0.0.0.0" in out.output  # then the unreachable Neo4j ends it
    assert out.exit_code == 2 and "cannot reach Neo4j" in out.output


def test_the_app_checks_the_bearer_token():
    client = TestClient(build_app(Tools(None), token=TOKEN), raise_server_exceptions=False)
    body = {"query": "Kaution", "level": 5}  # refused by the argument check, once past the token
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": TOKEN}):
        resp = client.post("/search", json=body, headers=headers)
        assert resp.status_code == 401 and "token" in resp.json()["error"]
    assert client.get("/tools").status_code == 401
    ok = client.post("/search", json=body, headers={"Authorization": f"Bearer {TOKEN}"})
    assert ok.status_code == 400 and "'level'" in ok.json()["error"]
    for path in ("/health", "/docs", "/redoc", "/openapi.json"):  # every route needs it (issue 44)
        assert client.get(path).status_code in (401, 404), path
    # past the token: /health reports the graph (no Neo4j behind this app: 503 with the problem)
    past = client.get("/health", headers={"Authorization": f"Bearer {TOKEN}"})
    assert past.status_code == 503 and past.json()["ready"] is False and past.json()["problem"]


def test_the_web_pages_are_not_served_where_a_token_is_needed():
    """A browser sends no bearer token, so with one (any non-loopback address) the pages, which
    would otherwise be open to every machine, are not mounted; on loopback they are."""
    guarded = TestClient(build_app(Tools(None), token=TOKEN), raise_server_exceptions=False)
    for path in ("/", "/check?text=x", "/unit/BGB/%C2%A7573", "/context"):
        resp = guarded.get(path)
        assert resp.status_code in (404, 405) and "error" in resp.json(), path  # /context: the POST tool
    local = TestClient(build_app(Tools(None)), raise_server_exceptions=False)
    assert local.get("/").status_code == 200
