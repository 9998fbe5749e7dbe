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


def records(path: Path, what: str, missing: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for every non-blank line of ``path``."""
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rt", encoding="utf-8") as fh:  # type: ignore[operator]
            for lineno, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError as err:
                    raise UserError(f"{path}:{lineno}: not valid JSON ({err.msg}); a {what} must be "
                                    "JSON Lines, one object per line") from None
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
