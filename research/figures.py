"""Tables of figures rendered from their result files: one renderer per table, one marked block per page.

A page holds a rendered table between ``<!-- figures: NAME -->`` and ``<!-- /figures -->``;
``RENDERERS[NAME]`` reads the table's result file and returns the table. ``scripts/figures.py``
rewrites every block from the files, and ``tests/test_figures_rendered.py`` re-renders them and fails
on any difference, so a table cannot drift from the file it names: a new result file is a new
``results.json`` and one run of the script, never an edit by hand.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BLOCK = re.compile(r"(<!-- figures: (?P<name>[\w-]+) -->\n)(?P<body>.*?)(<!-- /figures -->)", re.S)


def read_json(rel: str) -> dict:
    return json.loads((REPO / rel).read_text("utf-8"))


def spread(values: dict, unit: str = " s", digits: int = 2) -> str:
    """``median (min-max)`` of a ``{"min", "median", "max"}`` record."""
    f = f"{{:.{digits}f}}"
    return f"{f.format(values['median'])}{unit} ({f.format(values['min'])}-{f.format(values['max'])})"


#: eval/cli-startup: the label and goal of each command measured
CLI_COMMANDS = {"help": ("`legalkg --help`", "≤ 0.3 s"), "cite": ('`legalkg cite "§ 573 Abs. 2 BGB"`', "≤ 0.5 s"),
                "verify": ('`legalkg verify "<3 citations>"`', "≤ 1.5 s"),
                "search": ('`legalkg search "Mein Vermieter gibt die Kaution nicht zurück"`', "≤ 1.5 s")}


def cli_startup(folder: str = "eval/cli-startup") -> str:
    """``folder``/results.json: wall and CPU seconds per command, old and new install."""
    res = read_json(f"{folder}/results.json")
    lines = ["| command | old median wall (min-max) | new median wall (min-max) | new/old | old / new median CPU "
             "| goal |", "|---|---|---|---|---|---|"]
    for name, row in res["commands"].items():
        label, goal = CLI_COMMANDS[name]
        digits = 3 if row["new"]["wall_s"]["median"] < 0.1 else 2
        lines.append(f"| {label} | {spread(row['old']['wall_s'])} | {spread(row['new']['wall_s'], digits=digits)} "
                     f"| {row['new_over_old_median_wall']:.3f} | {row['old']['cpu_s']['median']:.2f} s / "
                     f"{row['new']['cpu_s']['median']:.2f} s | {goal} |")
    return "\n".join(lines)


def readme_examples() -> str:
    """eval/ranker/graph-candidates/examples/results.json: README's example questions as the shipped
    engine answers them, beside the version it was compared with (``research.examples``)."""
    from research.examples import table

    res = read_json("eval/ranker/graph-candidates/examples/results.json")
    return table(res["rows"], res.get("before"))


def context_packs() -> str:
    """eval/context-packs/results.md: the table ``eval/context-packs/run.py`` writes from its results.csv."""
    return (REPO / "eval/context-packs/results.md").read_text("utf-8").rstrip("\n")


def table_of(rel: str) -> str:
    """The Markdown table of a ``results.md`` that a folder's own script writes from its results.csv."""
    text = (REPO / rel).read_text("utf-8")
    return "\n".join(line for line in text.splitlines() if line.startswith("|"))


RENDERERS: dict[str, Callable[[], str]] = {
    "cli-startup": cli_startup, "readme-examples": readme_examples,
    "cli-startup-graph-ranker": lambda: cli_startup("eval/cli-startup/graph-ranker"),
    "cli-startup-mapped": lambda: cli_startup("eval/cli-startup/mapped"),
    "context-packs": context_packs, "expand-decisions": lambda: table_of("eval/expand-decisions/results.md")}


def pages() -> list[Path]:
    """The pages that may hold rendered tables: README.md, docs/ and the eval READMEs."""
    return [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md")), *sorted((REPO / "eval").rglob("README.md"))]


def render(text: str) -> str:
    """``text`` with every marked block re-rendered; ``KeyError`` for a block without a renderer."""
    return BLOCK.sub(lambda m: m.group(1) + RENDERERS[m.group("name")]() + "\n" + m.group(4), text)


def stale() -> list[tuple[Path, str]]:
    """(page, rendered text) of each page whose blocks differ from their result files."""
    out = []
    for page in pages():
        text = page.read_text("utf-8")
        new = render(text)
        if new != text:
            out.append((page, new))
    return out


def blocks() -> list[tuple[Path, str]]:
    """(page, renderer name) of every marked block."""
    return [(page, m.group("name")) for page in pages() for m in BLOCK.finditer(page.read_text("utf-8"))]
