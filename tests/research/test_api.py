"""Every name the package docstring and ``__all__`` promise imports (no server)."""

import importlib
import re

import research.chunking as pkg


def _docstring_names() -> set[str]:
    block = re.search(r"from research\.chunking import \((.*?)\)", pkg.__doc__, re.S)
    assert block, "the package docstring shows its public import"
    return {n.strip() for n in block.group(1).split(",") if n.strip()}


def test_docstring_and_all_list_the_same_names():
    assert _docstring_names() == set(pkg.__all__)


def test_every_listed_name_imports():
    for name in sorted(_docstring_names() | set(pkg.__all__)):
        namespace: dict = {}
        exec(f"from research.chunking import {name}", namespace)  # the import a reader would write
        assert namespace[name] is getattr(importlib.import_module("research.chunking"), name)
