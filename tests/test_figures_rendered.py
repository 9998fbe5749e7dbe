"""Every rendered table equals what its result file gives today (pure, no server).

``research/figures.py`` renders each ``<!-- figures: NAME -->`` block of README.md, docs/ and the eval
READMEs from its result file; a table edited by hand, or a result file rewritten without
``python scripts/figures.py``, fails here.
"""

from __future__ import annotations

import pytest

from research import figures


def test_every_block_has_a_renderer_and_every_renderer_a_block():
    names = [name for _, name in figures.blocks()]
    assert sorted(set(names)) == sorted(figures.RENDERERS)


def test_no_table_differs_from_its_result_file():
    stale = [str(page.relative_to(figures.REPO)) for page, _ in figures.stale()]
    assert stale == [], "run `python scripts/figures.py`"


def test_a_changed_figure_in_a_block_is_seen():
    text = "x\n<!-- figures: cli-startup -->\n| made up |\n<!-- /figures -->\ny\n"
    rendered = figures.render(text)
    assert rendered != text and rendered.startswith("x\n<!-- figures: cli-startup -->\n| command |")
    assert figures.render(rendered) == rendered
    with pytest.raises(KeyError):
        figures.render("<!-- figures: no-such -->\n<!-- /figures -->")
