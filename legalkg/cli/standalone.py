"""Run a click command as a script (``python -m ...`` / ``benchmarks/*.py``) with the CLI's error rule:
a ``UserError`` is one line on stderr and a non-zero exit, never a traceback."""

from __future__ import annotations

import sys

import click

from ..errors import UserError


def run(command: click.Command, exit_code: int = 2) -> None:
    try:
        command(standalone_mode=True)
    except UserError as err:
        click.echo(f"error: {err}", err=True)
        sys.exit(exit_code)
