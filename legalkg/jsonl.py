"""Read a JSON Lines file (``.gz`` allowed) record by record, every failure as one ``UserError`` line.

Why one reader: evaluation datasets (``legalkg eval --dataset``) and training data (``legalkg
train --data``) are files of the same form, and a broken one must fail the same way in both: the
file and line, what is wrong, and the fix. ``what`` names the file's role in those messages
("dataset", "training file"); ``missing`` is the fix for a path that does not exist.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .errors import UserError

#: Longest line read, in characters: a case of a dataset is a few KB; a 194 KB gzip holding one
#: 200 MB line took 676 MB before its parse failed.
MAX_LINE_CHARS = 10_000_000


def records(path: Path, what: str, missing: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for every non-blank line of ``path``."""
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rt", encoding="utf-8") as fh:  # type: ignore[operator]
            for lineno, line in enumerate(iter(lambda: fh.readline(MAX_LINE_CHARS + 1), ""), 1):
                if len(line) > MAX_LINE_CHARS:
                    raise UserError(f"{path}:{lineno}: a line over {MAX_LINE_CHARS:,} characters; a {what} "
                                    "holds one case per line (is it the right file?)")
                if not line.strip():
                    continue
                rec = _parse(line, f"{path}:{lineno}", what)
                if not isinstance(rec, dict):
                    raise UserError(f"{path}:{lineno}: each line must be a JSON object")
                yield lineno, rec
    except FileNotFoundError:
        raise UserError(f"{what} not found: {path}; {missing}") from None
    except IsADirectoryError:
        raise UserError(f"{what} {path} is a folder: pass a JSONL file (.jsonl or .jsonl.gz)") from None
    except gzip.BadGzipFile:
        raise UserError(f"{what} {path} ends in .gz but is not gzip data: compress it with gzip "
                        "or drop the .gz suffix") from None
    except (UnicodeDecodeError, EOFError, OSError) as err:
        raise UserError(f"{what} {path} cannot be read as UTF-8 JSON Lines ({type(err).__name__}): "
                        "save it as UTF-8 text, one JSON object per line") from None


def each_record(path: Path, what: str, missing: str) -> Iterator[tuple[int, dict[str, Any] | None, str | None]]:
    """(line number, object, None) for every good line and (line number, None, problem) for every bad
    one: a dump of 250,000 decisions is loaded past its few broken lines, each reported on its own.
    A file that cannot be opened or read at all is still one ``UserError``."""
    lines = _lines(path, what, missing)
    for lineno, line in lines:
        if line is None:
            yield lineno, None, f"a line over {MAX_LINE_CHARS:,} characters: one record per line"
            continue
        try:
            rec = _parse(line, "", what)
        except UserError as err:
            yield lineno, None, str(err).removeprefix(": ")
            continue
        if isinstance(rec, dict):
            yield lineno, rec, None
        else:
            yield lineno, None, "each line must be a JSON object"


def _lines(path: Path, what: str, missing: str) -> Iterator[tuple[int, str | None]]:
    """(line number, text) of every non-blank line; a line longer than ``MAX_LINE_CHARS`` comes back as
    None, read past without being held."""
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rt", encoding="utf-8") as fh:  # type: ignore[operator]
            lineno = 0
            for line in iter(lambda: fh.readline(MAX_LINE_CHARS + 1), ""):
                lineno += 1
                long = len(line) > MAX_LINE_CHARS
                while long and not line.endswith("\n"):  # the rest of the long line, unread
                    line = fh.readline(MAX_LINE_CHARS + 1)
                    if not line:
                        break
                if line.strip() or long:
                    yield lineno, (None if long else line)
    except FileNotFoundError:
        raise UserError(f"{what} not found: {path}; {missing}") from None
    except IsADirectoryError:
        raise UserError(f"{what} {path} is a folder: pass a JSONL file (.jsonl or .jsonl.gz)") from None
    except gzip.BadGzipFile:
        raise UserError(f"{what} {path} ends in .gz but is not gzip data: compress it with gzip "
                        "or drop the .gz suffix") from None
    except (UnicodeDecodeError, EOFError, OSError) as err:
        raise UserError(f"{what} {path} cannot be read as UTF-8 JSON Lines ({type(err).__name__}): "
                        "save it as UTF-8 text, one JSON object per line") from None


def _parse(line: str, where: str, what: str) -> Any:
    """One line's JSON; a too-deep nesting (200,000 brackets) is one line, not a traceback."""
    try:
        return json.loads(line)
    except json.JSONDecodeError as err:
        raise UserError(f"{where}: not valid JSON ({err.msg}); a {what} must be JSON Lines, one object "
                        "per line") from None
    except RecursionError:
        raise UserError(f"{where}: JSON nested too deep to read; a {what} holds flat objects, one per "
                        "line") from None
