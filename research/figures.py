"""Tables of figures rendered from their result files, and the check that prose quotes every figure.

A page holds a rendered table between ``<!-- figures: NAME -->`` and ``<!-- /figures -->``;
``RENDERERS[NAME]`` (``research/figure_tables.py``) reads the table's result file and returns the
table. ``scripts/figures.py`` rewrites every block from the files, and ``tests/test_figures_rendered.py``
re-renders them and fails on any difference, so a table cannot drift from the file it names: a new
result file is a new ``results.json`` and one run of the script, never an edit by hand.

A figure quoted in prose names its file and field in a comment after it (``research/quotes.py``);
``unquoted`` lists the figures of a page that no comment reads, outside rendered blocks.
``tests/test_figures.py`` checks both; docs/evaluation.md section 8 describes them.
"""

from __future__ import annotations

import re
from pathlib import Path

from research.figure_tables import RENDERERS
from research.quotes import REPO, Quote, masked, quotes

__all__ = ["REPO", "RENDERERS", "Quote", "quotes", "pages", "render", "stale", "blocks", "unquoted"]

BLOCK = re.compile(r"(<!-- figures: (?P<name>[\w-]+) -->\n)(?P<body>.*?)(<!-- /figures -->)", re.S)


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


#: a figure that prose quotes: a share, a time, a ratio, a score beside its metric's name, or any decimal
FIGURE = re.compile(
    r"(?<![\w.@-])\d[\d,.]*(?:\s?(?:%|ms\b|s\b|min\b|h\b)|×|x\b)"
    r"|\b(?:R@\d+|[Rr]ecall(?:@\d+)?|hit@\d+|MRR|nDCG(?:@\d+)?|ToER\w*(?:@\d+)?|AUC|F1)(?![\w@])"
    r"[^\d\n]{0,12}(?<![\w.@-])\d[\d,.]*"
    r"|(?<![\w.@/§$-])\d+\.\d+(?!\.?\d)"
)
#: not a measurement: a confidence level, a software version, an arXiv number
SETTING = re.compile(r"\b(?:90|95|99) ?% (?:\w+ ){0,2}(?:CI|confidence|interval|bootstrap|percentile|Wilson)"
                     r"|\b(?:Neo4j|Community|arXiv|Java|JDK)\s+\d+(?:\.\d+)+")


def blank(text: str, pattern: re.Pattern) -> str:
    return pattern.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def unquoted(page: Path, allowed: list[str] = ()) -> list[str]:
    """'page:line: figure | line' for each figure in ``page``'s prose or tables that no
    ``<!-- from ... -->`` comment reads from its file, outside rendered blocks and lines holding one of
    ``allowed`` (settings and definitions, not measurements)."""
    text = page.read_text("utf-8")
    prose = blank(masked(blank(text, BLOCK)), SETTING)
    covered = [(q.start, q.end) for q in quotes(page, text)]
    lines = text.splitlines()
    out = []
    for match in FIGURE.finditer(prose):
        if any(start < match.end() and match.start() < end for start, end in covered):
            continue
        number = text.count("\n", 0, match.start())
        if not any(words in lines[number] for words in allowed):
            line = lines[number].strip()[:90]
            out.append(f"{page.relative_to(REPO)}:{number + 1}: {match.group(0).strip().rstrip('.,')} | {line}")
    return out
