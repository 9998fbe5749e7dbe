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
