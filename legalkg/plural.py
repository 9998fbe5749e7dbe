"""A counted noun in the CLI's English: "1 citation", "2 citations", "0 laws" (issue 44: "1 citations").

The pages say their counts in German and English through ``serve.web.i18n`` (a ``KEY_one`` string
for a count of 1); the command lines speak English and use this.
"""

from __future__ import annotations


def noun(n: int, one: str, many: str | None = None) -> str:
    """``one`` for a count of 1, else ``many`` (``one`` + "s" unless given)."""
    return one if n == 1 else (many if many is not None else one + "s")


def counted(n: int, one: str, many: str | None = None) -> str:
    """``n`` and its noun: ``counted(1, "law")`` is "1 law", ``counted(3, "law")`` "3 laws"."""
    return f"{n} {noun(n, one, many)}"
