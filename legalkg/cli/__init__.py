"""The ``legalkg`` command: a thin click shell over the library.

Every command lives in its own module under ``legalkg/cli/`` and only parses options, calls
library functions and prints. ``UserError`` becomes one line on stderr and a non-zero exit.

Commands load lazily (click's documented pattern for large CLIs): ``legalkg cite`` should not pay
for importing the evaluation's pandas or the training's scikit-learn, so the group maps each
command name to its module and imports that module only when the command is asked for.
``legalkg --help`` lists the commands from ``COMMAND_SUMMARIES`` and so imports none of them
(tests/cli/test_light_commands.py keeps that table equal to the commands' own help).
"""

from __future__ import annotations

import errno
import importlib
import logging
import os
import sys
from collections.abc import Iterator

import click

from .. import __version__
from ..errors import UserError
from ..gcpolicy import relaxed

#: command name -> (module under legalkg.cli, attribute holding the click command)
COMMAND_MODULES: dict[str, tuple[str, str]] = {
    "neo4j": ("neo4j", "neo4j_group"),
    "doctor": ("doctor", "doctor"),
    "parse": ("parse", "parse"),
    "cite": ("cite", "cite"),
    "ingest": ("ingest", "ingest"),
    "ingest-cases": ("ingest_cases", "ingest_cases"),
    "embed": ("embed", "embed"),
    "stats": ("stats", "stats"),
    "search": ("search", "search"),
    "context": ("context", "context"),
    "eval": ("eval", "eval_cmd"),
    "train": ("train", "train"),
    "train-encoder": ("train_encoder", "train_encoder"),
    "serve": ("serve", "serve"),
    "verify": ("verify", "verify"),
    "define": ("define", "define"),
    "references": ("references", "references"),
}

#: command name -> its one-line help, as ``click.Command.get_short_help_str`` gives it: what
#: ``legalkg --help`` lists without importing the commands (importing all of them took seconds)
COMMAND_SUMMARIES: dict[str, str] = {
    "cite": "Find statute citations in TEXT ('-' reads stdin); one JSON object per citation chain.",
    "context": "Pick the units to put into a prompt for QUERY ('-' reads it from stdin), led by the §§ the engine "
               "ranks first, never a unit or a text twice, never over --budget (docs/context.md).",
    "define": "Print the legal definitions of TERM with their scope; exit 1 when the graph has none.",
    "doctor": "Server version and edition, indexes, constraints, counts and embedding models.",
    "embed": "Embed the units that have no vector yet, or whose text changed: resumable (a killed run keeps what "
             "it wrote and its content-hash cache, and the next run embeds only the rest).",
    "eval": "Recall, ToER and ToER^m by citation depth (Code ...",
    "ingest": "Load statutes into Neo4j: idempotent (a second run changes nothing) and resumable.",
    "ingest-cases": "Load court decisions as Decision nodes citing the deepest statute unit: idempotent (a second "
                    "run changes nothing); a bad record is one line with its line number, counted, and skipped.",
    "neo4j": "Run a real Neo4j 5.26 Community server from Maven Central jars (no Docker needed).",
    "parse": "Parse statutes into the unit tree; report failures one line per file.",
    "references": "List the statute citations that point to a missing or repealed unit (--broken), as CSV or "
                  "JSON; no Neo4j needed.",
    "search": "Find the statute units that answer QUERY ('-' reads it from stdin).",
    "serve": "Serve the tools search, get_unit, verify, context and related over MCP (stdio) or HTTP.",
    "stats": "Node counts per label and relationship counts per type, with the paper's totals.",
    "train": "Train the statute predictor on DATA and write it to OUT.",
    "train-encoder": "Train the static (token-table) encoder and write it to OUT.",
    "verify": "Check every statute citation in TEXT, stdin ('-', the default) or FILE against the graph.",
}


#: Commands whose process never hands the driver a pandas object. The Neo4j driver imports pandas
#: when it is installed (0.5-1 s), only to accept DataFrames as query parameters and for
#: ``Result.to_df``; for these commands it is imported with pandas hidden.
DRIVER_WITHOUT_PANDAS = frozenset({"search", "verify", "context", "doctor", "stats"})


#: One-shot commands that run under ``gcpolicy``'s collector thresholds: a cold start builds a few
#: hundred thousand objects (imports, model headers, § texts) and no cycles worth collecting early;
#: with CPython's defaults the collector walked them again and again (about 0.2 s of a cold search's
#: CPU, eval/cli-startup/). Not ``serve``, which runs for days.
RELAXED_GC = frozenset({"cite", "context", "define", "references", "search", "verify"})


def import_driver_without_pandas() -> None:
    """Import the Neo4j driver while ``import pandas`` fails, unless either is loaded already."""
    if "neo4j" in sys.modules or "pandas" in sys.modules:
        return
    sys.modules["pandas"] = None  # type: ignore[assignment]  # the import system's "not installed"
    try:
        importlib.import_module("neo4j")
    finally:
        del sys.modules["pandas"]


class _Group(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMAND_MODULES)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMAND_MODULES:
            return None
        module, attribute = COMMAND_MODULES[cmd_name]
        if cmd_name in DRIVER_WITHOUT_PANDAS:
            import_driver_without_pandas()
        return getattr(importlib.import_module(f"{__name__}.{module}"), attribute)

    def resolve_command(self, ctx: click.Context, args: list[str]):  # type: ignore[override]
        """click's, with ``RELAXED_GC``'s thresholds from here (the command's imports) to the end of
        the call (the group's context restores the old ones)."""
        if args and args[0] in RELAXED_GC:
            ctx.with_resource(relaxed())
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """click's command list, from ``COMMAND_SUMMARIES`` instead of the imported commands."""
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = [(name, click.Command(name, help=COMMAND_SUMMARIES[name]).get_short_help_str(limit))
                for name in names]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def make_context(self, info_name, args, parent=None, **extra):  # type: ignore[override]
        """``legalkg --help`` and ``--version`` write while the arguments are parsed, before ``invoke``."""
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except OSError as err:
            if err.errno not in FULL:
                raise
            output_failed(err)

    def invoke(self, ctx: click.Context):  # type: ignore[override]
        try:
            try:
                return super().invoke(ctx)
            finally:
                sys.stdout.flush()  # a full disk fails here, inside this handler, not at interpreter exit
        except OSError as err:
            if err.errno not in FULL:
                raise
            output_failed(err)
        except click.UsageError as err:
            if isinstance(err, click.exceptions.NoArgsIsHelpError):
                raise
            usage_error(err)
        except UserError as err:
            click.echo(f"error: {err}", err=True)
            sys.exit(err.exit_code)
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            sys.exit(130)
        except Exception as err:
            if not type(err).__module__.startswith("neo4j"):
                raise
            # Neo4j went away mid-run (after the connection check): one line, not a driver traceback
            click.echo(f"error: lost Neo4j during the command ({type(err).__name__}): check that it runs "
                       "(`legalkg neo4j status` or `docker compose ps`) and run the command again", err=True)
            sys.exit(2)


#: Write errors of the output itself (``> /dev/full``, a full disk, a closed pipe): one line, exit 2.
FULL = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EPIPE)


def output_failed(err: OSError) -> None:
    """One line (none for a closed pipe: ``| head`` stopped reading), exit 2. stdout goes to
    /dev/null first, so the interpreter's final flush does not fail again with a traceback."""
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - lives until the process ends
    if err.errno != errno.EPIPE:
        click.echo(f"error: cannot write the output ({err.strerror}): free some space or write it "
                   "elsewhere", err=True)
    sys.exit(2)


def usage_error(err: click.UsageError) -> None:
    """A bad option or argument as one line naming the command's help (click writes three: Usage,
    Try, Error), exit 2 as click's."""
    where = err.ctx.command_path if err.ctx is not None else "legalkg"
    message = err.format_message().rstrip(".")
    click.echo(f"error: {message}: see '{where} --help'", err=True)
    sys.exit(err.exit_code)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="legalkg")
def main() -> None:
    """German federal statutes as a Neo4j knowledge graph: parse, ingest, search, evaluate."""
    # The driver logs each retry of a failed transaction as a warning; with no handler of its own
    # Python prints them (10-30 lines when Neo4j stops mid-run). The failure itself is one line.
    logging.getLogger("neo4j").addHandler(logging.NullHandler())


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
