"""The text to verify: read from an argument, stdin or a file, and refused in one line when it
is empty, binary or too long (pure checks; ``read_source`` is the only I/O).

Why a limit: a brief of 50,000 characters is the use case; a 10 MB file is a mistake (the wrong
file, a PDF), and reading it would only cost time before an answer nobody reads.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..errors import UserError

#: Longest text ``verify`` accepts, in characters (20x the 50,000-character brief of the goal).
MAX_CHARS = 1_000_000


class VerifyInputError(UserError):
    """Bad input for verify: exit 2, because exit 1 means "a citation is broken"."""

    exit_code = 2


def check_text(text: object) -> str:
    """``text`` itself when it is verifiable text; else one-line ``VerifyInputError``."""
    if not isinstance(text, str):
        raise VerifyInputError(f"the text must be a string, not {type(text).__name__}")
    if len(text) > MAX_CHARS:
        raise VerifyInputError(f"the text has {len(text):,} characters, more than the {MAX_CHARS:,} "
                               "verify reads: split it into parts")
    if "\x00" in text:
        raise VerifyInputError("the input holds NUL bytes: it looks binary, give plain text (a PDF or "
                               "Word file must be converted to text first)")
    if not text.strip():
        raise VerifyInputError("the text is empty: give the text to verify as an argument, '-' for stdin, "
                               "or a file name")
    return text


def decode(data: bytes, where: str) -> str:
    if len(data) > 4 * MAX_CHARS:
        raise VerifyInputError(f"{where} has {len(data):,} bytes, more than verify reads "
                               f"({MAX_CHARS:,} characters): split it into parts")
    if b"\x00" in data:
        raise VerifyInputError(f"{where} holds NUL bytes: it looks binary, give plain text (a PDF or Word "
                               "file must be converted to text first)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise VerifyInputError(f"{where} is not UTF-8 text (byte {err.start}): convert it to UTF-8") from None


def read_source(arg: str) -> str:
    """TEXT itself, '-' for stdin, or the name of an existing file."""
    if arg == "-":
        return check_text(decode(sys.stdin.buffer.read(4 * MAX_CHARS + 1), "stdin"))
    path = Path(arg)
    try:
        is_file = len(arg) < 4096 and "\n" not in arg and path.is_file()
    except OSError:
        is_file = False
    if is_file:
        size = path.stat().st_size
        if size > 4 * MAX_CHARS:
            raise VerifyInputError(f"{arg} has {size:,} bytes, more than verify reads "
                                   f"({MAX_CHARS:,} characters): split it into parts")
        try:
            data = path.read_bytes()
        except OSError as err:
            raise VerifyInputError(f"cannot read {arg}: {err.strerror}") from None
        return check_text(decode(data, arg))
    return check_text(arg)
