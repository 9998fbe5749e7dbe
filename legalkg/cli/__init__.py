"""The ``legalkg`` command: a thin click shell over the library.

Every command lives in its own module under ``legalkg/cli/`` and only parses options, calls
library functions and prints. ``UserError`` becomes one line on stderr and a non-zero exit.

Commands load lazily (click's documented pattern for large CLIs): ``legalkg cite`` should not pay
for importing the chunking study's scikit-learn or the evaluation's pandas, so the group maps each
command name to its module and imports that module only when the command is asked for.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator

import click

from .. import __version__
from ..errors import UserError

#: command name -> (module under legalkg.cli, attribute holding the click command)
COMMAND_MODULES: dict[str, tuple[str, str]] = {
    "neo4j": ("neo4j", "neo4j_group"),
    "doctor": ("doctor", "doctor"),
    "parse": ("parse", "parse"),
    "cite": ("cite", "cite"),
    "ingest": ("ingest", "ingest"),
    "embed": ("embed", "embed"),
    "stats": ("stats", "stats"),
    "search": ("search", "search"),
    "context": ("context", "context"),
    "eval": ("eval", "eval_cmd"),
    "train": ("train", "train"),
    "train-encoder": ("train_encoder", "train_encoder"),
    "chunking-study": ("chunking", "chunking_study"),
    "serve": ("serve", "serve"),
    "verify": ("verify", "verify"),
}


class _Group(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMAND_MODULES)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMAND_MODULES:
            return None
        module, attribute = COMMAND_MODULES[cmd_name]
        return getattr(importlib.import_module(f"{__name__}.{module}"), attribute)

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


def walk_commands(cmd: click.Command = main, path: tuple[str, ...] = ("legalkg",)
                  ) -> Iterator[tuple[tuple[str, ...], click.Command]]:
    """(path, command) of ``cmd`` and every subcommand, depth first, sorted by name: what docs/cli.md
    lists and tests/test_docs.py checks (the top group loads its commands lazily, so it is walked
    through ``list_commands`` / ``get_command``, not ``.commands``)."""
    yield path, cmd
    if isinstance(cmd, click.Group):
        ctx = click.Context(cmd)
        for name in cmd.list_commands(ctx):
            yield from walk_commands(cmd.get_command(ctx, name), (*path, name))
