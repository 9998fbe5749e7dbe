"""Live-server round trips and the one-line connection errors (issue 2)."""

from __future__ import annotations

import urllib.request

import pytest
from click.testing import CliRunner

from legalkg.cli import main
from legalkg.errors import ConnectionProblem
from legalkg.graph.config import Neo4jConfig, load_config
from legalkg.graph.connection import open_driver


def test_query_round_trip(driver, neo4j_cfg):
    rec = driver.execute_query("RETURN $x + 1 AS y", {"x": 41}, database_=neo4j_cfg.database).records[0]
    assert rec["y"] == 42


def test_browser_answers_200(neo4j_server):
    settings, _ = neo4j_server
    if settings is None:
        pytest.skip("external server: Browser port unknown")
    with urllib.request.urlopen(settings.browser_url, timeout=10) as resp:
        assert resp.status == 200
        assert b"<html" in resp.read(4096).lower()


def test_doctor_reports_live_server(neo4j_env):
    result = CliRunner().invoke(main, ["doctor"])
    assert result.exit_code == 0, result.output
    assert "5.26" in result.output and "community" in result.output


@pytest.mark.parametrize("uri", ["bolt://127.0.0.1:1", "neo4j://127.0.0.1:9"])
def test_unreachable_server_is_one_line_exit_2(uri, monkeypatch):
    monkeypatch.setenv("NEO4J_URI", uri)
    result = CliRunner().invoke(main, ["doctor"])
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    assert uri in lines[0] and "legalkg neo4j start" in lines[0]
    assert "Traceback" not in result.output


def test_wrong_password_is_one_line_exit_2(neo4j_env, monkeypatch):
    if not neo4j_env.password:
        pytest.skip("server without auth")
    monkeypatch.setenv("NEO4J_PASSWORD", neo4j_env.password + "-wrong")
    result = CliRunner().invoke(main, ["doctor"])
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "refused the credentials" in lines[0], result.output


def test_bad_uri_scheme_names_the_fix():
    with pytest.raises(ConnectionProblem, match="NEO4J_URI"):
        open_driver(Neo4jConfig(uri="http://127.0.0.1:7474"))


def test_config_precedence(tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text("NEO4J_URI=bolt://from-file:7687\nNEO4J_PASSWORD=filepw\n")
    cfg = load_config(env={"NEO4J_URI": "bolt://from-env:7687"}, dotenv_path=env_file)
    assert cfg.uri == "bolt://from-env:7687"  # environment beats .env
    assert cfg.password == "filepw"  # .env fills what the environment lacks
    cfg = load_config(uri="bolt://flag:1", env={"NEO4J_URI": "bolt://from-env:7687"}, dotenv_path=env_file)
    assert cfg.uri == "bolt://flag:1"  # flags beat both
