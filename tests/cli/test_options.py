"""`--workers` left out: every usable CPU (pure: no server, the parse command on two real laws)."""

from __future__ import annotations

import click
from click.testing import CliRunner

from legalkg.cli import main as cli
from legalkg.machine import default_workers


def _workers_default(command: click.Command) -> int:
    param = next(p for p in command.params if p.name == "workers")
    with click.Context(command) as ctx:
        return param.get_default(ctx, call=True)


def test_parse_and_ingest_default_to_the_usable_cpus():
    assert _workers_default(cli.get_command(click.Context(cli), "parse")) == default_workers()
    assert _workers_default(cli.get_command(click.Context(cli), "ingest")) == default_workers()


def test_parse_without_workers_counts_what_one_process_counts():
    runner = CliRunner()
    default = runner.invoke(cli, ["parse", "--codes", "BGB,ZPO", "--json"])
    serial = runner.invoke(cli, ["parse", "--codes", "BGB,ZPO", "--json", "--workers", "1"])
    assert default.exit_code == 0 and serial.exit_code == 0, default.output + serial.output
    assert default.stdout == serial.stdout
    assert '"BGB"' in default.stdout and '"ZPO"' in default.stdout


def test_the_local_server_takes_its_password_from_dotenv_like_every_client(tmp_path, monkeypatch):
    from legalkg.cli.neo4j import server_settings

    monkeypatch.delenv("NEO4J_PASSWORD", raising=False)
    monkeypatch.delenv("LEGALKG_ENV_FILE", raising=False)  # the user's default: ./.env
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text("NEO4J_PASSWORD=from-dotenv-1\n", "utf-8")
    assert server_settings(tmp_path / "home", 7687, 7474).password == "from-dotenv-1"
    monkeypatch.setenv("NEO4J_PASSWORD", "from-env-2")  # the environment beats .env
    assert server_settings(tmp_path / "home", 7687, 7474).password == "from-env-2"


def test_legalkg_env_file_replaces_the_working_directorys_dotenv(tmp_path, monkeypatch):
    """The test run's sandbox relies on it: a named settings file is read instead of ./.env."""
    from legalkg.graph.config import load_config

    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text("NEO4J_PASSWORD=from-cwd\n", "utf-8")
    named = tmp_path / "other.env"
    named.write_text("NEO4J_PASSWORD=from-named\n", "utf-8")
    monkeypatch.setenv("LEGALKG_ENV_FILE", str(named))
    assert load_config(env={}).password == "from-named"
    monkeypatch.setenv("LEGALKG_ENV_FILE", str(tmp_path / "missing.env"))
    assert load_config(env={}).password is None
