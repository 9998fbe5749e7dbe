"""The light commands stay light: what `legalkg --help`, `cite` and `verify` import (pure: no server).

Each check runs the command (or its import) in a fresh interpreter and reads ``sys.modules``
afterwards: a behaviour test of which packages a command loads, not a timed test. The heavy packages
cost 0.5-3 s of every cold start each (eval/cli-startup/README.md).
"""

from __future__ import annotations

import json
import subprocess
import sys

import click
import pytest

from legalkg.cli import COMMAND_MODULES, COMMAND_SUMMARIES, main

#: packages no light command may import: the neural backends, the data frames, the learners
HEAVY = ("torch", "sentence_transformers", "pandas", "sklearn", "lightgbm", "matplotlib", "scipy.stats")


def loaded_after(code: str) -> set[str]:
    """The modules loaded once ``code`` has run in a new interpreter (its output goes to /dev/null)."""
    script = ("import contextlib, io, json, sys\n"
              "with contextlib.redirect_stdout(io.StringIO()):\n"
              + "".join(f"    {line}\n" for line in code.splitlines())
              + "print(json.dumps(sorted(sys.modules)))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.splitlines()[-1]))


def run_cli(args: list[str]) -> str:
    return ("from legalkg.cli import main\n"
            f"try:\n    main({args!r}, standalone_mode=False)\nexcept SystemExit:\n    pass")


def heavy_in(modules: set[str]) -> list[str]:
    return sorted(h for h in HEAVY if h in modules)


def test_help_imports_no_command_module():
    modules = loaded_after(run_cli(["--help"]))
    assert heavy_in(modules) == []
    assert "neo4j" not in modules
    assert sorted(m for m in modules if m.startswith("legalkg.cli.") and m != "legalkg.cli.__main__") == []


def test_cite_imports_neither_the_driver_nor_a_heavy_package():
    modules = loaded_after(run_cli(["cite", "§ 573 Abs. 2 BGB"]))
    assert "legalkg.cli.cite" in modules and "legalkg.cite.registry" in modules
    assert heavy_in(modules) == []
    assert "neo4j" not in modules


def test_verify_command_loads_without_learners_or_frames():
    """Resolving `verify` imports its module and the driver (no server is asked): no pandas (the driver's
    optional import is hidden), no scikit-learn (the predictor's CV helpers are not needed)."""
    modules = loaded_after("import click\nfrom legalkg.cli import main\n"
                           "main.get_command(click.Context(main), 'verify')")
    assert {"legalkg.cli.verify", "legalkg.verify.verifier", "neo4j"} <= modules
    assert heavy_in(modules) == []


def test_search_command_loads_without_frames_from_the_driver():
    """The driver's optional pandas is hidden for `search`; the learned mode's own imports may still
    bring it (scikit-learn imports it), so this checks the driver: it kept no pandas."""
    modules = loaded_after("import click\nfrom legalkg.cli import main\n"
                           "main.get_command(click.Context(main), 'search')\n"
                           "from neo4j import _optional_deps\n"
                           "assert _optional_deps.pd is None, 'the driver imported pandas'")
    assert "legalkg.cli.search" in modules
    assert "torch" not in modules and "sentence_transformers" not in modules


@pytest.mark.parametrize("name", sorted(COMMAND_MODULES))
def test_summary_table_is_the_commands_own_help(name):
    command = main.get_command(click.Context(main), name)
    assert COMMAND_SUMMARIES[name] == command.get_short_help_str(limit=10**6)


def test_help_lists_what_click_lists_from_the_loaded_commands():
    ctx = click.Context(main)
    eager = click.Group("legalkg", commands={n: main.get_command(ctx, n) for n in main.list_commands(ctx)})
    lazy_out, eager_out = click.HelpFormatter(width=80), click.HelpFormatter(width=80)
    main.format_commands(ctx, lazy_out)
    eager.format_commands(click.Context(eager), eager_out)
    assert lazy_out.getvalue() == eager_out.getvalue()
    assert "  verify  " in lazy_out.getvalue()
