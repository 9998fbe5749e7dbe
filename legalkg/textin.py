"""Text given on the command line or on stdin: bounded, decoded and checked in one place.

Why one place: ``verify``, ``search``, ``context`` and ``cite`` all take TEXT or '-'. Read as
``sys.stdin.read()``, a 10 MB query was read whole (12 s, 560 MB) and invalid UTF-8 under a
strict locale (``PYTHONIOENCODING=utf-8:strict``) was a traceback. Here stdin is read as bytes,
at most 4 bytes per allowed character, and every refusal is one line naming the fix.
"""

from __future__ import annotations

import sys

from .errors import UserError

#: Longest text a command reads, in characters (20x the 50,000-character brief of verify's goal).
MAX_CHARS = 1_000_000


def too_long(what: str, count: str, limit: int) -> str:
    return f"{what} has {count}, more than {limit:,} characters, the most this command reads: split it into parts"


def decode(data: bytes, where: str, limit: int = MAX_CHARS, error: type[UserError] = UserError) -> str:
    """``data`` as UTF-8 text (a BOM dropped); one-line ``error`` for binary, non-UTF-8 or over-long input."""
    if len(data) > 4 * limit:
        raise error(too_long(where, f"{len(data):,} bytes", limit))
    if b"\x00" in data:
        raise error(f"{where} holds NUL bytes: it looks binary, give plain text (a PDF or Word "
                    "file must be converted to text first)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise error(f"{where} is not UTF-8 text (byte {err.start}): convert it to UTF-8") from None
    return check_length(text, where, limit, error)


def check_length(text: str, where: str = "the text", limit: int = MAX_CHARS,
                 error: type[UserError] = UserError) -> str:
    if len(text) > limit:
        raise error(too_long(where, f"{len(text):,} characters", limit))
    return text


def check_argument(text: str, where: str = "the text on the command line",
                   error: type[UserError] = UserError) -> str:
    """``text`` as given in argv, refused when it was not UTF-8: Python keeps such bytes as lone
    surrogates (U+DC80..U+DCFF), and the grammar silently lost the "§" they stood for."""
    for at, char in enumerate(text):
        if "\udc80" <= char <= "\udcff":
            raise error(f"{where} is not UTF-8 (byte 0x{ord(char) - 0xDC00:02x} at character {at}): "
                        "convert it to UTF-8 or pass it on stdin with '-'")
    return text


def read_stdin(limit: int = MAX_CHARS, error: type[UserError] = UserError) -> str:
    """At most ``limit`` characters of stdin, decoded as UTF-8 whatever the locale says."""
    return decode(sys.stdin.buffer.read(4 * limit + 1), "stdin", limit, error)


def text_argument(arg: str, limit: int = MAX_CHARS, error: type[UserError] = UserError) -> str:
    """TEXT itself, or stdin for '-'; NUL bytes and over-long text refused as for stdin."""
    if arg == "-":
        return read_stdin(limit, error)
    if "\x00" in arg:
        raise error("the text holds NUL bytes: give plain text")
    return check_argument(check_length(arg, "the text", limit, error), error=error)
