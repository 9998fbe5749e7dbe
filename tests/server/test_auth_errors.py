"""Neo4j's answers to wrong credentials, each its own line (issue 26.5).

After repeated wrong passwords Neo4j locks the user for a while (``dbms.security.auth_lock_time``,
5 s) and answers ``AuthenticationRateLimit``, also to the right password; that was reported as
"cannot reach Neo4j ... start it". A user of its own takes the lock, so other tests keep theirs.
"""

from __future__ import annotations

import secrets

import pytest
from click.testing import CliRunner

from legalkg.cli import main
from legalkg.errors import ConnectionProblem
from legalkg.graph.config import Neo4jConfig
from legalkg.graph.connection import open_driver


@pytest.fixture
def locked_user(driver, neo4j_cfg):
    """A user that Neo4j has just rate-limited: (name, its right password)."""
    if not neo4j_cfg.password:
        pytest.skip("server without auth")
    name, password = f"rl{secrets.token_hex(4)}", "right-" + secrets.token_hex(6)
    driver.execute_query(f"CREATE USER {name} SET PASSWORD $p CHANGE NOT REQUIRED", {"p": password},
                         database_="system")
    wrong = Neo4jConfig(uri=neo4j_cfg.uri, user=name, password="wrong-password", database=neo4j_cfg.database)
    for _ in range(3):
        with pytest.raises(ConnectionProblem):
            open_driver(wrong)
    yield name, password
    driver.execute_query(f"DROP USER {name} IF EXISTS", database_="system")


def test_rate_limit_is_its_own_line(locked_user, neo4j_cfg, monkeypatch):
    name, password = locked_user
    monkeypatch.setenv("NEO4J_URI", neo4j_cfg.uri)
    monkeypatch.setenv("NEO4J_USER", name)
    monkeypatch.setenv("NEO4J_PASSWORD", password)
    result = CliRunner().invoke(main, ["doctor"])
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    assert "cannot reach" not in lines[0] and "docker compose" not in lines[0]
    assert "too many" in lines[0] and "wait" in lines[0] and "NEO4J_PASSWORD" in lines[0]
