"""Every `legalkg CMD --option` that a docstring, comment or query file names exists (issue 26.10:
admin.py and wipe.cypher pointed at an `ingest --wipe` that no command has)."""

from __future__ import annotations

import re

import click
import pytest

from legalkg.cli import main
from legalkg.paths import REPO_ROOT

MENTION = re.compile(r"`legalkg ((?:[a-z][a-z0-9-]* ?)+)((?: --[a-z0-9-]+(?: [^`\s-][^`\s]*)?)+)")
FILES = sorted([*(REPO_ROOT / "legalkg").rglob("*.py"), *(REPO_ROOT / "cypher").rglob("*.cypher")])


def mentions() -> list[tuple[str, str, list[str]]]:
    found = []
    for path in FILES:
        for m in MENTION.finditer(path.read_text("utf-8")):
            found.append((path.relative_to(REPO_ROOT).as_posix(), m.group(1).strip(),
                          re.findall(r"--[a-z0-9-]+", m.group(2))))
    return found


def options_of(words: str) -> set[str]:
    cmd: click.Command = main
    ctx = click.Context(main, info_name="legalkg")
    for word in words.split():
        if not isinstance(cmd, click.Group):
            break
        sub = cmd.get_command(ctx, word)
        if sub is None:
            break
        cmd, ctx = sub, click.Context(sub, info_name=word, parent=ctx)
    return {opt for p in cmd.params for opt in (*p.opts, *p.secondary_opts)}


def test_the_scan_finds_mentions():
    assert len(mentions()) > 10


@pytest.mark.parametrize("where,words,flags", mentions())
def test_a_mentioned_option_exists(where, words, flags):
    missing = [f for f in flags if f not in options_of(words)]
    assert not missing, f"{where} names `legalkg {words} {' '.join(missing)}`, which does not exist"
