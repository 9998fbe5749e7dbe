"""The text to verify: read from an argument, stdin or a file, and refused in one line when it
is empty, binary or too long (pure checks; ``read_source`` is the only I/O).

Why a limit: a brief of 50,000 characters is the use case; a 10 MB file is a mistake (the wrong
file, a PDF), and reading it would only cost time before an answer nobody reads.
"""

from __future__ import annotations

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


def read_source(arg: str) -> str:
    """TEXT itself, '-' for stdin, or the name of an existing file."""
    if arg == "-":
        return check_text(textin.read_stdin(MAX_CHARS, VerifyInputError))
    path = Path(arg)
    try:
        is_file = len(arg) < 4096 and "\n" not in arg and path.is_file()
    except OSError:
        is_file = False
    if is_file:
        size = path.stat().st_size
        if size > 4 * MAX_CHARS:
            raise VerifyInputError(textin.too_long(arg, f"{size:,} bytes", MAX_CHARS))
        try:
            data = path.read_bytes()
        except OSError as err:
            raise VerifyInputError(f"cannot read {arg}: {err.strerror}") from None
        return check_text(decode(data, arg))
    return check_text(arg)
