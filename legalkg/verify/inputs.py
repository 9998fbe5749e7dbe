"""The text to verify: read from an argument, stdin or a file, and refused in one line when it
is empty, binary or too long (pure checks; ``read_source`` is the only I/O).

Why a limit: a brief of 50,000 characters is the use case; a 10 MB file is a mistake (the wrong
file, a PDF), and reading it would only cost time before an answer nobody reads.
"""

from __future__ import annotations

import re
import stat
from pathlib import Path

from .. import textin
from ..errors import UserError
from ..textin import MAX_CHARS


class VerifyInputError(UserError):
    """Bad input for verify: exit 2, because exit 1 means "a citation is broken"."""

    exit_code = 2


def check_text(text: object) -> str:
    """``text`` itself when it is verifiable text; else one-line ``VerifyInputError``."""
    if not isinstance(text, str):
        raise VerifyInputError(f"the text must be a string, not {type(text).__name__}")
    textin.check_length(text, "the text", MAX_CHARS, VerifyInputError)
    if "\x00" in text:
        raise VerifyInputError("the input holds NUL bytes: it looks binary, give plain text (a PDF or "
                               "Word file must be converted to text first)")
    if not text.strip():
        raise VerifyInputError("the text is empty: give the text to verify as an argument, '-' for stdin, "
                               "or a file name")
    return text


def decode(data: bytes, where: str) -> str:
    return textin.decode(data, where, MAX_CHARS, VerifyInputError)


#: An argument that names a file rather than being text: one word with a folder separator, a
#: leading "~" or ".", or a file suffix ("brief.txt", "notes/a", "~/x"). A citation has a blank.
PATH_LIKE = re.compile(r"\S*(?:[/\\]|^[~.])\S*|\S+\.[A-Za-z][A-Za-z0-9]{0,4}")


def read_source(arg: str) -> str:
    """TEXT itself, '-' for stdin, or the name of an existing file (a pipe such as ``<(cmd)`` too).

    Why a path-like argument that names nothing is an error: read as the text, a typo in the file
    name was "0 citations", exit 0, and passed a CI gate."""
    if arg == "-":
        return check_text(textin.read_stdin(MAX_CHARS, VerifyInputError))
    textin.check_argument(arg, error=VerifyInputError)
    mode = _mode(arg)
    if mode is None:
        if PATH_LIKE.fullmatch(arg.strip()):
            raise VerifyInputError(f"there is no file {arg!r}: give an existing file, '-' for stdin, or the "
                                   "text itself (with a blank, e.g. 'Nach § 433 BGB')")
        return check_text(arg)
    if stat.S_ISDIR(mode):
        raise VerifyInputError(f"{arg} is a folder: give one text file (or '-' and pipe the text in)")
    if stat.S_ISREG(mode) and Path(arg).stat().st_size > 4 * MAX_CHARS:
        raise VerifyInputError(textin.too_long(arg, f"{Path(arg).stat().st_size:,} bytes", MAX_CHARS))
    try:  # a pipe or a device is read up to the limit, never whole (/dev/zero)
        with open(arg, "rb") as fh:
            data = fh.read(4 * MAX_CHARS + 1)
    except OSError as err:
        raise VerifyInputError(f"cannot read {arg}: {err.strerror}") from None
    return check_text(decode(data, arg))


def _mode(arg: str) -> int | None:
    """The file mode of ``arg`` as a path; None when it names nothing (or cannot be a path)."""
    if len(arg) >= 4096 or "\n" in arg:
        return None
    try:
        return Path(arg).stat().st_mode
    except (OSError, ValueError):
        return None
