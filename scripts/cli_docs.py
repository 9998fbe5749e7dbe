"""Write docs/cli.md: every `legalkg` command with the first line of its help.

Why a generated list: tests/test_docs.py fails when a command is neither in README.md nor here, so a
new command is documented by running ``.venv/bin/python scripts/cli_docs.py`` (its options are in
``legalkg COMMAND --help``, which click builds from the code and therefore cannot drift).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from legalkg.cli import main, walk_commands

OUT = Path(__file__).resolve().parents[1] / "docs" / "cli.md"


def first_line(cmd: click.Command) -> str:
    """The help's first paragraph on one line, safe inside a table cell."""
    text = (cmd.help or cmd.short_help or "").strip().split("\n\n")[0]
    return " ".join(text.split()).replace("|", "\\|")


def render() -> str:
    rows = [f"| `{' '.join(path)}` | {first_line(cmd)} |"
            for path, cmd in walk_commands(main) if len(path) > 1]
    return "\n".join([
        "# Commands",
        "",
        "Every `legalkg` command with the first line of its help; `legalkg COMMAND --help` lists its options.",
        "Written by `.venv/bin/python scripts/cli_docs.py`; tests/test_docs.py fails when a command is missing",
        "here or lacks help, and when a `legalkg` command in README.md does not parse.",
        "",
        "| command | what it does |",
        "|---|---|",
        *rows,
        "",
    ])


if __name__ == "__main__":
    OUT.write_text(render(), "utf-8")
    print(f"wrote {OUT} ({sum(1 for _ in walk_commands(main)) - 1} commands)", file=sys.stderr)
