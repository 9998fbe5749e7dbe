"""The ``legalkg`` command: a thin click shell over the library.

Every command lives in its own module under ``legalkg/cli/`` and only parses options, calls
library functions and prints. ``UserError`` becomes one line on stderr and a non-zero exit.
"""

from __future__ import annotations

import sys

import click

from .. import __version__
from ..errors import UserError


class _Group(click.Group):
    def invoke(self, ctx: click.Context):  # type: ignore[override]
        try:
            return super().invoke(ctx)
        except UserError as err:
            click.echo(f"error: {err}", err=True)
            sys.exit(err.exit_code)
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            sys.exit(130)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="legalkg")
def main() -> None:
    """German federal statutes as a Neo4j knowledge graph: parse, ingest, search, evaluate."""


def _register() -> None:
    from . import chunking, cite, doctor, eval as eval_cmd, ingest, neo4j, parse, rank, search, stats, train

    for module in (neo4j, doctor, parse, cite, ingest, stats, search, eval_cmd, chunking, rank, train):
        for command in getattr(module, "COMMANDS", ()):
            main.add_command(command)


_register()
