"""The parser's user-facing error."""

from ..errors import UserError


class ParseError(UserError):
    """A file that cannot be parsed (empty, truncated, not XML, not a gii file, unknown code).

    The message always names the file (or code) and the problem, so the CLI can print it as one
    line and continue with the other files.
    """
