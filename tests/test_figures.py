"""Every figure in README.md and docs/ names its committed result file (pure, no server).

A figure is a measured number: a share (``12.5 %``), a time (``340 ms``, ``25 s``, ``2 min``), a ratio
(``1.9×``, ``3x``) or a score beside a metric's name (``R@10 0.52``, ``ToER 2.3``, ``AUC 0.823``). The
paragraph that quotes one (or the table it sits in) must name a result: a path under ``eval/`` or
``docs/benchmarks/`` (written out, or as a Markdown link from docs/) that exists. docs/benchmarks/ are
the result pages themselves and are not read; fenced code blocks are commands, not claims. Settings
(``--timeout 30 s``, a 15 s default) are no figures: ALLOWED names each such line's words once.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from legalkg.paths import REPO_ROOT

#: the pages whose figures must name their file
PAGES = [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").glob("*.md"))]

NUMBER = r"\d[\d,.]*"
FIGURE = re.compile(
    rf"(?<![\w.@-]){NUMBER}(?:\s?(?:%|ms\b|s\b|min\b|h\b)|×|x\b)"  # share, time, ratio (1.9×, 3x)
    rf"|(?:R@\d+|[Rr]ecall@\d+|hit@\d+|MRR|nDCG|ToER\S*|AUC|F1)[^\d\n]{{0,12}}"
    rf"(?<![\w.-]){NUMBER}"  # a score beside its metric
)
#: a confidence level is a setting of the statistics, not a measurement
CONFIDENCE = re.compile(r"\b(?:90|95|99) ?% (?:\w+ ){0,2}(?:CI|confidence|interval|bootstrap|percentile|Wilson)")
#: a result named on the page: a path under eval/ or docs/benchmarks/, written out or linked, or the paper's
#: figures as quoted in research/paper.py
RESULT = re.compile(r"(?:\.\./)?(?:eval/[\w./-]+|docs/benchmarks/[\w./-]+|(?<![\w/.])benchmarks/[\w.-]+\.md"
                    r"|research/paper\.py)")

#: (page, words of the line): a setting or a definition, not a measurement
ALLOWED: list[tuple[str, str]] = [
    ("citations.md", "20 s per test"),  # the pytest-timeout limit of tests/cite/test_robustness.py
    ("evaluation.md", "Default 1,000 resamples, seed 0, 95 %"),  # the bootstrap's defaults
    ("serve.md", "at 80 % size in 64 colours"),  # how the screenshots were shrunk
    ("serve.md", "Goal: every page p95 ≤ 300 ms"),  # the goal, not a measurement
]


def paragraphs(markdown: str) -> list[tuple[int, str]]:
    """(first line number, text) of each blank-line-separated block outside fenced code. A block that
    follows one ending in ``:`` (a list after its lead-in) or a table after its caption joins it: the
    lead-in or caption names the file for what follows."""
    blocks: list[tuple[int, str]] = []
    current: list[str] = []
    start, fenced = 0, False

    def close() -> None:
        if not current:
            return
        text = "\n".join(current)
        if blocks and (blocks[-1][1].rstrip().endswith(":")
                       or (text.lstrip().startswith("|") and not blocks[-1][1].lstrip().startswith("|"))):
            blocks[-1] = (blocks[-1][0], blocks[-1][1] + "\n" + text)
        else:
            blocks.append((start, text))
        current.clear()

    for number, line in enumerate(markdown.splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            close()
        elif fenced:
            continue
        elif line.strip():
            if not current:
                start = number
            current.append(line)
        else:
            close()
    close()
    return blocks


def results_named(block: str, page: Path) -> list[str]:
    """Result paths the block names that exist (relative to the repository or to the page)."""
    found = []
    for match in RESULT.finditer(block):
        name = match.group(0).rstrip(".,);:")
        path = name[3:] if name.startswith("../") else name
        candidates = [REPO_ROOT / path, page.parent / name]
        if name.startswith("benchmarks/"):
            candidates.append(REPO_ROOT / "docs" / name)
        if any(c.exists() for c in candidates):
            found.append(name)
    return found


def allowed(page: Path, line: str) -> bool:
    return any(page.name == name and words in line for name, words in ALLOWED)


def unsourced(page: Path) -> list[str]:
    """'page:line: text' for each line quoting a figure in a block that names no result file."""
    out = []
    for start, block in paragraphs(page.read_text("utf-8")):
        if results_named(block, page):
            continue
        for offset, line in enumerate(block.splitlines()):
            if FIGURE.search(CONFIDENCE.sub("", line)) and not allowed(page, line):
                out.append(f"{page.relative_to(REPO_ROOT)}:{start + offset}: {line.strip()[:110]}")
    return out


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_figure_names_its_result_file(page):
    missing = unsourced(page)
    assert not missing, "figures without a result file (name eval/... or docs/benchmarks/... in the " \
                        "paragraph, or move the figure to docs/benchmarks/):\n" + "\n".join(missing)


def test_the_check_finds_a_figure_without_a_file_and_accepts_one_with_it(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("Search answers in 340 ms.\n\nThe pack is 1.9× the words "
                    "([bench](benchmarks/ingest.md)).\n\n```\nlegalkg search --timeout 30s\n```\n", "utf-8")
    blocks = paragraphs(page.read_text("utf-8"))
    assert [bool(FIGURE.search(b)) for _, b in blocks] == [True, True]
    assert not results_named(blocks[0][1], page)
    assert results_named(blocks[1][1], REPO_ROOT / "docs" / "page.md") == ["benchmarks/ingest.md"]
    assert not results_named("see eval/no-such-folder/results.csv", page)  # a named file must exist


def test_every_eval_folder_is_listed_in_eval_readme():
    listed = (REPO_ROOT / "eval" / "README.md").read_text("utf-8")
    folders = sorted(p.name for p in (REPO_ROOT / "eval").iterdir() if p.is_dir() and p.name != "out")
    missing = [name for name in folders if f"]({name}/" not in listed]
    assert not missing, f"eval/README.md does not list: {missing}"


def test_the_product_and_its_docs_name_no_machine_path():
    """Paths of the machine the project was built on mean nothing to a reader: docs, code and shipped
    files say ``$LEGALKG_SHARED`` or a path in the checkout (every tracked file: tests/test_machine_paths.py)."""
    from tests.test_machine_paths import MACHINE

    files = [*PAGES, *sorted((REPO_ROOT / "legalkg").rglob("*.py")),
             *sorted((REPO_ROOT / "legalkg" / "data").glob("*.json"))]
    found = [f"{f.relative_to(REPO_ROOT)}:{n}" for f in files
             for n, line in enumerate(f.read_text("utf-8").splitlines(), 1) if MACHINE.search(line)]
    assert not found, f"machine paths: {found}"
